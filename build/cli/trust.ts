// npm run trust [-- --local] [--url URL] [--dry-run]: recomputes reliability scores from telemetry
// (formula in build/trust-score.ts) and applies them through update-trust.
//   default  : a running server — GET /admin/trust-evidence, POST /admin/update-trust (ADMIN_SECRET)
//   --local  : no server — reads telemetry from DATA_DIR (or STORAGE_URL) and writes through the same
//              code path (api/catalog-writes.ts), then rebuilds dist/ incrementally. Only while no server
//              runs on this DATA_DIR: the file telemetry log has one owner at a time.
// Priors live in DATA_DIR/trust/priors.json (--priors FILE to change).
import { updateTrust, type WriteContext } from '../../api/writes/catalog-writes.ts';
import { createRuntimeState } from '../../api/state/runtime-state.ts';
import { build } from '../pipeline/build.ts';
import { catalogStoreFor } from '../catalog/catalog-store.ts';
import { type Config, loadConfig } from '../config.ts';
import { currentBuildDir } from '../pipeline/dist-swap.ts';
import { loadSnapshot } from '../catalog/snapshot.ts';
import { type Evidence, type Plan, planScores, priorsFile, readPriors, writePriors } from '../model/trust-score.ts';
import { exitOnHelp } from './help.ts';

const BATCH = 10_000;
const flag = (name: string) => process.argv.includes(`--${name}`);
function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

type Current = Evidence & { reliability_score: number };

async function remoteEvidence(url: string, secret: string): Promise<Current[]> {
  const res = await fetch(`${url}/admin/trust-evidence`, { headers: { 'x-admin-secret': secret } });
  if (!res.ok) throw new Error(`GET /admin/trust-evidence answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as { tools: Current[] }).tools;
}

async function remoteApply(url: string, secret: string, plan: Plan, at: string): Promise<number> {
  let updated = 0;
  for (let i = 0; i < plan.scores.length; i += BATCH) {
    const scores = plan.scores.slice(i, i + BATCH).map(({ aid, reliability_score }) => ({ aid, reliability_score }));
    const res = await fetch(`${url}/admin/update-trust`, {
      method: 'POST',
      headers: { 'x-admin-secret': secret, 'content-type': 'application/json' },
      body: JSON.stringify({ scores, calculated_at: at }),
    });
    if (!res.ok)
      throw new Error(`POST /admin/update-trust answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    updated += ((await res.json()) as { updated: number }).updated;
  }
  return updated;
}

/** --local: the same write path as the server's update-trust, then one incremental build. */
async function runLocal(config: Config, dryRun: boolean, priors: string) {
  const runtime = await createRuntimeState(config);
  // With STORAGE_URL=redis:// the scores go to the catalog overlay like the server's writes do.
  const store = catalogStoreFor(config);
  const changed = new Set<string>();
  try {
    const ctx: WriteContext = {
      store,
      snapshot: await loadSnapshot(store),
      toolSearch: { upsert() {}, remove() {} },
      rebuild: {
        request: (aids) => {
          for (const a of aids) changed.add(a);
        },
      },
    };
    if (!runtime.telemetry.evidence) throw new Error('this telemetry backend keeps no per-client evidence');
    const evidence = await runtime.telemetry.evidence();
    const current = ctx.snapshot.tools.map((t) => ({
      aid: t.identity.aid,
      reliability_score: t.trust.reliability_score,
    }));
    const plan = planScores(current, evidence, await readPriors(priors));
    report(plan, evidence.length);
    if (dryRun) return;
    await updateTrust(
      ctx,
      plan.scores.map(({ aid, reliability_score }) => ({ aid, reliability_score })),
      new Date().toISOString(),
    );
    await writePriors(priors, plan.priors);
    // On Redis the running servers were told and one of them rebuilds, under the rebuild lock.
    if (store.overlay)
      console.log(`written to the Redis overlay; the API servers rebuild dist/ (npm run export writes the files)`);
    else if (changed.size > 0 && (await currentBuildDir(config.distDir))) {
      const r = await build({
        catalogDir: config.catalogDir,
        distDir: config.distDir,
        baseUrl: config.baseUrl,
        snapshot: ctx.snapshot,
        changedAids: changed,
      });
      console.log(`rebuilt dist/ (${r.incremental ? 'incremental' : 'full'}) in ${(r.ms / 1000).toFixed(1)} s`);
    }
  } finally {
    await runtime.close();
    await store.storage.dispose();
  }
}

function report(plan: Plan, withEvidence: number) {
  console.log(`${withEvidence} tool(s) with telemetry; ${plan.scores.length} score(s) change`);
  for (const s of plan.scores.slice(0, 20))
    console.log(`  ${s.aid}: ${s.from} -> ${s.reliability_score} (${s.clients} client(s))`);
  if (plan.scores.length > 20) console.log(`  ... and ${plan.scores.length - 20} more`);
}

async function main() {
  const config = loadConfig();
  const dryRun = flag('dry-run');
  const priors = option('priors') ?? priorsFile(config.dataDir);
  if (flag('local')) return runLocal(config, dryRun, priors);
  const secret = process.env.ADMIN_SECRET;
  if (!secret) throw new Error('ADMIN_SECRET is not set (or use --local while the server is stopped)');
  const url = (
    option('url') ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`
  ).replace(/\/+$/, '');
  const tools = await remoteEvidence(url, secret);
  const plan = planScores(tools, tools, await readPriors(priors));
  report(plan, tools.length);
  if (dryRun) return;
  const updated = await remoteApply(url, secret, plan, new Date().toISOString());
  await writePriors(priors, plan.priors);
  console.log(`updated ${updated} tool(s) through ${url}/admin/update-trust`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnHelp(`
usage: npm run trust [-- --local] [--url URL] [--dry-run]
Recomputes reliability scores from telemetry and applies them through update-trust.
default  a running server (ADMIN_SECRET; --url, default http://localhost:PORT)
--local  no server: reads DATA_DIR or STORAGE_URL and writes through the catalog store
`);
  main().catch((error: unknown) => {
    console.error(`trust: ${(error as Error).message}`);
    process.exit(1);
  });
}
