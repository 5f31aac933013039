// The verifier's tests' package sources: a local npm registry and a local PyPI index on loopback serving
// packages built in the test, and runContract + judge against them.
import type { Registries } from '../../build/verify/registries.ts';
import { type RunOptions, runContract } from '../../build/verify/run-contract.ts';
import { judge } from '../../build/verify/verdict.ts';
import type { ToolContract } from '../../build/model/contract.ts';
import { type FakePackage, type FakeRegistry, startFakeNpmRegistry } from './fake-npm-registry.ts';
import { type FakeIndex, type FakeWheel, startFakePypiIndex } from './fake-pypi-index.ts';

export interface LocalRegistries {
  npm: FakeRegistry;
  pypi: FakeIndex;
  registries: Registries;
  /** Installs and runs a contract in the sandbox against these registries and judges the run. */
  verify(
    c: ToolContract,
    options?: Omit<RunOptions, 'registries'>,
  ): Promise<{ run: Awaited<ReturnType<typeof runContract>>; verdict: ReturnType<typeof judge> }>;
  close(): Promise<void>;
}

export async function startLocalRegistries(packages: FakePackage[], wheels: FakeWheel[]): Promise<LocalRegistries> {
  const npm = await startFakeNpmRegistry(packages);
  const pypi = await startFakePypiIndex(wheels);
  const registries: Registries = { npm: npm.url, pipIndex: pypi.url, pipExtraIndexes: [], pipFindLinks: [] };
  return {
    npm,
    pypi,
    registries,
    async verify(c, options = {}) {
      const run = await runContract(c, { limits: { wallMs: 120_000 }, ...options, registries });
      return { run, verdict: judge(run) };
    },
    async close() {
      await npm.close();
      await pypi.close();
    },
  };
}
