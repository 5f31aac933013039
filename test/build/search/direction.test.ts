import { describe, expect, it } from 'vitest';
import { directionPairs } from '../../../build/search/direction.ts';
import { documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { expectStaticAgrees, lintFillers } from '../../helpers/search-engines.ts';
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
