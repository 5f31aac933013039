// A local PyPI "simple" index on loopback for the verifier's tests, serving wheels built inside the test
// (a wheel is a zip with METADATA, WHEEL and RECORD; python3's zipfile writes it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWheel {
  name: string;
  version?: string;
  /** Files of the distribution (module sources), relative to site-packages. */
  files: Record<string, string>;
  /** console_scripts entry points: command name → `module:function`. */
  scripts?: Record<string, string>;
  /** Files of that many zero bytes (deflated, so a wheel that unpacks large stays small on the wire). */
  zeroFiles?: Record<string, number>;
}

const WHEEL_BUILDER = `
import base64, hashlib, json, sys, zipfile, io
spec = json.load(sys.stdin)
name, version = spec['name'], spec['version']
info = '%s-%s.dist-info' % (name, version)
files = {path: text.encode() for path, text in spec['files'].items()}
files.update({path: bytes(size) for path, size in spec['zero_files'].items()})
files[info + '/METADATA'] = ('Metadata-Version: 2.1\\nName: %s\\nVersion: %s\\n' % (name, version)).encode()
files[info + '/WHEEL'] = b'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'
if spec['scripts']:
    files[info + '/entry_points.txt'] = ('[console_scripts]\\n' + ''.join('%s = %s\\n' % kv for kv in spec['scripts'].items())).encode()
record = []
buf = io.BytesIO()
with zipfile.ZipFile(buf, 'w') as z:
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append('%s,sha256=%s,%d' % (path, digest, len(data)))
        z.writestr(path, data, zipfile.ZIP_DEFLATED)
    record.append(info + '/RECORD,,')
    z.writestr(info + '/RECORD', '\\n'.join(record) + '\\n')
sys.stdout.buffer.write(buf.getvalue())
`;

export function buildWheel(wheel: FakeWheel): { file: string; bytes: Buffer } {
  const version = wheel.version ?? '1.0.0';
  const name = wheel.name.replace(/-/g, '_');
  const r = spawnSync('python3', ['-c', WHEEL_BUILDER], {
    input: JSON.stringify({
      name,
      version,
      files: wheel.files,
      scripts: wheel.scripts ?? {},
      zero_files: wheel.zeroFiles ?? {},
    }),
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`building the wheel failed: ${r.stderr.toString()}`);
  return { file: `${name}-${version}-py3-none-any.whl`, bytes: r.stdout };
}

export interface FakeIndex {
  /** The index URL (…/simple). */
  url: string;
  requests: string[];
  close(): Promise<void>;
}

const normalise = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

export async function startFakePypiIndex(wheels: FakeWheel[]): Promise<FakeIndex> {
  const requests: string[] = [];
  const built = wheels.map((w) => ({ project: normalise(w.name), ...buildWheel(w) }));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    const project = /^\/simple\/([^/]+)\/?$/.exec(url)?.[1];
    if (project) {
      const found = built.filter((b) => b.project === normalise(project));
      if (found.length === 0) return void res.writeHead(404).end('not found');
      const links = found.map(
        (b) => `<a href="/files/${b.file}#sha256=${createHash('sha256').update(b.bytes).digest('hex')}">${b.file}</a>`,
      );
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!DOCTYPE html><html><body>${links.join('\n')}</body></html>`);
    }
    const file = built.find((b) => url === `/files/${b.file}`);
    if (file) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(file.bytes);
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/simple`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
