// npm run popularity -- [--npm FILE] [--pypi FILE] [--month YYYY-MM] [--catalog DIR] [--dry-run] [--json] [AID ...]
// Fills trust.popularity of npm and PyPI tool contracts from offline package lists (build/import/list-popularity.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCatalogStore } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { fillPopularity, type PopularityChange } from '../import/list-popularity.ts';
import { PackageListError, readNpmList, readPypiList } from '../import/package-lists.ts';
import { normalizePypiName } from '../model/pypi-name.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run popularity -- [--npm FILE] [--pypi FILE] [--month YYYY-MM] [--catalog DIR] [--dry-run] [--json]
                             [AID ...]
Fills trust.popularity (the download percentile within the platform, as the importer computes it) of the npm
and PyPI tool contracts (all, or the aids given) from package lists taken offline, with record.popularity_source
naming the list and the figure, and record.popularity_measured_at the list's month. Writes through the catalog
store; every contract is validated before it is written.
  --npm FILE    tab-separated, first line names the columns: name, downloads_a_month (monthly downloads)
  --pypi FILE   tab-separated: name, rank_among_15000_most_downloaded (empty: below them), month (optional)
  --month       when the lists were taken; default: the newest month in the PyPI list (required without one)
  --dry-run     report what would change, write nothing
  --json        one object per contract: {aid, outcome, popularity, source | reason}
Contracts whose package is not listed keep what they have; a figure measured after the lists is kept.
Exit 0 when it ran, 2 on bad options or unreadable lists.
`);

const argv = process.argv.slice(2).filter((a) => a !== '--');
const options: Record<string, string> = {};
const flags = new Set<string>();
const aids: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] as string;
  if (a === '--dry-run' || a === '--json') flags.add(a.slice(2));
  else if (['--npm', '--pypi', '--month', '--catalog'].includes(a)) {
    const value = argv[++i];
    if (!value || value.startsWith('--')) fail(`${a} needs a value`);
    options[a.slice(2)] = value as string;
  } else if (a.startsWith('--')) fail(`unknown option ${a}`);
  else aids.push(a);
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

if (!options.npm && !options.pypi) fail('give --npm FILE, --pypi FILE or both (npm run popularity -- --help)');
for (const file of [options.npm, options.pypi]) if (file && !existsSync(file)) fail(`no such file: ${file}`);
if (options.month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(options.month)) fail('--month must be YYYY-MM');
const catalogDir = options.catalog ? path.resolve(options.catalog) : loadConfig().catalogDir;
if (!existsSync(path.join(catalogDir, 'tools'))) fail(`no tools folder in ${catalogDir}`);

const store = createCatalogStore({ dir: catalogDir, label: path.relative(process.cwd(), catalogDir) || 'catalog' });
const selected = aids.length ? aids : await store.list('tools');
// Only the names the catalog holds are kept from the lists.
const names = { npm: new Set<string>(), pypi: new Set<string>() };
for (const aid of selected) {
  const identity = ((await store.read('tools', aid))?.value as { identity?: { platform?: string; name?: string } })
    ?.identity;
  if (identity?.platform === 'npm' && identity.name) names.npm.add(identity.name);
  if (identity?.platform === 'pypi' && identity.name) names.pypi.add(normalizePypiName(identity.name));
}

let changes: PopularityChange[];
try {
  const npm = options.npm ? { ...(await readNpmList(options.npm, names.npm)), file: options.npm } : undefined;
  const pypi = options.pypi ? { ...(await readPypiList(options.pypi, names.pypi)), file: options.pypi } : undefined;
  const month = options.month ?? pypi?.latestMonth;
  if (!month) fail('say when the lists were taken: --month YYYY-MM (the PyPI list gives none)');
  changes = await fillPopularity(store, { npm, pypi, month }, { aids: selected, dryRun: flags.has('dry-run') });
} catch (error) {
  if (error instanceof PackageListError) fail(error.message);
  throw error;
}

if (flags.has('json')) for (const c of changes) console.log(JSON.stringify(c));
const count = (outcome: PopularityChange['outcome']) => changes.filter((c) => c.outcome === outcome);
for (const c of [...count('not listed'), ...count('invalid')]) {
  if ('reason' in c && !flags.has('json')) console.error(`${c.aid}: ${c.outcome}: ${c.reason}`);
}
console.error(
  `${flags.has('dry-run') ? 'would update' : 'updated'} ${count('updated').length}, unchanged ${count('unchanged').length}, ` +
    `not listed ${count('not listed').length}, kept newer ${count('kept newer').length}, ` +
    `no list for the platform ${count('no list').length}, invalid ${count('invalid').length}`,
);
