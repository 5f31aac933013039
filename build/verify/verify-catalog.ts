// Verifies a set of contracts from a catalog store with bounded concurrency and, when asked, stores each
// outcome as record.verification through the same store (validated first). Shared by `npm run verify` and
// anything that queues verification later; it never runs inside the server process. MCP-server contracts
// (identity.kind mcp_server) are verified by a handshake instead (mcp-handshake.ts); --write then also stores
// the tool list they answered (build/mcp/tool-list.ts: hashes, flags, changes, review status).
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { recordToolList } from '../mcp/tool-list.ts';
import type { McpToolChange, ToolContract } from '../model/contract.ts';
import { validateContract } from '../model/validate-contract.ts';
import { handshakeMcpServer, judgeHandshake, type McpHandshakeOptions, type McpListing } from './mcp-handshake.ts';
import { type RunOptions, runContract } from './run-contract.ts';
import { judge, type Verification } from './verdict.ts';

export interface VerifyOutcome {
  aid: string;
  verification: Verification;
  /** MCP servers: what tools/list answered. */
  tools?: { count: number; names: string[] };
  /** MCP servers, with --write: the difference from the stored list and the tools flagged for poisoning. */
  change?: McpToolChange | null;
  flagged?: string[];
  /** Set when --write could not store the outcome. */
  writeError?: string;
}

export interface VerifyCatalogOptions
  extends Pick<RunOptions, 'limits' | 'registries'>,
    Pick<McpHandshakeOptions, 'handshakeMs' | 'listMs'> {
  concurrency?: number;
  write?: boolean;
  onOutcome?: (outcome: VerifyOutcome) => void;
}

interface Checked {
  verification: Verification;
  listing?: McpListing;
}

async function verifyOne(contract: ToolContract, options: VerifyCatalogOptions): Promise<Checked> {
  try {
    if (contract.identity.kind === 'mcp_server') {
      const result = await handshakeMcpServer(contract, options);
      return { verification: judgeHandshake(result), ...(result.listing ? { listing: result.listing } : {}) };
    }
    return { verification: judge(await runContract(contract, options)) };
  } catch (error) {
    // A verifier fault (not the tool's): say so rather than blame the tool.
    return {
      verification: {
        status: 'unverifiable',
        reason: `the verifier failed: ${(error as Error).message}`,
        checked_at: new Date().toISOString(),
        runtime: null,
        install_ms: null,
        execute_ms: null,
      },
    };
  }
}

/** Stores the evidence (and an MCP server's tool list); the re-read file is the base, so concurrent edits stay. */
async function store(
  catalog: CatalogStore,
  aid: string,
  checked: Checked,
  outcome: VerifyOutcome,
): Promise<string | undefined> {
  const current = await catalog.read('tools', aid);
  if (!current?.value) return `cannot read ${aid}: ${current?.parseError ?? 'not found'}`;
  let contract = current.value as ToolContract;
  if (checked.listing && contract.logic.mcp) {
    const update = recordToolList(contract, checked.listing, new Date(checked.verification.checked_at));
    contract = update.contract;
    outcome.change = update.change;
    outcome.flagged = update.flagged;
  }
  const next = { ...contract, record: { ...contract.record, verification: checked.verification } };
  const errors = validateContract(next);
  if (errors.length) return errors.map((e) => `${e.path} ${e.message}`).join('; ');
  await catalog.write('tools', aid, next);
  return undefined;
}

export async function verifyCatalog(
  catalog: CatalogStore,
  aids: string[],
  options: VerifyCatalogOptions = {},
): Promise<VerifyOutcome[]> {
  const outcomes: VerifyOutcome[] = new Array(aids.length);
  let next = 0;
  const worker = async () => {
    while (next < aids.length) {
      const i = next++;
      const aid = aids[i] as string;
      const file = await catalog.read('tools', aid);
      const valid = file?.value !== undefined && validateContract(file.value).length === 0;
      const checked: Checked = valid
        ? await verifyOne(file?.value as ToolContract, options)
        : {
            verification: {
              status: 'unverifiable',
              reason: file ? `the contract file is not a valid contract (npm run validate)` : 'no such contract',
              checked_at: new Date().toISOString(),
              runtime: null,
              install_ms: null,
              execute_ms: null,
            },
          };
      const outcome: VerifyOutcome = { aid, verification: checked.verification };
      if (checked.listing) {
        outcome.tools = { count: checked.listing.tools.length, names: checked.listing.tools.map((t) => t.name) };
      }
      if (options.write && valid) {
        const error = await store(catalog, aid, checked, outcome);
        if (error) outcome.writeError = error;
      }
      outcomes[i] = outcome;
      options.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return outcomes;
}
