// The source of a tiny stdio MCP server for the verifier's tests: newline-delimited JSON-RPC on stdin/stdout,
// written by hand (the sandbox has no registry to fetch the SDK from), answering initialize and tools/list
// with the given tools, a page at a time so the client must follow nextCursor.
export interface FakeMcpTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface FakeMcpServerOptions {
  name: string;
  version: string;
  tools: FakeMcpTool[];
  /** Tools per tools/list page. */
  pageSize?: number;
  /** Environment variables the server refuses to start without (it exits with an error, as real ones do). */
  requiresEnv?: string[];
  /** Never answer anything (a server that hangs before the handshake). */
  silent?: boolean;
  /** A line printed on stdout at start (servers that log to stdout; the SDK skips it). */
  stdoutBanner?: string;
  /** JavaScript run at start, before anything is answered (a configuration check that may exit). */
  atStart?: string;
  /** JavaScript run when the client closes stdin, before the server exits. */
  atExit?: string;
}

export function fakeMcpServerSource(o: FakeMcpServerOptions): string {
  return `#!/usr/bin/env node
const TOOLS = ${JSON.stringify(o.tools.map((t) => ({ inputSchema: { type: 'object', properties: {} }, ...t })))};
const PAGE = ${o.pageSize ?? 1};
for (const name of ${JSON.stringify(o.requiresEnv ?? [])}) {
  if (!process.env[name]) { console.error('Error: ' + name + ' environment variable is required'); process.exit(1); }
}
${o.atStart ?? ''}
console.error('${o.name} ${o.version} running on stdio');
${
  o.stdoutBanner
    ? `process.stdout.write(${JSON.stringify(`${o.stdoutBanner}
`)});`
    : ''
}
const silent = ${o.silent === true};
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let nl;
  while ((nl = buffer.indexOf('\\n')) >= 0) {
    const line = buffer.slice(0, nl); buffer = buffer.slice(nl + 1);
    if (!line.trim() || silent) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    if (msg.method === 'initialize') {
      send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
        capabilities: { tools: { listChanged: false } }, serverInfo: { name: '${o.name}', version: '${o.version}' } } });
    } else if (msg.method === 'tools/list') {
      const start = Number(msg.params?.cursor ?? 0);
      const next = start + PAGE;
      send({ jsonrpc: '2.0', id: msg.id, result: { tools: TOOLS.slice(start, next),
        ...(next < TOOLS.length ? { nextCursor: String(next) } : {}) } });
    } else {
      send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
    }
  }
});
process.stdin.on('end', () => { ${o.atExit ?? ''}; process.exit(0); });
`;
}
