// service_name: the unique, human-guessable id of an API manifest (and its file name).
//
// Rule (stable under reruns, documented in the README):
//   1. provider label = the registrable name of the provider domain (`stripe.com` → `stripe`,
//      `apisetu.gov.in` → `apisetu`, `rubrikinc.github.io` → `rubrikinc`), with a few multi-API hubs
//      spelled the way people say them (`googleapis.com` → `google`, `amazonaws.com` → `aws`).
//   2. name = `<label>_api` without a service, else `<label>_<service>_api`; the service's words are
//      snake_cased, a leading repeat of the label and a trailing `api` are dropped, so
//      `googleapis.com:gmail` → `google_gmail_api` and `amazonaws.com:AWSMigrationHub` → `aws_migration_hub_api`.
//   3. collisions: when colliding specs come from different providers, each is prefixed with its whole
//      provider domain instead (`google.com` → `google_com_api`, `google.home` → `google_home_api`).
//      Specs that still share a name (same provider) are ranked by definition size, largest first; the
//      first keeps the name and the others get `_2`, `_3`, … (so `github.com/api.github.com`, the real
//      GitHub API, is `github_api`, and the small mis-filed `github.com` spec is `github_api_2`).
//   The result depends only on the directory's spec ids and file sizes, never on file-system order.

/** A directory entry: `x-providerName` and optional `x-serviceName`. */
export interface SpecId {
  provider: string;
  service?: string | undefined;
  /** Definition size (bytes); only ranks specs that would otherwise share a name. */
  size?: number | undefined;
}

const MAX_NAME = 100;

// Hubs whose domain is not the name people use; everything else is derived mechanically.
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  'googleapis.com': 'google',
  'amazonaws.com': 'aws',
  'hubapi.com': 'hubspot',
  'windows.net': 'azure',
};

// Second-level labels of country-code suffixes (`co.uk`, `gov.in`, `com.au`) and hosting platforms
// whose subdomain is the real owner.
const SECOND_LEVEL = new Set(['co', 'com', 'gov', 'ac', 'org', 'net', 'edu', 'or', 'ne', 'go', 'gob', 'nic']);
const HOSTING = new Set([
  'appspot.com',
  'herokuapp.com',
  'azurewebsites.net',
  'github.io',
  'gitlab.io',
  'netlify.app',
  'vercel.app',
]);

/** snake_case words: splits camelCase and acronyms (`AWSMigrationHub` → aws_migration_hub), drops non-ASCII. */
export function snakeWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/APIs/g, 'Apis')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .filter((w, i, all) => w !== all[i - 1]); // `batch-BatchService` → batch_service
}

export function snakeCase(text: string): string {
  return snakeWords(text).join('_');
}

/** The short label of a provider domain (step 1). */
export function providerLabel(provider: string): string {
  const domain = provider.toLowerCase();
  const alias = PROVIDER_ALIASES[domain];
  if (alias) return alias;
  let labels = domain.split('.').filter(Boolean);
  for (const host of HOSTING) {
    if (domain.endsWith(`.${host}`)) {
      labels = labels.slice(0, -host.split('.').length);
      break;
    }
  }
  if (labels.length > 1 && !HOSTING.has(domain)) {
    const tld = labels[labels.length - 1] ?? '';
    labels = labels.slice(0, -1);
    // `gov.uk`, `co.uk`, `com.au`: the second level is part of the suffix when the TLD is a country code.
    if (tld.length === 2 && labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1] ?? ''))
      labels = labels.slice(0, -1);
  }
  const label = labels[labels.length - 1] ?? domain;
  return snakeCase(label) || snakeCase(domain) || 'api';
}

const startsWith = (words: string[], prefix: string[]) => prefix.length > 0 && prefix.every((w, i) => words[i] === w);

function compose(prefixWords: string[], provider: string, service: string | undefined): string {
  let words = service ? snakeWords(service) : [];
  // A service spelled as the provider's own host (`github.com:api.github.com`) adds nothing.
  const domainWords = snakeWords(provider);
  if (
    words.length >= domainWords.length &&
    domainWords.every((w, i) => words[words.length - domainWords.length + i] === w)
  ) {
    words = words.slice(0, words.length - domainWords.length);
  }
  // Drop a leading repeat of the provider (`aws` + `AWSMigrationHub`, `twilio` + `twilio_api`).
  if (words.length > prefixWords.length && startsWith(words, prefixWords)) words = words.slice(prefixWords.length);
  while (words[0] === 'api' || words[0] === 'www') words = words.slice(1);
  while (words.length > 0 && (words[words.length - 1] === 'api' || words[words.length - 1] === 'apis'))
    words = words.slice(0, -1);
  const all = [...prefixWords, ...words, 'api'];
  let name = all.join('_');
  if (name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME - 4).replace(/_+$/, '')}_api`;
  return name;
}

/** Step 2: the name before collisions are known. */
export function candidateName(id: SpecId): string {
  return compose(snakeWords(providerLabel(id.provider)), id.provider, id.service);
}

export function specKey(id: SpecId): string {
  return id.service ? `${id.provider}/${id.service}` : id.provider;
}

/** Names for a whole directory (step 3); keys are `specKey(id)`. */
export function assignServiceNames(ids: readonly SpecId[]): Map<string, string> {
  const sorted = [...ids].sort((a, b) => (specKey(a) < specKey(b) ? -1 : specKey(a) > specKey(b) ? 1 : 0));
  const groups = new Map<string, SpecId[]>();
  for (const id of sorted) {
    const name = candidateName(id);
    const group = groups.get(name);
    if (group) group.push(id);
    else groups.set(name, [id]);
  }
  const out = new Map<string, string>();
  const taken = new Set<string>();
  // Unambiguous short names first, so a qualified or numbered name can never take one of them.
  for (const [name, group] of groups) {
    if (group.length === 1) {
      taken.add(name);
      out.set(specKey(group[0] as SpecId), name);
    }
  }
  const bySizeThenKey = (a: SpecId, b: SpecId) => (b.size ?? 0) - (a.size ?? 0) || (specKey(a) < specKey(b) ? -1 : 1);
  for (const [name, group] of groups) {
    if (group.length === 1) continue;
    const providers = new Set(group.map((id) => id.provider.toLowerCase()));
    const named = group.map((id): [SpecId, string] => [
      id,
      providers.size > 1 ? compose(snakeWords(id.provider), id.provider, id.service) : name,
    ]);
    for (const [id, base] of named.sort(([a], [b]) => bySizeThenKey(a, b))) {
      let unique = base;
      for (let n = 2; taken.has(unique); n++) unique = `${base}_${n}`;
      taken.add(unique);
      out.set(specKey(id), unique);
    }
  }
  return out;
}
