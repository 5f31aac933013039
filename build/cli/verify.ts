// npm run verify [-- --catalog DIR] [--json] [--write] [--concurrency N] [--platform npm|pypi|github] [AID ...]
// Installs and runs each tool's commands in the bubblewrap sandbox (build/verify/) and reports the outcome;
// all tools when no aid is given. --json: one object per line {aid, status, level, reason, install_ms,
// execute_ms} (MCP servers add tools, tool_change, flagged). --write stores record.verification in the
// contract files, and for MCP servers (identity.kind mcp_server, verified by a handshake) the tool list.
// Exit 0 when it ran, whatever the outcomes; 2 when it could not run (no bubblewrap, unknown catalog folder).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createCatalogStore } from '../catalog/catalog-store.ts';
import { loadConfig } from '../config.ts';
import { sandboxUnavailable } from '../verify/sandbox.ts';
import { verifyCatalog } from '../verify/verify-catalog.ts';
import { exitOnHelp } from './help.ts';

exitOnHelp(`
usage: npm run verify [-- --catalog DIR] [--json] [--write] [--concurrency N] [--platform npm|pypi|github] [AID ...]
Installs and runs each tool's commands in the bubblewrap sandbox and reports passed / failed / unverifiable
(all tools when no aid is given); MCP servers are started over stdio and verified by an MCP handshake.
--json: one object per line; --write stores record.verification (and an MCP server's tool list).
Exit 0 when it ran, 2 when it could not run.
`);

const argv = process.argv.slice(2).filter((a) => a !== '--');
const flags = new Set<string>();
const options: Record<string, string> = {};
const aids: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] as string;
  if (a === '--json' || a === '--write') flags.add(a.slice(2));
  else if (a === '--catalog' || a === '--concurrency' || a === '--platform') options[a.slice(2)] = argv[++i] ?? '';
  else if (a.startsWith('--')) {
    console.error(`unknown option ${a}`);
    process.exit(2);
  } else aids.push(a);
}

const catalogDir = options.catalog ? path.resolve(options.catalog) : loadConfig().catalogDir;
if (!existsSync(path.join(catalogDir, 'tools'))) {
  console.error(`no tools folder in ${catalogDir}`);
  process.exit(2);
}
const unavailable = sandboxUnavailable();
if (unavailable) {
  console.error(`cannot verify: ${unavailable}`);
  process.exit(2);
}
const concurrency = Number(options.concurrency ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
  console.error('--concurrency must be an integer from 1 to 16');
  process.exit(2);
}

const store = createCatalogStore({ dir: catalogDir, label: path.relative(process.cwd(), catalogDir) || 'catalog' });
let selected = aids.length ? aids : await store.list('tools');
if (options.platform) selected = selected.filter((aid) => aid.startsWith(`${options.platform}-`));
const counts = { passed: 0, failed: 0, unverifiable: 0 };
const levels = { runs: 0, loads: 0 };
await verifyCatalog(store, selected, {
  concurrency,
  write: flags.has('write'),
  onOutcome: ({ aid, verification: v, writeError, tools, change, flagged }) => {
    counts[v.status]++;
    if (v.level) levels[v.level]++;
    if (flags.has('json')) {
      const line = {
        aid,
        status: v.status,
        ...(v.level ? { level: v.level } : {}),
        reason: v.reason,
        install_ms: v.install_ms,
        execute_ms: v.execute_ms,
        ...(tools ? { tools: tools.names } : {}),
        ...(change
          ? {
              tool_change: { added: change.added, removed: change.removed, changed: change.changed.map((c) => c.name) },
            }
          : {}),
        ...(flagged?.length ? { flagged } : {}),
      };
      console.log(JSON.stringify(line));
    } else {
      console.log(`${v.status.padEnd(12)} ${aid}${v.level ? ` (${v.level})` : ''}: ${v.reason}`);
      if (tools) console.log(`${''.padEnd(12)} tools: ${tools.names.join(', ') || '(none)'}`);
      if (change) {
        const what = [
          ...change.added.map((n) => `+${n}`),
          ...change.removed.map((n) => `-${n}`),
          ...change.changed.map((c) => `~${c.name}`),
        ];
        console.log(`${''.padEnd(12)} tool list changed since the last read: ${what.join(', ')} (trust.status review)`);
      }
      if (flagged?.length) console.log(`${''.padEnd(12)} flagged for tool poisoning: ${flagged.join(', ')}`);
    }
    if (writeError) console.error(`${aid}: not stored: ${writeError}`);
  },
});
console.error(
  `${selected.length} tool(s): ${counts.passed} passed (${levels.runs} runs, ${levels.loads} loads), ` +
    `${counts.failed} failed, ${counts.unverifiable} unverifiable`,
);
await store.storage.dispose();
