// Which content codings a client takes, in this server's order of preference (br first: smaller, and at the
// levels used here also cheaper). Ours, not h3's: h3 breaks ties by the header's order, and browsers list
// gzip before br. Shared by the precompressed dist/ files and the on-the-fly compression of dynamic answers.

export type Coding = 'br' | 'gzip';

const PREFERENCE: readonly Coding[] = ['br', 'gzip'];

export function acceptedCodings(header: string | null | undefined): Coding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const weight = params.find((p) => p.startsWith('q='));
    q.set(name === 'x-gzip' ? 'gzip' : name, weight ? Number(weight.slice(2)) || 0 : 1);
  }
  return PREFERENCE.filter((name) => (q.get(name) ?? q.get('*') ?? 0) > 0);
}
