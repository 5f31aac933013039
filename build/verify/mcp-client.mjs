// Runs inside the sandbox: starts an MCP server over stdio with the official SDK client, performs the
// handshake, lists every tool (following nextCursor) and prints one JSON line on stdout:
// {"ok":true,"server_info":{...},"protocol_version":"...","tools":[...]} or {"ok":false,"stage":...,"error":...}.
// With --tools-file PATH the tools go to that file instead and the line says where, with their size and
// sha256 (a long tool list would pass the sandbox's output cap; the hash lets the host tell the client's file
// from one the server, which shares the work folder, might put there).
// The server's stderr is kept (its tail goes into the result) so a failure says what the server said.
// usage: node mcp-client.mjs --handshake-ms N --list-ms N [--tools-file PATH] -- COMMAND [ARG ...]
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const args = process.argv.slice(2);
const options = { handshakeMs: 60_000, listMs: 30_000, toolsFile: null };
while (args.length && args[0] !== '--') {
  const flag = args.shift();
  if (flag === '--handshake-ms') options.handshakeMs = Number(args.shift());
  else if (flag === '--list-ms') options.listMs = Number(args.shift());
  else if (flag === '--tools-file') options.toolsFile = args.shift();
}
args.shift();
const MAX_PAGES = 50;
const STDERR_TAIL = 2000;

let stderrText = '';
let exited = null;
// The last thing on the server's stdout that was not an MCP message (a log line, a banner): the SDK skips it.
let protocolError = null;
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const fail = (stage, error) => {
  print({
    ok: false,
    stage,
    error: String(error?.message ?? error).slice(0, 500),
    exited,
    protocol_error: protocolError,
    stderr_tail: stderrText.slice(-STDERR_TAIL),
  });
  process.exit(0);
};

if (args.length === 0) fail('start', 'no server command');

const transport = new StdioClientTransport({
  command: args[0],
  args: args.slice(1),
  // The whole sandbox environment (PATH of the project or venv, placeholder credentials), not the SDK's subset.
  env: Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)),
  stderr: 'pipe',
});
transport.stderr?.on('data', (chunk) => {
  stderrText = (stderrText + chunk.toString('utf8')).slice(-4 * STDERR_TAIL);
});
const client = new Client({ name: 'tool-contract-catalog-verifier', version: '1.0.0' });
let stage = 'start';
// Stdio has no use for the negotiated version, so the SDK only tells transports that ask for it.
let protocolVersion = null;
transport.setProtocolVersion = (version) => {
  protocolVersion = version;
};
// Set before connect: the SDK's Protocol chains its own handler after this one.
transport.onerror = (error) => {
  protocolError = String(error?.message ?? error).slice(0, 200);
};
transport.onclose = () => {
  exited ??= 'the server closed its stdio';
};

/** Rejects after `ms` with a message naming the stage, so a silent server is reported, not waited on forever. */
const within = (promise, ms, what) =>
  Promise.race([
    promise.catch((error) => {
      // The SDK's own request timeout (RequestTimeout, -32001) says the same thing less plainly.
      throw error?.code === -32001 ? new Error(`no ${what} within ${ms / 1000} s`) : error;
    }),
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`no ${what} within ${ms / 1000} s`)), ms + 1000).unref(),
    ),
  ]);

try {
  stage = 'handshake';
  await within(client.connect(transport, { timeout: options.handshakeMs }), options.handshakeMs, 'handshake');
  const tools = [];
  stage = 'tools/list';
  let cursor;
  // A server without the tools capability offers none; asking would only get "method not found".
  const offersTools = Boolean(client.getServerCapabilities()?.tools);
  for (let page = 0; offersTools && page < MAX_PAGES; page++) {
    const result = await within(
      client.listTools(cursor ? { cursor } : {}, { timeout: options.listMs }),
      options.listMs,
      'tools/list answer',
    );
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  let listed = { tools };
  if (options.toolsFile) {
    const text = JSON.stringify(tools);
    writeFileSync(options.toolsFile, text);
    const sha256 = createHash('sha256').update(text).digest('hex');
    listed = { tools_file: { path: options.toolsFile, bytes: Buffer.byteLength(text), sha256 } };
  }
  print({
    ok: true,
    server_info: client.getServerVersion() ?? null,
    protocol_version: protocolVersion,
    capabilities: client.getServerCapabilities() ?? null,
    more_pages: Boolean(cursor),
    ...listed,
    stderr_tail: stderrText.slice(-STDERR_TAIL),
  });
  await client.close().catch(() => {});
  process.exit(0);
} catch (error) {
  await client.close().catch(() => {});
  fail(stage, error);
}
