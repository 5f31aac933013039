// The one way the API changes the catalog (ingest, translate, update-trust, accepted contributions).
// Each write: validate with the same validator as `npm run validate`, write the file atomically through
// the catalog store, then make the API reflect it at once (a new immutable snapshot, the search index)
// and ask for an incremental rebuild so the static site follows. Writes are serialised (api/write-lock.ts:
// in this process, and across processes sharing a Redis overlay, where the writer first re-reads the
// records it touches), so a read-modify-write (update-trust, a command fix) never loses a concurrent change.
import type { CatalogStore } from '../../build/catalog/catalog-store.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import type { Snapshot } from '../../build/catalog/snapshot.ts';
import { markToolChangesReviewed } from '../../build/mcp/tool-list.ts';
import { validateContract } from '../../build/model/validate-contract.ts';
import { refreshTools, replaceTools } from './catalog-sync.ts';
import { CATALOG } from '../messages.ts';
import { ContractInvalidError, DomainError, type Loc } from '../services/errors.ts';
import type { RebuildScheduler } from '../rebuild/scheduler.ts';
import type { ToolSearch } from '../services/tool-search.ts';
import { withCatalogWrite } from './write-lock.ts';

/** What a write needs from the app context (the trust CLI builds one without a server). */
export interface WriteContext {
  store: CatalogStore;
  snapshot: Snapshot;
  toolSearch: Pick<ToolSearch, 'upsert' | 'remove'>;
  rebuild: Pick<RebuildScheduler, 'request'>;
}

export const COMMAND_FIELDS = ['install_cmd', 'execute_cmd'] as const;
export type CommandField = (typeof COMMAND_FIELDS)[number];

/** The contract as the catalog file holds it: blocks in their usual order, `$schema` (editor help) kept when given. */
function fileForm(c: ToolContract): ToolContract {
  return {
    ...(c.$schema === undefined ? {} : { $schema: c.$schema }),
    identity: c.identity,
    logic: c.logic,
    trust: c.trust,
    action: c.action,
    ...(c.record ? { record: c.record } : {}),
  };
}

const writingTools = <T>(ctx: WriteContext, aids: string[], fn: () => Promise<T>) =>
  withCatalogWrite(ctx, () => refreshTools(ctx, aids), fn);

const WRITE_CONCURRENCY = 8;

/**
 * Writes the files, then updates the in-memory catalog with every file that was written (even when a
 * later one failed, so memory never disagrees with disk) and asks for a rebuild. Call inside the lock.
 */
async function commit(ctx: WriteContext, contracts: ToolContract[]): Promise<boolean[]> {
  const created: boolean[] = new Array(contracts.length).fill(false);
  const written: ToolContract[] = [];
  let failure: unknown = null;
  let next = 0;
  const worker = async () => {
    while (next < contracts.length && failure === null) {
      const i = next++;
      const c = contracts[i] as ToolContract;
      try {
        created[i] = (await ctx.store.write('tools', c.identity.aid, c)).created;
        written.push(c);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, contracts.length) }, worker));
  if (written.length > 0) {
    // A file that was invalid at start and is now replaced by a valid one no longer counts as an error.
    replaceTools(ctx, new Map(written.map((c) => [c.identity.aid, c])));
    ctx.rebuild.request(written.map((c) => c.identity.aid));
  }
  if (failure !== null) throw failure;
  return created;
}

/** Validates a whole contract (throws ContractInvalidError, items under `at`) and returns it in file form. */
export function checkedContract(value: unknown, at: Loc = ['body']): ToolContract {
  const errors = validateContract(value);
  if (errors.length) throw new ContractInvalidError(errors, at);
  return fileForm(value as ToolContract);
}

/** Ingest: the stored contract is replaced whole (blocks absent from `value` are gone afterwards). */
export async function putContract(
  ctx: WriteContext,
  value: unknown,
  at: Loc = ['body'],
): Promise<{ aid: string; created: boolean; contract: ToolContract }> {
  const contract = checkedContract(value, at);
  return writingTools(ctx, [contract.identity.aid], async () => {
    const [created] = await commit(ctx, [contract]);
    return { aid: contract.identity.aid, created: created ?? false, contract };
  });
}

export interface TrustEntry {
  aid: string;
  reliability_score: number;
}

/** Changes only trust.reliability_score and record.reliability_calculated_at of the known aids. */
export async function updateTrust(
  ctx: WriteContext,
  entries: TrustEntry[],
  calculatedAt: string,
): Promise<{ updated: number; unknown: string[] }> {
  return writingTools(
    ctx,
    entries.map((e) => e.aid),
    async () => {
      const unknown: string[] = [];
      const changed: ToolContract[] = [];
      for (const e of entries) {
        const c = ctx.snapshot.byAid.get(e.aid);
        if (!c) {
          unknown.push(e.aid);
          continue;
        }
        changed.push(
          fileForm({
            ...c,
            trust: { ...c.trust, reliability_score: e.reliability_score },
            record: { ...c.record, reliability_calculated_at: calculatedAt },
          }),
        );
      }
      await commit(ctx, changed);
      return { updated: changed.length, unknown };
    },
  );
}

/** Sets one command of the current contract (an accepted micro_translation or fix). */
export async function setCommand(
  ctx: WriteContext,
  aid: string,
  field: CommandField,
  value: string,
  at: Loc = ['contribution'],
): Promise<ToolContract> {
  return writingTools(ctx, [aid], async () => {
    const current = ctx.snapshot.byAid.get(aid);
    if (!current) throw new DomainError('not_found', CATALOG.toolNotFound(aid));
    const next = checkedContract({ ...current, action: { ...current.action, [field]: value } }, at);
    await commit(ctx, [next]);
    return next;
  });
}

/**
 * An operator reviewed an MCP server's tool-list changes and flags: every open change gets reviewed_at and a
 * `review` status goes back to `active`. Refused for a contract that is not an MCP server or has nothing open.
 */
export async function markMcpReviewed(ctx: WriteContext, aid: string, at: string): Promise<ToolContract> {
  return writingTools(ctx, [aid], async () => {
    const current = ctx.snapshot.byAid.get(aid);
    if (!current) throw new DomainError('not_found', CATALOG.toolNotFound(aid));
    if (current.identity.kind !== 'mcp_server') throw new DomainError('conflict', CATALOG.notMcpServer(aid));
    const open = current.record?.mcp_tool_changes?.some((c) => !c.reviewed_at) ?? false;
    if (current.trust.status !== 'review' && !open) throw new DomainError('conflict', CATALOG.nothingToReview(aid));
    const next = checkedContract(markToolChangesReviewed(current, new Date(at)));
    await commit(ctx, [next]);
    return next;
  });
}
