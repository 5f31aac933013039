import { describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import {
  declaredReads,
  formatTerms,
  readsHeld,
  readsOnlyBinary,
  readTerm,
  readTerms,
} from '../../../build/search/reads.ts';
import { expectStaticAgrees, lintFillers } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const reading = (
  aid: string,
  inputSchema: ToolContract['logic']['input_schema'],
  task = 'Work with SVG and PNG images',
) =>
  sampleContract(aid, {
    identity: { task, tags: ['svg', 'png', 'image'] },
    logic: { input_schema: inputSchema, output_schema: { type: 'string' } },
  });

describe('readTerms', () => {
  it('takes the input format and the formats of the files the command reads, in the words a need uses', () => {
    const c = reading('npm-r-v1', {
      type: 'object',
      format: 'xml',
      properties: {
        notes: { type: 'string', role: 'input_file', examples: ['notes.md'] },
        config_path: { type: 'string', examples: ['settings.yml'] }, // no role: a file to read, by its name
        out: { type: 'string', role: 'output_file', examples: ['result.png'] },
        link: { type: 'string', role: 'url', format: 'uri', examples: ['https://example.com/a.html'] },
      },
    });
    expect(readTerms(c)).toEqual(['<xml', '<markdown', '<yaml']);
    expect(readTerms(reading('npm-s-v1', { type: 'string' }))).toEqual([]);
  });

  it('names formats as the query side does: extensions spelled out, schema formats of strings left out', () => {
    expect(readTerm('md')).toBe(readTerm('markdown'));
    expect(readTerm('.JPG')).toBe('<jpeg');
    expect(readTerm('uri')).toBeNull();
    expect(readTerm('date-time')).toBeNull();
    expect(readTerm('x')).toBeNull();
  });
});

describe('ranking by what a command reads', () => {
  const filler = lintFillers();
  // The same words, the same trust; only what each reads differs. Without the rule the order is by id.
  const svgReader = reading('npm-zz-svg-reader-v1', {
    type: 'object',
    properties: { svg_file: { type: 'string', role: 'input_file', examples: ['drawing.svg'] } },
  });
  const pngReader = reading('npm-aa-png-reader-v1', {
    type: 'object',
    format: 'png',
    properties: { image: { type: 'string', role: 'input_file', examples: ['photo.png'] } },
  });
  const docs = [...filler, svgReader, pngReader].map(documentFromContract);
  const queries = ['convert an SVG to a PNG', 'convert a PNG image into SVG', 'svg png image'];

  it('ranks the tool that reads the source format first, and both engines agree on order and scores', async () => {
    const built = createSearchIndex(docs);
    const first = (q: string) => built.engine.search(q, { limit: 1 })[0]?.id;
    expect(first('convert an SVG to a PNG')).toBe('npm-zz-svg-reader-v1');
    expect(first('convert a PNG image into SVG')).toBe('npm-aa-png-reader-v1');
    // No conversion stated: the two tie (up to rounding).
    const [a, b] = built.engine.search('svg png image', { limit: 2 });
    expect(b!.score).toBeCloseTo(a!.score, 6);
    await expectStaticAgrees(docs, built, queries);
  });
});

describe('declared reads and held formats', () => {
  const declaring = (format: unknown, example = 'in.bin') =>
    reading('npm-d-v1', {
      type: 'object',
      properties: { file: { type: 'string', role: 'input_file', format, examples: [example] } as never },
    });

  it("reads only what `format` declares, not an example's extension; a double extension gives both", () => {
    expect(declaredReads(declaring(undefined, 'sample.png'))).toEqual([]);
    expect(declaredReads(declaring(['tar', 'tar.gz', 'tgz']))).toEqual(['<tar', '<gzip']);
    expect(formatTerms('.XML')).toEqual(['<xml']);
    expect(formatTerms('report.tar.gz')).toEqual(['<report', '<tar', '<gzip']);
    expect(formatTerms('txt')).toEqual([]); // "text" says nothing about what a reader needs
  });

  it('a reader fits a held format it declares, or one its format contains (JSON in YAML), or declares none', () => {
    expect(readsHeld(['<yaml'], formatTerms('json'))).toBe(true);
    expect(readsHeld(['<yaml'], formatTerms('xml'))).toBe(false);
    expect(readsHeld(['<json'], formatTerms('yaml'))).toBe(false);
    expect(readsHeld([], formatTerms('xml'))).toBe(true);
    expect(readsHeld(['<html'], [])).toBe(true);
    expect(readsHeld(['<zip', '<tar'], formatTerms('tar.gz'))).toBe(true);
  });

  it('a reader of binary formats only is told apart from one that also reads text', () => {
    expect(readsOnlyBinary(declaredReads(declaring(['docx'])))).toBe(true);
    expect(readsOnlyBinary(declaredReads(declaring(['pdf', 'html'])))).toBe(false);
    expect(readsOnlyBinary(declaredReads(declaring(undefined, 'photo.png')))).toBe(false);
  });
});
