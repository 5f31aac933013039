// Temporary catalogs and dist folders on real disk for tests; each call gets its own folder.
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContract } from '../../build/model/contract.ts';

export interface TempCatalog {
  root: string;
  catalogDir: string;
  distDir: string;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function tempCatalog(contracts: ToolContract[] = []): Promise<TempCatalog> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'tcc-test-'));
  const catalogDir = path.join(root, 'catalog');
  await fsp.mkdir(path.join(catalogDir, 'tools'), { recursive: true });
  for (const c of contracts) await writeContract(catalogDir, c);
  return {
    root,
    catalogDir,
    distDir: path.join(root, 'dist'),
    dataDir: path.join(root, 'data'),
    cleanup: () => fsp.rm(root, { recursive: true, force: true }),
  };
}

export async function writeContract(catalogDir: string, c: unknown, name?: string): Promise<string> {
  const aid = name ?? (c as ToolContract).identity.aid;
  const file = path.join(catalogDir, 'tools', `${aid}.json`);
  await fsp.writeFile(file, `${JSON.stringify(c, null, 2)}\n`);
  return file;
}

/** A valid contract; `patch` overrides blocks shallowly per block. */
export function sampleContract(
  aid: string,
  patch: { [K in keyof ToolContract]?: Partial<ToolContract[K]> } = {},
): ToolContract {
  const name = aid.replace(/^(npm|pypi|github)-/, '').replace(/-v1$/, '');
  return {
    identity: {
      aid,
      name,
      version: '1.0.0',
      task: `Does ${name} things`,
      tags: ['sample'],
      platform: 'npm',
      license: 'MIT',
      ...patch.identity,
    },
    logic: { input_schema: { type: 'string' }, output_schema: { type: 'json' }, ...patch.logic },
    trust: { reliability_score: 0.9, latency_ms: null, status: 'active', ...patch.trust },
    action: {
      source_url: `https://www.npmjs.com/package/${name}`,
      install_cmd: `npm install ${name}`,
      execute_cmd: null,
      ...patch.action,
    },
    record: { verified: true, reliability_calculated_at: null, ...patch.record },
  } as ToolContract;
}
