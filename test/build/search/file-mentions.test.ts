// A file the need says it holds (build/search/file-mentions.ts): for an agent that sends only its words, a command
// that reads a file ranks above one that takes no file; an agent that says what it holds gets the API's filter.
import { describe, expect, it } from 'vitest';
import { mentionsHeldFile, mentionsTwoFiles, readsFileTerms } from '../../../build/search/file-mentions.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { expectStaticAgrees, rankingIndex } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const tool = (aid: string, task: string, cmd: string, role: 'text' | 'input_file', reliability: number) =>
  sampleContract(aid, {
    identity: { task, tags: ['mime'] },
    logic: {
      input_schema: { type: 'object', properties: { value: { type: 'string', role } } },
      output_schema: { type: 'string' },
    },
    action: { execute_cmd: cmd },
    trust: { reliability_score: reliability },
  });
const byName = tool(
  'npm-by-name-v1',
  'Tell the MIME type of a file name or extension',
  'by-name {value}',
  'text',
  0.97,
);
const byContent = tool(
  'npm-by-content-v1',
  'Tell the MIME type of a file from its first bytes',
  'by-content {value}',
  'input_file',
  0.85,
);

describe('mentionsHeldFile', () => {
  it('finds a file held ("of a file", "this image"), not one made ("make a PDF document")', () => {
    expect(mentionsHeldFile('md5sum of a file')).toBe(true);
    expect(mentionsHeldFile('how many files are there in this zip archive')).toBe(true);
    expect(mentionsHeldFile('make a pdf document')).toBe(false);
    expect(mentionsHeldFile('generate a uuid')).toBe(false);
  });
  it('marks commands with a file placeholder', () => {
    expect(readsFileTerms(byContent)).toEqual(['#file']);
    expect(readsFileTerms(byName)).toEqual([]);
  });
});

describe('ranking by a file the need holds', () => {
  const { docs, built, first } = rankingIndex([byName, byContent]);

  it('puts the file reader first for words only, and leaves the order to the caller that says what it holds', async () => {
    const q = 'tell the MIME type of a file';
    expect(planQuery(q, new Map()).concepts).toContain('#file');
    expect(planQuery(q, new Map(), new Map(), { saysInputs: true }).concepts).not.toContain('#file');
    expect(first(q)).toBe('npm-by-content-v1');
    expect(first(q, { saysInputs: true })).toBe('npm-by-name-v1');
    await expectStaticAgrees(docs, built, [q]);
  });
});

describe('ranking by two files the need holds', () => {
  const archiver = (aid: string, cmd: string, files: string[], reliability: number) =>
    sampleContract(aid, {
      identity: { task: 'Pack files into a .tar.gz archive', tags: ['tar', 'archive'] },
      logic: {
        input_schema: {
          type: 'object',
          properties: Object.fromEntries(files.map((f) => [f, { type: 'string', role: 'input_file' }])),
        },
        output_schema: { type: 'string' },
      },
      action: { execute_cmd: cmd },
      trust: { reliability_score: reliability },
    });
  const one = archiver('npm-pack-single-v1', 'pack-single {input}', ['input'], 0.97);
  const two = archiver('npm-pack-pair-v1', 'pack-pair {first} {second}', ['first', 'second'], 0.85);
  const { docs, built, first } = rankingIndex([one, two]);

  it('finds two files named ("two files", "these two PDFs", "both images"), not two of something else', () => {
    expect(mentionsTwoFiles('pack two files into a .tar.gz archive')).toBe(true);
    expect(mentionsTwoFiles('combine these two PDFs into a single PDF')).toBe(true);
    expect(mentionsTwoFiles('compare two strings')).toBe(false);
    expect(readsFileTerms(two)).toEqual(['#file', '#file2']);
    expect(readsFileTerms(one)).toEqual(['#file']);
  });

  it('puts the command that takes both first for words only, and leaves it to the caller that says what it holds', async () => {
    const q = 'pack two files into a .tar.gz archive';
    expect(first(q)).toBe('npm-pack-pair-v1');
    expect(first(q, { saysInputs: true })).toBe('npm-pack-single-v1');
    expect(first('pack files into a .tar.gz archive')).toBe('npm-pack-single-v1');
    await expectStaticAgrees(docs, built, [q]);
  });
});
