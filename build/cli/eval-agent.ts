// npm run eval:agent [-- --set dev|heldout] [--limit N] [--json] [--mcp] [--no-run] [--url http://host:port]
// The end-to-end agent benchmark: need → search → tax gate → fill → sandboxed run → checked result, on the
// bundled catalog served by a server this command starts (or the one at --url).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from '../bench/server-process.ts';
import { localPypiIndex, type Runner, runTask, type TaskOutcome } from '../eval/agent/agent.ts';
import { formatReport, summarise } from '../eval/agent/report.ts';
import { CatalogClient } from '../eval/agent/service-client.ts';
import { loadTaskSet, taskFilesDir } from '../eval/agent/tasks.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const flag = (name: string) => process.argv.includes(`--${name}`);

const set = arg('set');
if (set && set !== 'dev' && set !== 'heldout') {
  console.error('--set must be dev or heldout');
  process.exit(2);
}
const sets = set ? [set] : ['dev', 'heldout'];
const limit = arg('limit') ? Number(arg('limit')) : Number.POSITIVE_INFINITY;
if (!(limit > 0)) {
  console.error('--limit must be a positive number');
  process.exit(2);
}
// MCP is compared on every fifth need unless --mcp asks for all of them.
const mcpEvery = flag('mcp') ? 1 : 5;
const PYPI_INDEXES = ['/opt/pypi/simple', '/opt/pypi-more/simple'];

async function sandboxRunner(): Promise<Runner | undefined> {
  if (flag('no-run')) return undefined;
  const { createSandboxRunner } = await import('../eval/agent/sandbox-runner.ts');
  return createSandboxRunner();
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'eval-agent-'));
  let server: Awaited<ReturnType<typeof startServerProcess>> | null = null;
  let url = arg('url');
  if (!url) {
    server = await startServerProcess({
      PORT: '0', HOST: '127.0.0.1', CATALOG_DIR: path.join(root, 'catalog'), DIST_DIR: path.join(work, 'dist'),
      DATA_DIR: path.join(work, 'data'), RATE_LIMIT_TELEMETRY_PER_MIN: '0',
    }, ['--no-build']);
    url = server.url;
  }
  const client = new CatalogClient(url.replace(/\/$/, ''));
  const runner = await sandboxRunner();
  const report: Record<string, unknown> = {};
  try {
    for (const name of sets) {
      const file = path.join(root, `test/fixtures/agent-tasks/${name}.json`);
      const tasks = loadTaskSet(file).slice(0, limit);
      const outcomes: TaskOutcome[] = [];
      for (const [i, task] of tasks.entries()) {
        const outcome = await runTask(task, {
          client, filesDir: taskFilesDir(file), runner, pypiAvailable: localPypiIndex(PYPI_INDEXES),
          compareMcp: i % mcpEvery === 0,
        });
        outcomes.push(outcome);
        if (!flag('json')) {
          const last = outcome.attempts.at(-1);
          console.error(`[${name} ${i + 1}/${tasks.length}] ${task.id}: ${outcome.successRank ? `ok@${outcome.successRank}` : outcome.ran ? outcome.failure : 'not run'}${last && !outcome.successRank ? ` (${last.aid}: ${last.reason.slice(0, 100)})` : ''}`);
        }
      }
      const summary = summarise(outcomes);
      report[name] = { summary, outcomes, stages: runner ? 'run' : 'search+fill' };
      if (!flag('json')) console.log(`${formatReport(name, summary, outcomes, runner ? 'met the need' : 'could be filled')}\n`);
    }
    if (flag('json')) console.log(JSON.stringify(report, null, 2));
  } finally {
    await client.close();
    server?.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
