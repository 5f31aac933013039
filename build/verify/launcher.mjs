// Runs inside the sandbox, before the tool's command. With `--relay PORT:SOCKET` it first listens on
// 127.0.0.1:PORT (the sandbox's own loopback) and pipes each connection to SOCKET, the host's allow-list
// proxy bind-mounted in; the sandbox has no other way out. Then it starts the command without a shell and
// exits with its code (128 + signal number when a signal ended it), so the host sees one exit status.
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';

const args = process.argv.slice(2);
let relay;
while (args[0] !== '--') {
  const flag = args.shift();
  if (flag === '--relay') relay = args.shift();
  else if (flag === undefined) { process.stderr.write('launcher: missing -- before the command\n'); process.exit(125); }
}
args.shift();

async function startRelay(spec) {
  const sep = spec.indexOf(':');
  const port = Number(spec.slice(0, sep));
  const socketPath = spec.slice(sep + 1);
  const server = net.createServer((inbound) => {
    const outbound = net.connect(socketPath);
    inbound.pipe(outbound).pipe(inbound);
    const close = () => { inbound.destroy(); outbound.destroy(); };
    inbound.on('error', close);
    outbound.on('error', close);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  server.unref();
}

if (relay) await startRelay(relay);
if (args.length === 0) { process.stderr.write('launcher: empty command\n'); process.exit(125); }
const child = spawn(args[0], args.slice(1), { stdio: 'inherit' });
child.on('error', (error) => {
  process.stderr.write(`launcher: cannot start ${args[0]}: ${error.message}\n`);
  process.exit(error.code === 'ENOENT' ? 127 : 126);
});
child.on('exit', (code, signal) => {
  process.exit(signal ? 128 + (os.constants.signals[signal] ?? 0) : (code ?? 1));
});
