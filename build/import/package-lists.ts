// Offline download figures from package lists (tab-separated, first line names the columns): an npm list
// with `name` and `downloads_a_month`, a PyPI list with `name`, `rank_among_15000_most_downloaded` (empty:
// below the 15,000) and optionally `month` (the month of each listed release). Read as a stream, keeping
// only the names asked for: the lists are large (npm: 227,000 lines; PyPI: 886,000).
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { normalizePypiName } from '../model/pypi-name.ts';

export interface NpmList {
  /** Monthly downloads by exact package name. */
  downloads: Map<string, number>;
}

export interface PypiList {
  /** Download rank by normalised name (normalizePypiName); null: listed but below the ranked ones. */
  ranks: Map<string, number | null>;
  /** The latest `month` column value (YYYY-MM): the list cannot be older than its newest release. */
  latestMonth: string | null;
}

export class PackageListError extends Error {}

async function readRows(
  file: string,
  required: readonly string[],
  onRow: (get: (column: string) => string) => void,
): Promise<void> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let columns: Map<string, number> | null = null;
  for await (const line of lines) {
    if (!columns) {
      // Header cells may carry notes after the column name ("summary (words in […] …)").
      columns = new Map(line.split('\t').map((c, i) => [c.trim().split(/\s/)[0] as string, i]));
      const missing = required.filter((c) => !columns?.has(c));
      if (missing.length) {
        throw new PackageListError(`${file}: the first line names no column ${missing.join(', ')}`);
      }
      continue;
    }
    if (!line.trim()) continue;
    const cells = line.split('\t');
    onRow((column) => (cells[columns?.get(column) ?? -1] ?? '').trim());
  }
  if (!columns) throw new PackageListError(`${file}: empty file (the first line must name the columns)`);
}

/** The npm list's monthly downloads for the names asked for (all names when `wanted` is absent). */
export async function readNpmList(file: string, wanted?: ReadonlySet<string>): Promise<NpmList> {
  const downloads = new Map<string, number>();
  await readRows(file, ['name', 'downloads_a_month'], (get) => {
    const name = get('name');
    if (wanted && !wanted.has(name)) return;
    const n = Number(get('downloads_a_month'));
    if (get('downloads_a_month') !== '' && Number.isFinite(n) && n >= 0) downloads.set(name, n);
  });
  return { downloads };
}

/** The PyPI list's ranks for the names asked for (by normalizePypiName; all names when `wanted` is absent). */
export async function readPypiList(file: string, wanted?: ReadonlySet<string>): Promise<PypiList> {
  const ranks = new Map<string, number | null>();
  let latestMonth: string | null = null;
  await readRows(file, ['name', 'rank_among_15000_most_downloaded'], (get) => {
    const month = get('month');
    if (/^\d{4}-\d{2}$/.test(month) && (!latestMonth || month > latestMonth)) latestMonth = month;
    const key = normalizePypiName(get('name'));
    if (wanted && !wanted.has(key)) return;
    const cell = get('rank_among_15000_most_downloaded');
    const rank = Number(cell);
    ranks.set(key, cell !== '' && Number.isInteger(rank) && rank >= 1 ? rank : null);
  });
  return { ranks, latestMonth };
}
