// Flagship coverage: how many of the central operations of well-known APIs (flagship-operations.json,
// frozen before the intent rule was tuned) are among their manifests' intents.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Intent } from '../manifest.ts';
import { snakeCase } from '../naming.ts';

export const FLAGSHIP_FILE = path.join(import.meta.dirname, 'flagship-operations.json');
/** The second list, written after the rule was tuned on the first and never used to tune it. */
export const INDEPENDENT_FLAGSHIP_FILE = path.join(import.meta.dirname, 'flagship-operations-independent.json');

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
  /**
   * The misses whose operation is not among the API's recipes either (when they are given): an entry
   * the definition does not have as written, so no intent rule could have picked it.
   */
  absent: string[];
}

type Op = Pick<Intent, 'id' | 'method' | 'path'>;

export function flagshipCoverage(
  list: FlagshipList,
  intentsOf: (service: string) => readonly Intent[] | undefined,
  operationsOf?: (service: string) => readonly Op[] | undefined,
): Coverage {
  const out: Coverage = { found: 0, total: 0, missingApis: [], misses: [], absent: [] };
  for (const [service, entries] of Object.entries(list)) {
    const intents = intentsOf(service);
    if (!intents) {
      out.missingApis.push(service);
      continue;
    }
    const operations = operationsOf?.(service);
    for (const entry of entries) {
      out.total++;
      if (intents.some((i) => matches(entry, i))) out.found++;
      else {
        out.misses.push(`${service}: ${entry}`);
        if (operations && !operations.some((o) => matches(entry, o))) out.absent.push(`${service}: ${entry}`);
      }
    }
  }
  return out;
}
