// npm run eval:agent [-- --set dev|heldout|heldout-2|heldout-3|heldout-4|heldout-5] [--limit N] [--need ID,...] [--json] [--mcp]
//   [--no-run] [--no-inputs] [--online] [--jobs N] [--json-out file] [--platform npm|pypi] [--catalog DIR]
//   [--url http://host:port]
// The end-to-end agent benchmark: need → search → tax gate → fill → sandboxed run → checked result, on the
// bundled catalog served by a server this command starts (or the one at --url).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from '../bench/server-process.ts';
import { localPypiIndex, type Runner, runTask, type TaskOutcome } from '../eval/agent/agent.ts';
import { formatReport, summarise } from '../eval/agent/report.ts';
import { createSandboxRunner } from '../eval/agent/sandbox-runner.ts';
import { CatalogClient } from '../eval/agent/service-client.ts';
import {
  type AgentTask,
  DEFAULT_TASK_SETS,
  loadTaskSet,
  TASK_SETS,
  type TaskSetName,
  taskFilesDir,
} from '../eval/agent/tasks.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run eval:agent [-- --set dev|heldout|heldout-2|heldout-3|heldout-4|heldout-5] [--limit N] [--need ID,...] [--json]
                          [--mcp] [--no-run] [--no-inputs] [--online] [--jobs N] [--json-out FILE]
                          [--platform npm|pypi] [--catalog DIR] [--url http://host:port]
The end-to-end agent benchmark: need → search → tax gate → fill → sandboxed run → checked result, on the
bundled catalog (or the one in --catalog DIR) served by a server this command starts (or the one at --url).
The agent tells search what it holds (?inputs=input_file,text …); --no-inputs searches with the need's words
only. The agent also says it has no network (?offline=true: the sandbox runs commands without it); --online
searches without that filter. --need runs only the needs with these ids (to re-run the ones a change touches).
Without --set it runs dev and heldout; heldout-2 to heldout-5 (the later held-out sets) run only when named.
`);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const flag = (name: string) => process.argv.includes(`--${name}`);

const set = arg('set');
if (set && !(TASK_SETS as readonly string[]).includes(set)) {
  console.error(`--set must be one of ${TASK_SETS.join(', ')}`);
  process.exit(2);
}
const sets: readonly TaskSetName[] = set ? [set as TaskSetName] : DEFAULT_TASK_SETS;
const limit = arg('limit') ? Number(arg('limit')) : Number.POSITIVE_INFINITY;
if (!(limit > 0)) {
  console.error('--limit must be a positive number');
  process.exit(2);
}
// MCP is compared on every fifth need unless --mcp asks for all of them.
const mcpEvery = flag('mcp') ? 1 : 5;
const jobs = Math.max(1, Number(arg('jobs') ?? 2));
const platform = arg('platform');
const onlyNeeds = arg('need') ? new Set(arg('need')?.split(',')) : null;
const catalogDir = arg('catalog') ? path.resolve(arg('catalog') as string) : path.join(root, 'catalog');
if (platform && platform !== 'npm' && platform !== 'pypi') {
  console.error('--platform must be npm or pypi');
  process.exit(2);
}
const PYPI_INDEXES = ['/opt/pypi/simple', '/opt/pypi-more/simple'];

function sandboxRunner(): Runner | undefined {
  if (flag('no-run')) return undefined;
  const runner = createSandboxRunner();
  if (typeof runner === 'string') {
    console.error(`cannot run contracts here (${runner}); measuring the search and fill stages only`);
    return undefined;
  }
  return runner;
}

function progressLine(set: string, done: number, total: number, o: TaskOutcome): string {
  const first = o.attempts[0];
  const status = o.successRank ? `ok@${o.successRank}` : o.ran ? o.failure : 'not run';
  const why = first && o.successRank !== 1 ? ` (1. ${first.aid}: ${first.kind}: ${first.reason.slice(0, 100)})` : '';
  return `[${set} ${done}/${total}] ${o.id}: ${status}${why}`;
}

interface FieldMeasure {
  searches: number;
  searches_judged: number;
  first_answer_met: number;
  met_within_three: number;
}

async function fieldMeasure(url: string): Promise<FieldMeasure | null> {
  try {
    const health = (await (await fetch(`${url.replace(/\/$/, '')}/health`)).json()) as {
      search_outcomes?: FieldMeasure;
    };
    return health.search_outcomes ?? null;
  } catch {
    return null;
  }
}

const formatField = (f: FieldMeasure, shared: boolean) =>
  `field measure (server /health search_outcomes${shared ? ', shared server: includes other traffic' : ''}): ` +
  `${f.searches} searches, ${f.searches_judged} with a reported use; first answer met ${f.first_answer_met}, ` +
  `within three ${f.met_within_three}`;

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'eval-agent-'));
  let server: Awaited<ReturnType<typeof startServerProcess>> | null = null;
  let url = arg('url');
  if (!url) {
    server = await startServerProcess(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        CATALOG_DIR: catalogDir,
        DIST_DIR: path.join(work, 'dist'),
        DATA_DIR: path.join(work, 'data'),
        RATE_LIMIT_TELEMETRY_PER_MIN: '0',
      },
      ['--no-build'],
    );
    url = server.url;
  }
  const client = new CatalogClient(url.replace(/\/$/, ''));
  const runner = sandboxRunner();
  const report: Record<string, unknown> = {};
  try {
    for (const name of sets) {
      const file = path.join(root, `test/fixtures/agent-tasks/${name}.json`);
      const tasks = loadTaskSet(file)
        .filter((t) => (!platform || t.platform === platform) && (!onlyNeeds || onlyNeeds.has(t.id)))
        .slice(0, limit);
      const outcomes: TaskOutcome[] = new Array(tasks.length);
      let next = 0;
      let done = 0;
      // A few needs at once: installs wait on the network far more than on the CPU.
      const worker = async () => {
        while (next < tasks.length) {
          const i = next++;
          const task = tasks[i] as AgentTask;
          const outcome = await runTask(task, {
            client,
            filesDir: taskFilesDir(file),
            runner,
            pypiAvailable: localPypiIndex(PYPI_INDEXES),
            compareMcp: i % mcpEvery === 0,
            sayInputs: !flag('no-inputs'),
            sayOffline: !flag('online'),
          }).catch(
            (error: Error): TaskOutcome => ({
              // The service did not answer (after retries): the need is listed as not run, with why.
              id: task.id,
              need: task.need,
              category: task.category,
              platform: task.platform,
              ran: false,
              successRank: null,
              firstFailure: null,
              failure: null,
              attempts: [{ rank: 0, aid: '-', kind: 'not run', reason: `agent error: ${error.message}` }],
            }),
          );
          outcomes[i] = outcome;
          done++;
          if (!flag('json')) console.error(progressLine(name, done, tasks.length, outcome));
        }
      };
      await Promise.all(Array.from({ length: jobs }, worker));
      const summary = summarise(outcomes);
      report[name] = { summary, outcomes, stages: runner ? 'run' : 'search+fill' };
      if (!flag('json'))
        console.log(`${formatReport(name, summary, outcomes, runner ? 'met the need' : 'could be filled')}\n`);
    }
    // The same runs as the server's field measure counts them (first answers in the field, /health): the agent
    // reports every outcome through the telemetry protocol, so on a server of its own the two should agree.
    report.field = await fieldMeasure(url);
    if (!flag('json') && report.field) console.log(formatField(report.field as FieldMeasure, server === null));
    if (flag('json')) console.log(JSON.stringify(report, null, 2));
    const jsonOut = arg('json-out');
    if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await client.close();
    server?.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
