// Values an agent takes from what it was asked and what it holds, beyond passing inputs through: the option
// the need names ("the SHA-1 checksum" → algorithm sha1 of [md5, sha1, sha256]), and a list held as text handed
// to a placeholder that wants a JSON array ("2.0.0 1.10.0 1.2.0" → ["2.0.0","1.10.0","1.2.0"]). Any agent
// that reads the contract does both; leaving the default instead runs the tool for another task.

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Every run of one to three consecutive words of the need, normalised, with where it starts. */
function needPhrases(need: string): { phrase: string; at: number }[] {
  const words = need.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const out: { phrase: string; at: number }[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) out.push({ phrase: words.slice(i, i + n).join(''), at: i });
  }
  return out;
}

// A source-side option takes the first value the need names ("from CSV to JSON"), any other the last.
const SOURCE_SIDE = /(^|_)(from|source|src|input|in)(_|$)/i;
const TARGET_SIDE = /(^|_)(to|into|target|dest|destination|output|out)(_|$)/i;

/** The side of a conversion a placeholder's name puts it on (`from_zone`, `to_zone`), or null. */
export function placeholderSide(placeholder: string): 'source' | 'target' | null {
  return SOURCE_SIDE.test(placeholder) ? 'source' : TARGET_SIDE.test(placeholder) ? 'target' : null;
}

const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** Where `part` stands in `text` not glued to letters or digits ("3" is not in "2023"), or -1. */
function wholeMatch(text: string, part: string): number {
  if (!part) return -1;
  const edge = (c: string | undefined) => c === undefined || !/[a-z0-9]/.test(c);
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
    if (edge(text[at - 1]) && edge(text[at + part.length])) return at;
  }
  return -1;
}

/**
 * Where the need mentions a value (as written, else by the first of its words of 3+ characters: "Los Angeles"
 * for America/Los_Angeles), in words from the start, and the side the two words before it give: "to"/"into" the
 * target, "from" the source.
 */
export function valueMention(
  need: string,
  value: string,
): { at: number; side: 'source' | 'target' | null } | undefined {
  const needWords = words(need);
  const offset = wholeMatch(need.toLowerCase(), value.trim().toLowerCase());
  const mine = words(value).filter((w) => w.length >= 3);
  const at = offset >= 0 ? words(need.slice(0, offset)).length : needWords.findIndex((w) => mine.includes(w));
  if (at < 0) return undefined;
  const before = needWords.slice(Math.max(0, at - 2), at);
  const side = before.some((w) => w === 'to' || w === 'into') ? 'target' : before.includes('from') ? 'source' : null;
  return { at, side };
}

/**
 * The value of an option the need names: one of the property's enum values, examples or default, matched as
 * whole words with punctuation ignored ("SHA-1" is sha1, "Star Wars" is starwars); values shorter than two
 * characters never match. Failing that, the value whose own words the need uses most (`isMobilePhone` for "check
 * a phone number": mobile, phone), when one value leads. Undefined when the need names none.
 */
export function optionNamedByNeed(placeholder: string, candidates: unknown[], need: string): string | undefined {
  const values = [...new Set(candidates.filter((v): v is string => typeof v === 'string' && norm(v).length >= 2))];
  if (!values.length) return undefined;
  const phrases = needPhrases(need);
  const named = values
    .map((value) => ({ value, at: phrases.find((p) => p.phrase === norm(value))?.at ?? -1 }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (named.length) return (SOURCE_SIDE.test(placeholder) ? named[0] : named[named.length - 1])?.value;
  return valueByItsWords(values, need);
}

// Words that say nothing about which value is meant (`isEmail`, `to-upper`, `as_json`).
const EMPTY_WORDS = new Set([
  'is',
  'to',
  'as',
  'of',
  'the',
  'and',
  'or',
  'in',
  'on',
  'by',
  'for',
  'with',
  'get',
  'set',
]);
const stemOf = (w: string) => w.replace(/(es|s)$/, '');

/** The value most of whose words (camelCase, kebab or snake parts of 3+ letters) the need uses; ties: none. */
function valueByItsWords(values: string[], need: string): string | undefined {
  const needStems = new Set(words(need).map(stemOf));
  const scored = values.map((value) => {
    const parts = value
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length >= 3 && !EMPTY_WORDS.has(w));
    return { value, hits: parts.filter((w) => needStems.has(stemOf(w))).length };
  });
  scored.sort((a, b) => b.hits - a.hits);
  const [first, second] = scored;
  return first && first.hits > 0 && (!second || second.hits < first.hits) ? first.value : undefined;
}

/**
 * A text for a placeholder whose example or default is a JSON array: itself when it is JSON already, else its
 * items as a JSON array of strings (one per line when it has several lines, else split at commas, else at
 * white space). Undefined when the placeholder does not want an array.
 */
export function textAsJsonList(text: string, example: unknown): string | undefined {
  const wantsArray =
    Array.isArray(example) || (typeof example === 'string' && /^\s*\[/.test(example) && isJson(example));
  if (!wantsArray || isJson(text)) return undefined;
  const trimmed = text.trim();
  const items = trimmed.includes('\n')
    ? trimmed.split(/\r?\n/)
    : trimmed.includes(',')
      ? trimmed.split(',')
      : trimmed.split(/\s+/);
  return JSON.stringify(items.map((i) => i.trim()).filter(Boolean));
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
