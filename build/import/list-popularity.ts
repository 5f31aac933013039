// trust.popularity from offline package lists (`npm run popularity`): the same percentile the importer gives
// (build/translate/download-percentile.ts), with record.popularity_source naming the list and its figure and
// record.popularity_measured_at the list's month. Written through the catalog store, each contract validated
// first. A figure measured after the list was made is kept (the importer's API figure is fresher).
import path from 'node:path';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import { validateContract } from '../model/validate-contract.ts';
import { npmPercentile, pypiRankPercentile } from '../translate/download-percentile.ts';
import type { Popularity } from '../translate/npm-popularity.ts';
import { normalizePypiName } from '../model/pypi-name.ts';
import type { NpmList, PypiList } from './package-lists.ts';

export interface PopularityLists {
  npm?: NpmList & { file: string };
  pypi?: PypiList & { file: string };
  /** When the lists were taken (YYYY-MM). */
  month: string;
}

export type PopularityChange =
  | { aid: string; outcome: 'updated' | 'unchanged'; popularity: number; source: string }
  | { aid: string; outcome: 'not listed' | 'no list' | 'kept newer' | 'invalid'; reason: string };

const fmt = (n: number) => n.toLocaleString('en');

/** The popularity a list gives a contract's package, or why it gives none. */
export function listPopularity(contract: ToolContract, lists: PopularityLists): Popularity | string {
  const { platform, name } = contract.identity;
  const measuredAt = `${lists.month}-01T00:00:00.000Z`;
  if (platform === 'npm') {
    if (!lists.npm) return 'no npm list given';
    const downloads = lists.npm.downloads.get(name);
    if (downloads === undefined) return `${name} is not in ${path.basename(lists.npm.file)}`;
    return {
      value: npmPercentile(downloads),
      source: `npm package list ${path.basename(lists.npm.file)} (${lists.month}): ${fmt(downloads)} downloads a month, percentile among the 60,000 most downloaded npm packages`,
      measuredAt,
    };
  }
  if (platform === 'pypi') {
    if (!lists.pypi) return 'no PyPI list given';
    const rank = lists.pypi.ranks.get(normalizePypiName(name));
    if (rank === undefined) return `${name} is not in ${path.basename(lists.pypi.file)}`;
    const where = rank === null ? 'below the 15,000 most downloaded' : `download rank ${fmt(rank)} of 15,000`;
    return {
      value: pypiRankPercentile(rank),
      source: `PyPI package list ${path.basename(lists.pypi.file)} (${lists.month}): ${where}, percentile within PyPI`,
      measuredAt,
    };
  }
  return `no download list for platform ${platform}`;
}

/** The contract with the popularity set; record's new fields go before `verification`, where edits are rare. */
export function withPopularity(contract: ToolContract, pop: Popularity): ToolContract {
  const { verification, ...record } = contract.record ?? {};
  return {
    ...contract,
    trust: { ...contract.trust, popularity: pop.value },
    record: {
      ...record,
      popularity_source: pop.source,
      popularity_measured_at: pop.measuredAt,
      ...(verification === undefined ? {} : { verification }),
    } as ToolContract['record'],
  };
}

/** Fills popularity for the given contracts (all tools when `aids` is absent); writes unless `dryRun`. */
export async function fillPopularity(
  store: CatalogStore,
  lists: PopularityLists,
  options: { aids?: string[]; dryRun?: boolean } = {},
): Promise<PopularityChange[]> {
  const changes: PopularityChange[] = [];
  for (const aid of options.aids ?? (await store.list('tools'))) {
    const file = await store.read('tools', aid);
    if (!file?.value) {
      changes.push({ aid, outcome: 'invalid', reason: file?.parseError ?? 'no such contract' });
      continue;
    }
    const contract = file.value as ToolContract;
    const pop = listPopularity(contract, lists);
    if (typeof pop === 'string') {
      changes.push({ aid, outcome: pop.startsWith('no ') ? 'no list' : 'not listed', reason: pop });
      continue;
    }
    const stored = contract.record?.popularity_measured_at;
    if (stored && contract.trust.popularity != null && Date.parse(stored) > Date.parse(pop.measuredAt)) {
      changes.push({ aid, outcome: 'kept newer', reason: `its figure was measured ${stored}, after the list` });
      continue;
    }
    const same =
      contract.trust.popularity === pop.value &&
      contract.record?.popularity_source === pop.source &&
      contract.record?.popularity_measured_at === pop.measuredAt;
    const next = withPopularity(contract, pop);
    const errors = validateContract(next);
    if (errors.length) {
      changes.push({ aid, outcome: 'invalid', reason: errors.map((e) => `${e.path} ${e.message}`).join('; ') });
      continue;
    }
    if (!same && !options.dryRun) await store.write('tools', aid, next);
    changes.push({ aid, outcome: same ? 'unchanged' : 'updated', popularity: pop.value, source: pop.source });
  }
  return changes;
}
