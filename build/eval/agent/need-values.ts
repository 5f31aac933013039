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

/**
 * The value of an option the need names: one of the property's enum values, examples or default, matched as
 * whole words with punctuation ignored ("SHA-1" is sha1, "Star Wars" is starwars); values shorter than two
 * characters never match. Undefined when the need names none.
 */
export function optionNamedByNeed(placeholder: string, candidates: unknown[], need: string): string | undefined {
  const values = [...new Set(candidates.filter((v): v is string => typeof v === 'string' && norm(v).length >= 2))];
  if (!values.length) return undefined;
  const phrases = needPhrases(need);
  const named = values
    .map((value) => ({ value, at: phrases.find((p) => p.phrase === norm(value))?.at ?? -1 }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (!named.length) return undefined;
  return (SOURCE_SIDE.test(placeholder) ? named[0] : named[named.length - 1])?.value;
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
