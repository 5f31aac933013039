// One conformance suite for every backend of the catalog store (build/catalog/storage/), as unstorage tests
// its drivers: the atomic fs driver, and the overlay driver over an in-memory top layer and over Redis (the
// production overlay). Each backend must read, list, write, overwrite and delete records the same way, keep
// the base files untouched when it is an overlay, and never wipe the catalog through clear().
import { promises as fsp } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { createStorage, type Driver, type Storage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../../build/catalog/catalog-store.ts';
import { atomicFsDriver } from '../../../build/catalog/storage/atomic-fs-driver.ts';
import { overlayDriver, TOMBSTONE, topEntries } from '../../../build/catalog/storage/overlay-driver.ts';
import { redisOverlay } from '../../../build/catalog/storage/redis-overlay.ts';
import { type RedisProcess, startRedis } from '../../helpers/redis.ts';

interface Backend {
  name: string;
  /** A driver over a base folder that already holds `tools:seed.json`; `top` is the overlay's own layer. */
  make(baseDir: string): Promise<{ driver: Driver; top?: Driver; close(): Promise<void> }>;
}

let redis: RedisProcess;
let n = 0;

const backends: Backend[] = [
  {
    name: 'atomic fs',
    make: async (baseDir) => ({ driver: atomicFsDriver({ base: baseDir }), close: async () => {} }),
  },
  {
    name: 'overlay over memory',
    async make(baseDir) {
      const top = memoryDriver();
      return { driver: overlayDriver({ top, base: atomicFsDriver({ base: baseDir }) }), top, close: async () => {} };
    },
  },
  {
    name: 'overlay over Redis',
    async make(baseDir) {
      const overlay = redisOverlay(redis.url, `conf${n++}:`);
      await overlay.ready();
      const driver = overlayDriver({ top: overlay.driver, base: atomicFsDriver({ base: baseDir }) });
      return { driver, top: overlay.driver, close: async () => driver.dispose?.() };
    },
  },
];

const SEED = '{"seed":true}\n';
const dirs: string[] = [];

async function baseFolder(): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-store-'));
  dirs.push(dir);
  await fsp.mkdir(path.join(dir, 'tools'));
  await fsp.writeFile(path.join(dir, 'tools', 'seed.json'), SEED);
  return dir;
}

beforeAll(async () => {
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  await redis?.stop();
  for (const d of dirs.splice(0)) await fsp.rm(d, { recursive: true, force: true });
});

describe.each(backends)('catalog storage driver: $name', (backend) => {
  let baseDir: string;
  let storage: Storage;
  let top: Driver | undefined;
  let close: () => Promise<void>;

  beforeAll(async () => {
    baseDir = await baseFolder();
    const made = await backend.make(baseDir);
    storage = createStorage({ driver: made.driver });
    top = made.top;
    close = made.close;
  });
  afterAll(() => close());

  it('reads a record of the base folder, raw and as text, and reports absent keys as null', async () => {
    expect(await storage.getItemRaw('tools:seed.json').then((v) => Buffer.from(v as Uint8Array).toString('utf8'))).toBe(
      SEED,
    );
    expect(await storage.hasItem('tools:seed.json')).toBe(true);
    expect(await storage.getItem('tools:missing.json')).toBeNull();
    expect(await storage.hasItem('tools:missing.json')).toBe(false);
  });

  it('writes, overwrites and lists records under a prefix', async () => {
    await storage.setItemRaw('tools:a.json', '{"v":1}');
    await storage.setItemRaw('tools:a.json', '{"v":2}');
    await storage.setItemRaw('apis:b.json', '{"b":1}');
    expect(await storage.getItem('tools:a.json')).toEqual({ v: 2 });
    expect((await storage.getKeys('tools:')).sort()).toEqual(['tools:a.json', 'tools:seed.json']);
    expect(await storage.getKeys('apis:')).toEqual(['apis:b.json']);
  });

  it('deletes a record (a base record too) so that it is neither read nor listed', async () => {
    await storage.removeItem('tools:seed.json');
    await storage.removeItem('tools:a.json');
    expect(await storage.getItem('tools:seed.json')).toBeNull();
    expect(await storage.getKeys('tools:')).toEqual([]);
  });

  it('never wipes the catalog through clear()', async () => {
    await storage.setItemRaw('apis:kept.json', '{"k":1}');
    await storage.clear();
    expect(await storage.getItem('apis:kept.json')).toEqual({ k: 1 });
  });

  it('as an overlay, leaves the base files as they were and keeps deletions as tombstones for export', async () => {
    const seedFile = await fsp.readFile(path.join(baseDir, 'tools', 'seed.json'), 'utf8').catch(() => null);
    if (!top) {
      // The fs driver is the base itself: its deletion removed the file.
      expect(seedFile).toBeNull();
      return;
    }
    expect(seedFile).toBe(SEED);
    await expect(fsp.access(path.join(baseDir, 'tools', 'a.json'))).rejects.toThrow();
    const entries = await topEntries(top, 'tools:');
    expect(entries.find((e) => e.key === 'tools:seed.json')?.value).toBe(TOMBSTONE);
  });

  it('keeps binary values (gzipped recipes) byte for byte, beside the records and out of their listing', async () => {
    const store = createCatalogStore({ dir: baseDir, driver: (await backend.make(baseDir)).driver });
    // Bytes that are not UTF-8 (0xff, a lone 0x8b): a text round trip would change them.
    const bytes = Buffer.concat([gzipSync('{"service_name":"bin_api","operations":[]}'), Buffer.from([0xff, 0x8b])]);
    await store.writeOperations('bin_api', bytes);
    await store.write('apis', 'bin_api', { service_name: 'bin_api' });
    expect((await store.readOperations('bin_api'))?.equals(bytes)).toBe(true);
    expect(await store.readOperations('none_api')).toBeNull();
    expect(await store.readOperations('../tools/seed')).toBeNull();
    expect(await store.list('apis')).toContain('bin_api');
    expect((await store.list('apis')).some((id) => id.includes('operations'))).toBe(false);
    if (!top)
      expect((await fsp.readFile(path.join(baseDir, 'apis/operations/bin_api.json.gz'))).equals(bytes)).toBe(true);
    await store.storage.dispose();
  });

  it('serves the catalog store: readAll parses records and reports a broken file instead of throwing', async () => {
    const store = createCatalogStore({ dir: baseDir, driver: (await backend.make(baseDir)).driver });
    await store.storage.setItemRaw('tools:broken.json', '{not json');
    await store.write('tools', 'fine', { fine: true });
    const all = await store.readAll('tools');
    const byId = new Map(all.map((f) => [f.id, f]));
    expect(byId.get('fine')?.value).toEqual({ fine: true });
    expect(byId.get('broken')?.parseError).toBeTruthy();
    await store.storage.dispose();
  });
});
