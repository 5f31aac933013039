// Runs inside the sandbox, before the tool's command. With `--relay PORT:SOCKET` it first listens on
// 127.0.0.1:PORT (the sandbox's own loopback) and pipes each connection to SOCKET, the host's allow-list
// proxy bind-mounted in; the sandbox has no other way out. `--fixture PORT:DIR` serves DIR on 127.0.0.1:PORT
// for tools that fetch URLs. Then it starts the command without a shell and exits with its code
// (128 + signal number when a signal ended it), so the host sees one exit status.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import os from 'node:os';

const args = process.argv.slice(2);
let relay;
let fixture;
while (args[0] !== '--') {
  const flag = args.shift();
  if (flag === '--relay') relay = args.shift();
  else if (flag === '--fixture') fixture = args.shift();
  else if (flag === undefined) {
    process.stderr.write('launcher: missing -- before the command\n');
    process.exit(125);
  }
}
args.shift();

async function startRelay(spec) {
  const sep = spec.indexOf(':');
  const port = Number(spec.slice(0, sep));
  const socketPath = spec.slice(sep + 1);
  const server = net.createServer((inbound) => {
    const outbound = net.connect(socketPath);
    inbound.pipe(outbound).pipe(inbound);
    const close = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', close);
    outbound.on('error', close);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  server.unref();
}

/** Extension → media type from the system's /etc/mime.types (mounted read-only), so a video is served as one. */
async function mediaTypes() {
  const types = new Map();
  const text = await readFile('/etc/mime.types', 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [type, ...exts] = line.trim().split(/\s+/);
    if (!type || type.startsWith('#')) continue;
    for (const ext of exts) if (!types.has(ext)) types.set(ext, type);
  }
  return types;
}

// Tools that fetch URLs get a small web server on the sandbox's own loopback, serving the sample files.
async function startFixture(spec) {
  const sep = spec.indexOf(':');
  const root = spec.slice(sep + 1);
  const types = await mediaTypes();
  const server = http.createServer(async (req, res) => {
    let name = path.basename(new URL(req.url ?? '/', 'http://x').pathname) || 'sample.html';
    // Any other path gets the sample page, so a tool's example URL still finds a page.
    let body = await readFile(path.join(root, name)).catch(() => null);
    if (!body) {
      name = 'sample.html';
      body = await readFile(path.join(root, name)).catch(() => null);
    }
    const type = types.get(path.extname(name).slice(1).toLowerCase()) ?? 'text/plain';
    if (body) res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
    else res.writeHead(404).end('not found');
  });
  await new Promise((resolve, reject) =>
    server.once('error', reject).listen(Number(spec.slice(0, sep)), '127.0.0.1', resolve),
  );
  server.unref();
}

if (relay) await startRelay(relay);
if (fixture) await startFixture(fixture);
if (args.length === 0) {
  process.stderr.write('launcher: empty command\n');
  process.exit(125);
}
const child = spawn(args[0], args.slice(1), { stdio: 'inherit' });
child.on('error', (error) => {
  process.stderr.write(`launcher: cannot start ${args[0]}: ${error.message}\n`);
  process.exit(error.code === 'ENOENT' ? 127 : 126);
});
child.on('exit', (code, signal) => {
  process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
});
