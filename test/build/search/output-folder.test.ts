// A folder the need says its results go into (build/search/output-folder.ts): for an agent that sends only its words,
// a command that writes into a folder ranks above one that only prints; an agent that says what it holds gets the
// API's filter.
import { describe, expect, it } from 'vitest';
import { mentionsOutputFolder, writesFolderTerms } from '../../../build/search/output-folder.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { expectStaticAgrees, rankingIndex } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const tool = (aid: string, task: string, cmd: string, out: 'output_dir' | null, reliability: number) =>
  sampleContract(aid, {
    identity: { task, tags: ['tar', 'archive'] },
    logic: {
      input_schema: {
        type: 'object',
        properties: {
          archive: { type: 'string', role: 'input_file' },
          ...(out ? { folder: { type: 'string', role: out } } : {}),
        },
      },
      output_schema: { type: 'string' },
    },
    action: { execute_cmd: cmd },
    trust: { reliability_score: reliability },
  });
const lister = tool(
  'npm-tar-lister-v1',
  'List or unpack the entries of a tar archive',
  'tar-list {archive}',
  null,
  0.97,
);
const extractor = tool(
  'npm-tar-extractor-v1',
  'Extract a tar archive',
  'tar-extract {archive} {folder}',
  'output_dir',
  0.85,
);

describe('mentionsOutputFolder', () => {
  it('finds a folder written into ("into a folder", "to a directory"), not one held ("in this folder")', () => {
    expect(mentionsOutputFolder('extract a tar.gz archive into a directory')).toBe(true);
    expect(mentionsOutputFolder('unpack it to the output folder')).toBe(true);
    expect(mentionsOutputFolder('list the files in this folder')).toBe(false);
    expect(mentionsOutputFolder('extract a tar archive')).toBe(false);
  });
  it('marks commands with an output folder placeholder', () => {
    expect(writesFolderTerms(extractor)).toEqual(['#dir']);
    expect(writesFolderTerms(lister)).toEqual([]);
  });
});

describe('ranking by a folder the need writes into', () => {
  const { docs, built, first } = rankingIndex([lister, extractor]);

  it('puts the folder writer first for words only, and leaves the order to the caller that says what it holds', async () => {
    const q = 'unpack a tar archive into a folder';
    expect(planQuery(q, new Map()).concepts).toContain('#dir');
    expect(planQuery(q, new Map(), new Map(), { saysInputs: true }).concepts).not.toContain('#dir');
    expect(first(q)).toBe('npm-tar-extractor-v1');
    expect(first(q, { saysInputs: true })).toBe('npm-tar-lister-v1');
    await expectStaticAgrees(docs, built, [q]);
  });
});
