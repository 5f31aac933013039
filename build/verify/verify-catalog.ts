// Verifies a set of contracts from a catalog store with bounded concurrency and, when asked, stores each
// outcome as record.verification through the same store (validated first). Shared by `npm run verify` and
// anything that queues verification later; it never runs inside the server process.
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import { validateContract } from '../model/validate-contract.ts';
import { type RunOptions, runContract } from './run-contract.ts';
import { judge, type Verification } from './verdict.ts';

export interface VerifyOutcome {
  aid: string;
  verification: Verification;
  /** Set when --write could not store the outcome. */
  writeError?: string;
}

export interface VerifyCatalogOptions extends Pick<RunOptions, 'limits' | 'registries'> {
  concurrency?: number;
  write?: boolean;
  onOutcome?: (outcome: VerifyOutcome) => void;
}

async function verifyOne(contract: ToolContract, options: VerifyCatalogOptions): Promise<Verification> {
  try {
    return judge(await runContract(contract, options));
  } catch (error) {
    // A verifier fault (not the tool's): say so rather than blame the tool.
    return {
      status: 'unverifiable',
      reason: `the verifier failed: ${(error as Error).message}`,
      checked_at: new Date().toISOString(),
      runtime: null,
      install_ms: null,
      execute_ms: null,
    };
  }
}

async function store(catalog: CatalogStore, aid: string, verification: Verification): Promise<string | undefined> {
  const current = await catalog.read('tools', aid);
  if (!current?.value) return `cannot read ${aid}: ${current?.parseError ?? 'not found'}`;
  const contract = current.value as ToolContract;
  const next = { ...contract, record: { ...contract.record, verification } };
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
      const verification: Verification = valid
        ? await verifyOne(file?.value as ToolContract, options)
        : {
            status: 'unverifiable',
            reason: file ? `the contract file is not a valid contract (npm run validate)` : 'no such contract',
            checked_at: new Date().toISOString(),
            runtime: null,
            install_ms: null,
            execute_ms: null,
          };
      const outcome: VerifyOutcome = { aid, verification };
      if (options.write && valid) {
        const error = await store(catalog, aid, verification);
        if (error) outcome.writeError = error;
      }
      outcomes[i] = outcome;
      options.onOutcome?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return outcomes;
}
