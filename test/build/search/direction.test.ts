import { describe, expect, it } from 'vitest';
import { directionPairs } from '../../../build/search/direction.ts';
import { documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { planQuery } from '../../../build/search/plan.ts';
import { DIR_FORWARD, DIR_READS_SOURCE, DIR_READS_TARGET, DIR_REVERSE, RANK } from '../../../build/search/rank.ts';
import { expectStaticAgrees, lintFillers, rankingIndex } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

describe('directionPairs', () => {
  it('reads "A to B", "A into B" and "B from A", skipping articles and words like file or page', () => {
    expect(directionPairs('convert an HTML page into Markdown')).toEqual(['html>markdown']);
    expect(directionPairs('Convert Markdown to HTML (CommonMark, GFM)')).toEqual(['markdown>html']);
    expect(directionPairs('convert a JSON file to XML')).toEqual(['json>xml']);
    expect(directionPairs('extract all the text from a PDF document')).toEqual(['pdf>text']);
    expect(directionPairs('make a PDF document out of a plain text file')).toEqual(['text>pdf']);
    expect(directionPairs('convert HTML and XML to JSON')).toEqual(['xml>json', 'html>json']);
    expect(directionPairs('Parse XML into JavaScript objects and build XML from objects')).toEqual([
      'xml>javascript',
      'xml>object',
      'object>xml',
    ]);
  });

  it('pairs the source with each word of the phrase after the connector, up to a preposition', () => {
    // The format is often the phrase's last word, after its adjectives: "to text" meets "to readable plain text".
    expect(directionPairs('Convert HTML to readable plain text')).toEqual(['html>readabl', 'html>text']);
    expect(directionPairs('turn a CSV file into JSON rows with the keys sorted')).toEqual(['csv>json', 'csv>row']);
    expect(directionPairs('convert JSON to YAML for a config file')).toEqual(['json>yaml']);
  });

  it("keeps a dotted file extension in the target phrase, while a sentence's full stop still ends it", () => {
    expect(directionPairs('convert a markdown file into a Word .docx document')).toEqual([
      'markdown>word',
      'markdown>docx',
    ]);
    expect(directionPairs('Convert HTML to Markdown. Then stop')).toEqual(['html>markdown']);
  });

  it('states nothing where no format is named on both sides', () => {
    expect(directionPairs('how many days are there from 2023-12-25 to 2024-02-14')).toEqual([]);
    expect(directionPairs('Convert between units of measurement')).toEqual([]);
    expect(directionPairs('')).toEqual([]);
    expect(directionPairs('to into from to')).toEqual([]);
  });
});

describe('ranking by direction', () => {
  const filler = lintFillers();
  // The reverse converter is the more reliable one, so without direction it would rank first.
  const forward = sampleContract('npm-md-to-html-v1', {
    identity: { task: 'Convert Markdown to HTML', tags: ['markdown', 'html'] },
    trust: { reliability_score: 0.97 },
  });
  const backward = sampleContract('npm-html-to-md-v1', {
    identity: { task: 'Convert HTML to Markdown', tags: ['markdown', 'html'] },
    trust: { reliability_score: 0.8 },
  });
  const docs = [...filler, forward, backward].map(documentFromContract);

  it('each way finds its converter first, and both engines agree on order and scores', async () => {
    const built = createSearchIndex(docs);
    expect(built.engine.search('convert an HTML page into Markdown', { limit: 1 })[0]?.id).toBe('npm-html-to-md-v1');
    expect(built.engine.search('markdown file to html', { limit: 1 })[0]?.id).toBe('npm-md-to-html-v1');
    // No direction in the query: the more reliable converter, as before.
    expect(built.engine.search('markdown html', { limit: 1 })[0]?.id).toBe('npm-md-to-html-v1');
    await expectStaticAgrees(docs, built, [
      'convert an HTML page into Markdown',
      'markdown file to html',
      'markdown html',
    ]);
  });
});

describe('the reverse conversion', () => {
  const reads = (aid: string, task: string, tags: string[], example: string, reliability: number) =>
    sampleContract(aid, {
      identity: { task, tags },
      logic: {
        input_schema: {
          type: 'object',
          properties: { input: { type: 'string', role: 'input_file', examples: [example] } },
        },
        output_schema: { type: 'string' },
      },
      trust: { reliability_score: reliability },
    });
  // A YAML library that reads YAML (and writes it from JSON) shares "convert" and "yaml" with the need, and is the
  // more reliable; the XML converter reads what the need holds.
  const yamlLib = reads(
    'npm-yaml-lib-v1',
    'Convert a YAML file to JSON, or a JSON file to YAML',
    ['yaml', 'json'],
    'config.yaml',
    0.97,
  );
  const xmlLib = reads('npm-xml-lib-v1', 'Parse an XML file into a JSON object', ['xml', 'json'], 'feed.xml', 0.8);
  // An image converter that reads both PNG and WebP: "a PNG image to WebP" reads as image>webp, yet it is no reverse
  // tool, since it reads a format the need names outside its target.
  const converter = sampleContract('npm-image-converter-v1', {
    identity: { task: 'Convert images between PNG and WebP', tags: ['image', 'png', 'webp'] },
    logic: {
      input_schema: {
        type: 'object',
        properties: { image: { type: 'string', role: 'input_file', format: ['png', 'webp', 'image'] } },
      },
      output_schema: { type: 'string' },
    },
  });
  // Shares the need's image words but converts nothing: first if the converter were ranked down.
  const sizer = sampleContract('npm-image-sizer-v1', {
    identity: { task: 'Get the width and height of a PNG or WebP image', tags: ['image', 'png', 'webp'] },
    trust: { reliability_score: 0.8 },
  });
  const { docs, built, first } = rankingIndex([yamlLib, xmlLib, converter, sizer]);

  it('marks the reverse terms only between two formats documents read', () => {
    const known = (t: string) => ['<xml', '<yaml', '<text'].includes(t);
    const dirs = (q: string) =>
      Object.fromEntries(
        planQuery(q, new Map(), new Map(), { known })
          .terms.filter((t) => t.dir)
          .map((t) => [t.term, t.dir]),
      );
    expect(dirs('convert XML to YAML')).toEqual({
      'xml>yaml': DIR_FORWARD,
      '<xml': DIR_READS_SOURCE,
      'yaml>xml': DIR_REVERSE,
      '<yaml': DIR_READS_TARGET,
    });
    // Not a conversion between formats: no reverse terms.
    expect(dirs('decode this base64 string back to text')).toEqual({
      'string>text': DIR_FORWARD,
      '<string': DIR_READS_SOURCE,
    });
    expect(Object.values(dirs('add a file to an existing zip archive'))).not.toContain(DIR_REVERSE);
  });

  it('ranks a tool for the reverse conversion down, and both engines agree', async () => {
    const q = 'convert XML to YAML';
    expect(first(q)).toBe('npm-xml-lib-v1');
    const saved = RANK.reverseDirection;
    try {
      RANK.reverseDirection = 1;
      expect(first(q)).toBe('npm-yaml-lib-v1'); // without the rule
    } finally {
      RANK.reverseDirection = saved;
    }
    // Read the other way, the YAML library is the one that reads the source.
    expect(first('convert YAML to JSON')).toBe('npm-yaml-lib-v1');
    expect(first('convert a PNG image to WebP')).toBe('npm-image-converter-v1');
    await expectStaticAgrees(docs, built, [q, 'convert YAML to JSON', 'convert a PNG image to WebP']);
  });

  it('reads the format a dotted extension names: a .docx reader is the reverse of a Markdown-to-.docx need', async () => {
    const q = 'convert a markdown file into a Word .docx document';
    const docxReader = reads(
      'npm-docx-reader-v1',
      'Convert a Word .docx document to HTML, Markdown or plain text',
      ['docx', 'word', 'markdown'],
      'report.docx',
      0.97,
    );
    const docxWriter = sampleContract('npm-docx-writer-v1', {
      identity: { task: 'Create a Word .docx document from Markdown text', tags: ['docx', 'word'] },
      trust: { reliability_score: 0.8 },
    });
    const mdLinter = reads('npm-md-linter-v1', 'Lint a Markdown file', ['markdown', 'lint'], 'README.md', 0.8);
    const index = rankingIndex([docxReader, docxWriter, mdLinter]);
    expect(index.first(q)).toBe('npm-docx-writer-v1');
    await expectStaticAgrees(index.docs, index.built, [q]);
  });
});
