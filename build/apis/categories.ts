// Category and tags of an API manifest, for browsing and search indexing.
//
// Category rule: the directory's own `info["x-apisguru-categories"]` mapped onto our fixed list, first
// mapped entry wins. Two documented exceptions, because the directory's labels are coarse (Gmail is
// filed under "analytics, media", every AWS/Azure/Google API under "cloud"):
//   - a specific keyword in the API's *title* (email, payments, sms, maps, storage, …) wins over a broad
//     directory category (cloud, analytics, media, open_data, developer_tools, tools, enterprise,
//     financial, telecom, entertainment);
//   - without directory categories, the same keywords are tried on title + description, else `other`.
import { type ApiCategory, MAX_TAGS } from './manifest.ts';
import { snakeWords } from './naming.ts';

/** APIs.guru category → ours. Unknown labels map to nothing (and are skipped). */
const DIRECTORY_CATEGORIES: Readonly<Record<string, ApiCategory>> = {
  analytics: 'analytics',
  backend: 'cloud',
  cloud: 'cloud',
  collaboration: 'productivity',
  customer_relation: 'commerce',
  developer_tools: 'developer_tools',
  ecommerce: 'commerce',
  education: 'data',
  email: 'email',
  enterprise: 'productivity',
  entertainment: 'media',
  financial: 'finance',
  forms: 'productivity',
  hosting: 'cloud',
  iot: 'cloud',
  location: 'maps',
  machine_learning: 'ai',
  marketing: 'commerce',
  media: 'media',
  messaging: 'messaging',
  monitoring: 'developer_tools',
  open_data: 'data',
  payment: 'payments',
  project_management: 'productivity',
  search: 'data',
  security: 'security',
  social: 'social',
  storage: 'storage',
  support: 'productivity',
  telecom: 'messaging',
  text: 'ai',
  time_management: 'productivity',
  tools: 'developer_tools',
  transport: 'maps',
};

/** Directory categories too broad to beat a specific title keyword. */
const BROAD = new Set([
  'cloud',
  'analytics',
  'media',
  'open_data',
  'developer_tools',
  'tools',
  'enterprise',
  'financial',
  'telecom',
  'entertainment',
]);

/** Whole-word keywords (checked in this order) that identify a specific category. */
const KEYWORDS: readonly [RegExp, ApiCategory][] = [
  [/\b(e-?mail|gmail|smtp|mailbox|inbox|mailchimp|newsletter)/i, 'email'],
  [/\b(payments?|checkout|invoic\w*|billing|paypal|stripe|card issuing)\b/i, 'payments'],
  [/\b(sms|chat|messag\w*|telephony|voice calls?|whatsapp|telegram|push notifications?)\b/i, 'messaging'],
  [/\b(maps?|geocod\w*|geolocation|routing|places|gis|navigation|geospatial)\b/i, 'maps'],
  [
    /\b(machine learning|artificial intelligence|ai|llm|nlp|language model|translat\w*|speech|vision|sentiment)\b/i,
    'ai',
  ],
  [/\b(storage|blob|buckets?|file ?shares?|s3|drive|backup)\b/i, 'storage'],
  [/\b(security|vulnerabilit\w*|threat|firewall|fraud|malware|identity|auth0|secrets?|key ?vault)\b/i, 'security'],
  [/\b(bank\w*|financ\w*|trading|stocks?|crypto\w*|accounting|tax)\b/i, 'finance'],
  [/\b(shop\w*|e-?commerce|orders?|products? catalog|retail|marketplace)\b/i, 'commerce'],
  [/\b(calendar|tasks?|docs|spreadsheets?|sheets|slides|project management|crm)\b/i, 'productivity'],
  [/\b(social|twitter|facebook|instagram|linkedin|mastodon|reddit)\b/i, 'social'],
  [/\b(analytics|metrics|monitoring|insights|reporting)\b/i, 'analytics'],
  [/\b(video|music|audio|podcasts?|images?|photos?|movies?|tv|streaming)\b/i, 'media'],
];

function keywordCategory(text: string): ApiCategory | undefined {
  for (const [re, category] of KEYWORDS) if (re.test(text)) return category;
  return undefined;
}

/** The directory's categories, tolerating a bare string (one definition has "security"). */
export function directoryCategories(info: Record<string, unknown>): string[] {
  const raw = info['x-apisguru-categories'];
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  return list.filter((c): c is string => typeof c === 'string' && c.length > 0).map((c) => c.toLowerCase());
}

export function chooseCategory(directory: readonly string[], title: string, description: string): ApiCategory {
  const mapped = directory.map((c) => DIRECTORY_CATEGORIES[c]).filter((c): c is ApiCategory => c !== undefined);
  const fromTitle = keywordCategory(title);
  const first = directory.find((c) => DIRECTORY_CATEGORIES[c] !== undefined);
  if (fromTitle && (first === undefined || BROAD.has(first))) return fromTitle;
  if (mapped[0]) return mapped[0];
  return keywordCategory(`${title} ${description.slice(0, 500)}`) ?? 'other';
}

// Words that say nothing about what an API does.
const STOPWORDS = new Set(
  (
    'a an and are as at be by can for from has have how in into is it its of on or our that the this to was we' +
    ' will with you your api apis rest restful service services v1 v2 v3 v4 version documentation openapi' +
    ' swagger spec specification endpoint endpoints provides provide allows using use used http https www' +
    ' com org net io json based client management resource resources public more about other all which' +
    ' these those their also new get see here please information data access'
  ).split(' '),
);

/** Words of a title or description that is already plain text (compile.ts passes returns.ts `plainText`). */
function words(plain: string): string[] {
  return plain
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && w.length <= 30 && !/^\d+$/.test(w) && !STOPWORDS.has(w));
}

/**
 * Tags, lowercase snake_case, at most MAX_TAGS: our category, then the directory's categories and
 * `x-tags`, then title words, then description words (in order of appearance, first 300 characters).
 */
export function chooseTags(
  category: ApiCategory,
  directory: readonly string[],
  xTags: readonly string[],
  title: string,
  description: string,
): string[] {
  const out: string[] = [];
  const add = (tag: string) => {
    const t = snakeWords(tag).join('_').slice(0, 40).replace(/_+$/, '');
    if (t && !out.includes(t) && out.length < MAX_TAGS) out.push(t);
  };
  if (category !== 'other') add(category);
  for (const c of directory) add(c);
  for (const t of xTags) add(t);
  for (const w of words(title)) add(w);
  for (const w of words(description.slice(0, 300))) add(w);
  return out;
}
