// Data values in a need ("add 45 days to 2024-01-20", "split https://example.com:8080/a", "is 10.0.0.7 in
// 10.0.0.0/8") are what the agent holds, not what it asks for: their digits and host names would otherwise become
// concepts and match any tool whose text happens to hold them. Each value becomes the word for its kind (a date, a
// URL, an IP address), which is what a tool's summary says it takes. Pure; plan.ts applies it to query text only
// (summaries describe kinds, not values).
//   typeLiterals(text) -> text with each recognised value replaced by the words of its kind

const KINDS: readonly (readonly [RegExp, string])[] = [
  [/\bhttps?:\/\/[^\s'"<>]+/giu, ' url '],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/gu, ' email address '],
  // Before dates and times: a UUID's groups would read as numbers.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/giu, ' uuid '],
  [/\b\d{4}-\d{2}-\d{2}[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?(?![\w:])/giu, ' date time '],
  [/\b\d{4}-\d{2}-\d{2}\b/gu, ' date '],
  [/\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?\b)?/giu, ' time '],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?\b/gu, ' ip address '],
  // An international number: a plus sign, then digits in groups ("+33 1 42 68 53 00", "+1 (415) 555-0100").
  [/(?<![\w+])\+\d[\d ().-]{5,}\d\b/gu, ' phone number '],
  [/\bv?\d+\.\d+\.\d+(?:-[\w.]+)?\b/gu, ' version '],
  // A point on Earth: two decimal degrees, "(-33.87, 151.21)" in brackets or "48.8566, 2.3522" with 3+ decimals, not
  // part of a longer list of numbers ("1.25, 2.50, 3.75") nor prices.
  [/\(\s*[-+]?\d{1,3}\.\d{2,}°?\s*[NS]?\s*,\s*[-+]?\d{1,3}\.\d{2,}°?\s*[EW]?\s*\)/giu, ' latitude longitude '],
  [
    /(?<![\d.,$€£]\s*|[\w.-])[-+]?\d{1,3}\.\d{3,}°?\s*[NS]?\s*,\s*[-+]?\d{1,3}\.\d{3,}°?\s*[EW]?(?![\w.]|\s*,\s*[-+]?\d)/giu,
    ' latitude longitude ',
  ],
  [/(?<![\w&])#[0-9a-f]{6}\b|(?<![\w&])#[0-9a-f]{3}\b/giu, ' color '],
];

// A dotted key path ("address.city", "server.port", "items[0].name") names a value inside a document the agent
// holds; its segments are the document's keys, not the job. File names ("photo.jpg", "package.json"), package names
// ("day.js", "socket.io"), host names ("example.com") and abbreviations ("e.g.", "a.m.") keep their words.
const KEY_PATH = /(?<![\w./-])[a-z_][\w$]*(?:\[\d+\])*(?:\.[a-z_$][\w$]*(?:\[\d+\])*)+(?![\w/-]|\.\w)/giu;
const NOT_A_KEY = new Set(
  (
    'json yaml yml toml xml csv tsv txt md html htm css scss js mjs cjs ts tsx jsx py rb go rs java php sh ' +
    'pdf png jpg jpeg gif svg webp bmp tif tiff ico heic avif mp3 mp4 wav ogg flac webm mov avi mkv ' +
    'zip gz tgz tar bz2 xz 7z rar docx doc xlsx xls pptx odt ods rtf epub eml msg ics vcf env ini cfg conf log ' +
    'sql db sqlite lock map wasm bin exe dll so dylib jar whl ' +
    'com org net io dev app ai co uk de fr jp cn ru gov edu info me us ca au nl eu ly to tv xyz cloud site'
  ).split(' '),
);
const keyPath = (token: string) => {
  const segments = token.replace(/\[\d+\]/g, '').split('.');
  if (segments.every((s) => s.length === 1)) return token;
  return NOT_A_KEY.has(segments.at(-1)!.toLowerCase()) ? token : ' key path ';
};

// Each recognised value, in KINDS order then key paths, replaced by what `value` returns for the words of its kind.
function replaceValues(text: string, value: (words: string) => string): string {
  let out = text;
  for (const [pattern, words] of KINDS) out = out.replace(pattern, () => value(words));
  return out.replace(KEY_PATH, (token) => {
    const words = keyPath(token);
    return words === token ? token : value(words);
  });
}

/** How many data values (of the kinds above, key paths included) a text holds. */
export function countLiterals(text: string): number {
  let n = 0;
  replaceValues(text, () => {
    n++;
    return ' ';
  });
  return n;
}

export function typeLiterals(text: string): string {
  return replaceValues(text, (words) => words);
}
