// Expansion table (build/search/expand.ts): related terms learned from the catalog's own documents.
// Evidence must come from independently named packages (one publisher's family is one witness),
// and an agent noun must be used with its base word before it stands in for it.
import { describe, expect, it } from 'vitest';
import { analyzeDocument, documentFromContract } from '../../../build/search/documents.ts';
import { learnExpansions } from '../../../build/search/expand.ts';
import { stem } from '../../../build/search/tokenize.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

const entry = (id: string, name: string, task: string) => sampleContract(id, { identity: { name, task, tags: [] } });

// Unrelated entries, so the words under test are rare (expansion works on words in <= 2% of entries).
const filler = Array.from({ length: 1000 }, (_, i) =>
  entry(`npm-filler${i}-v1`, `filler${i}`, `Utility ${i} for widgets`),
);
// Seventeen differs from as many authors; three of them say "compare" (P(compare|diff) = 0.18: a summary
// uses one word for the need, rarely both).
const authors = 'deep json text tree list html yaml row cell line word char file dir blob map set'.split(' ');
const differs = authors.map((w, i) =>
  entry(`npm-${w}-diff-v1`, `${w}-diff`, i < 3 ? `Compare two ${w} values and show the diff` : `Diff of ${w} changes`),
);
// One publisher's family: five summaries pair "compare" with "grommet", all named @acme/...
const family = ['small', 'large', 'round', 'square', 'brass'].map((w) =>
  entry(`npm-acme-grommet-${w}-v1`, `@acme/grommet-${w}`, `Compare grommet sizes for ${w} layouts`),
);
// Agent nouns: loggers say "log"; "newer" never appears with "new".
const loggers = ['pretty', 'tiny', 'json'].map((w) =>
  entry(`npm-${w}-logger-v1`, `${w}-logger`, `Log messages as ${w} lines`),
);
const logs = ['fast', 'cloud', 'file'].map((w) => entry(`npm-${w}-log-v1`, `${w}-log`, `Ship ${w} log records`));
const newer = ['alpha', 'beta', 'gamma'].map((w) =>
  entry(`npm-${w}-bump-v1`, `${w}-bump`, `Tell whether a ${w} release is newer`),
);
const fresh = ['one', 'two', 'three'].map((w) => entry(`npm-${w}-fresh-v1`, `${w}-fresh`, `Start a new ${w} project`));

// A rare agent noun (two entries, below the three that co-occurrence needs), one of them saying "geocode".
const geocoders = [
  entry('npm-geo-coder-v1', 'geo-kit', 'Geocoder client that can geocode street addresses'),
  entry('npm-place-coder-v1', 'place-kit', 'Offline geocoder for place names'),
  ...['city', 'zip', 'road'].map((w) => entry(`npm-${w}-geo-v1`, `${w}-geo`, `Geocode ${w} names to coordinates`)),
];

const docs = [...filler, ...differs, ...family, ...loggers, ...logs, ...newer, ...fresh, ...geocoders].map(
  documentFromContract,
);
const table = learnExpansions(docs.map(analyzeDocument));
const related = (word: string) => (table.get(stem(word)) ?? []).map(([t]) => t);

describe('expansion table', () => {
  it('learns a word that independently named packages use for the same need (compare -> diff)', () => {
    expect(related('compare')).toContain(stem('diff'));
  });

  it("does not learn a pair that only one publisher's family uses, however often", () => {
    // grommet co-occurs with compare in five summaries (P(compare|grommet) = 1), all of @acme's.
    expect(related('compare')).not.toContain(stem('grommet'));
  });

  it('links an agent noun to its base word only when summaries use both', () => {
    expect(related('logger')).toContain(stem('log'));
    expect(related('new')).not.toContain(stem('newer'));
    expect(related('geocode')).toContain(stem('geocoder'));
  });

  it('learns the same table whatever order the documents come in', () => {
    expect(learnExpansions(docs.map(analyzeDocument).reverse())).toEqual(table);
  });
});
