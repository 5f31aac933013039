// Flagship coverage: how many of the central operations of well-known APIs (flagship-operations.json,
// frozen before the intent rule was tuned) are among their manifests' intents.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Intent } from '../manifest.ts';
import { snakeCase } from '../naming.ts';

export const FLAGSHIP_FILE = path.join(import.meta.dirname, 'flagship-operations.json');

export type FlagshipList = Record<string, string[]>;

export function loadFlagship(file = FLAGSHIP_FILE): FlagshipList {
  return (JSON.parse(readFileSync(file, 'utf8')) as { apis: FlagshipList }).apis;
}

/** Template names do not matter (`{id}` = `{user_id}`), nor case or a trailing slash. */
const normalPath = (p: string) =>
  p
    .split(/[#?]/)[0]
    ?.replace(/\{[^}]*\}/g, '{}')
    .replace(/\/+$/, '')
    .toLowerCase() ?? '';

/** Whether an intent is the flagship entry: `op:OperationId`, or `METHOD /path` matching the end of its path. */
export function matches(entry: string, intent: Pick<Intent, 'id' | 'method' | 'path'>): boolean {
  // AWS query-protocol operationIds carry the method (`GET_SendMessage` → get_send_message).
  if (entry.startsWith('op:'))
    return new RegExp(`^((get|post)_)?${snakeCase(entry.slice(3))}(_\\d+)?$`).test(intent.id);
  const [method = '', p = ''] = entry.split(' ');
  if (method !== intent.method) return false;
  const want = normalPath(p);
  const have = normalPath(intent.path);
  return have === want || have.endsWith(want);
}

export interface Coverage {
  found: number;
  total: number;
  /** APIs of the list with no manifest in the catalog. */
  missingApis: string[];
  /** `service_name: entry` for every flagship operation not among the intents. */
  misses: string[];
}

export function flagshipCoverage(
  list: FlagshipList,
  intentsOf: (service: string) => readonly Intent[] | undefined,
): Coverage {
  const out: Coverage = { found: 0, total: 0, missingApis: [], misses: [] };
  for (const [service, entries] of Object.entries(list)) {
    const intents = intentsOf(service);
    if (!intents) {
      out.missingApis.push(service);
      continue;
    }
    for (const entry of entries) {
      out.total++;
      if (intents.some((i) => matches(entry, i))) out.found++;
      else out.misses.push(`${service}: ${entry}`);
    }
  }
  return out;
}
