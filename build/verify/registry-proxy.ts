// The install step's only way out of the sandbox: an HTTP proxy on a unix socket (bind-mounted into the
// sandbox, relayed to its loopback by launcher.mjs) that forwards CONNECT tunnels and plain HTTP requests
// to the registry hosts on its allow-list and refuses everything else with 403. It resolves names on the
// host, so the sandbox needs no DNS.
import http from 'node:http';
import net from 'node:net';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface AllowListProxy {
  socketPath: string;
  /** `host:port` of every refused attempt, for the verifier's reason text and tests. */
  refused: string[];
  /** Allowed registries the host itself could not reach (then a failed install is this machine's limit). */
  unreachable: string[];
  close(): Promise<void>;
}

const normalise = (hostPort: string) => hostPort.toLowerCase().replace(/^\[|\](?=:)/g, '');

export async function startAllowListProxy(allowed: readonly string[]): Promise<AllowListProxy> {
  const allow = new Set(allowed.map(normalise));
  const refused: string[] = [];
  const unreachable: string[] = [];
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'verify-proxy-'));
  await fsp.chmod(dir, 0o755);
  const socketPath = path.join(dir, 'proxy.sock');
  const sockets = new Set<net.Socket>();

  const server = http.createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URL required\n');
      return;
    }
    const port = target.port || (target.protocol === 'https:' ? '443' : '80');
    const key = normalise(`${target.hostname}:${port}`);
    if (target.protocol !== 'http:' || !allow.has(key)) {
      refused.push(key);
      res.writeHead(403).end('not a package registry\n');
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      { host: target.hostname, port, method: req.method, path: `${target.pathname}${target.search}`, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      unreachable.push(key);
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end('registry unreachable\n');
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const key = normalise(req.url ?? '');
    const sep = key.lastIndexOf(':');
    if (!allow.has(key) || sep < 0) {
      refused.push(key);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    let connected = false;
    const upstream = net.connect(Number(key.slice(sep + 1)), key.slice(0, sep), () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', () => {
      if (!connected) {
        unreachable.push(key);
        client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      }
      close();
    });
    client.on('error', close);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  // The sandbox runs as another uid; it must be able to connect.
  await fsp.chmod(socketPath, 0o666);
  let closing: Promise<void> | undefined;
  return {
    socketPath,
    refused,
    unreachable,
    close() {
      closing ??= (async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await fsp.rm(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
