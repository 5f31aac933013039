// A local npm registry on loopback for the verifier's tests: packuments and .tgz tarballs built in memory
// (a minimal ustar writer + node:zlib), so installs run offline against packages the test defines.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FakePackage {
  name: string;
  version?: string;
  /** Files inside the package, relative to its root; package.json is generated from the other fields. */
  files: Record<string, string>;
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  main?: string;
}

function header(name: string, size: number, mode: number): Buffer {
  const h = Buffer.alloc(512);
  const field = (value: string, offset: number, length: number) => h.write(value, offset, length, 'utf8');
  const octal = (value: number, offset: number, length: number) =>
    field(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
  field(name, 0, 100);
  octal(mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(1_700_000_000, 136, 12);
  h.fill(0x20, 148, 156);
  field('0', 156, 1);
  field('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of h) sum += byte;
  field(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** A gzipped ustar archive with every file under `package/` (what npm expects). */
export function npmTarball(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const body = Buffer.from(text, 'utf8');
    parts.push(header(`package/${name}`, body.length, 0o755), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

export interface FakeRegistry {
  url: string;
  /** Every path requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeNpmRegistry(packages: FakePackage[]): Promise<FakeRegistry> {
  const requests: string[] = [];
  const tarballs = new Map<string, Buffer>();
  const packuments = new Map<string, object>();
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '/');
    requests.push(url);
    const tarball = tarballs.get(url);
    if (tarball) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
    const doc = packuments.get(url.slice(1));
    if (doc) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const p of packages) {
    const version = p.version ?? '1.0.0';
    const manifest = {
      name: p.name,
      version,
      ...(p.bin ? { bin: p.bin } : {}),
      ...(p.scripts ? { scripts: p.scripts } : {}),
      ...(p.main ? { main: p.main } : {}),
    };
    const tgz = npmTarball({ 'package.json': JSON.stringify(manifest), ...p.files });
    const file = `/${p.name}/-/${p.name.split('/').pop()}-${version}.tgz`;
    tarballs.set(file, tgz);
    // Several entries with one name publish several versions; the last one is `latest`.
    const doc: { name: string; versions: Record<string, object> } = (packuments.get(p.name) as
      | { name: string; versions: Record<string, object> }
      | undefined) ?? { name: p.name, versions: {} };
    doc.versions[version] = {
      ...manifest,
      ...(p.scripts?.postinstall || p.scripts?.install ? { hasInstallScript: true } : {}),
      dist: {
        tarball: `${url}${file}`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      },
    };
    packuments.set(p.name, { ...doc, 'dist-tags': { latest: version } });
  }
  return {
    url: `${url}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
