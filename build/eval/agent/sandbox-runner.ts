// The agent benchmark's Runner on the verification sandbox (build/verify/run-contract.ts): install with the
// registries only, execute without network, output files and folders read back per placeholder.
import type { ToolContract } from '../../model/contract.ts';
import type { Registries } from '../../verify/registries.ts';
import { runContract } from '../../verify/run-contract.ts';
import { sandboxUnavailable, type SandboxLimits } from '../../verify/sandbox.ts';
import type { Runner } from './agent.ts';

// A task is one small file: a command that needs minutes, or never ends, has failed it.
const LIMITS: Partial<SandboxLimits> = { wallMs: 120_000, cpuSeconds: 120 };

/** The sandbox runner (registries from the environment unless given), or why this machine cannot run it. */
export function createSandboxRunner(registries?: Registries): Runner | string {
  const missing = sandboxUnavailable();
  if (missing) return missing;
  return async (req) => {
    const r = await runContract(req.contract as unknown as ToolContract, {
      values: req.values,
      files: req.files,
      limits: LIMITS,
      ...(registries ? { registries } : {}),
    });
    const tail = (s: { stdout: string; stderr: string } | undefined) => `${s?.stderr ?? ''}\n${s?.stdout ?? ''}`.trim();
    if (r.notRun) {
      return {
        install: { ok: false, detail: r.notRun.reason },
        execute: null,
        files: {},
        dirs: {},
        notRun: { step: /execute_cmd/.test(r.notRun.reason) ? 'execute' : 'install', reason: r.notRun.reason },
      };
    }
    const setupOk = r.setup?.code === 0;
    const installOk = setupOk && r.install?.code === 0;
    const ex = r.execute;
    return {
      install: {
        ok: installOk,
        detail: !setupOk
          ? `setup failed: ${tail(r.setup)}`
          : installOk
            ? ''
            : `${r.install?.timedOut ? 'timed out: ' : ''}${tail(r.install)}`,
      },
      execute: ex
        ? { exitCode: ex.code, stdout: ex.stdout, stderr: ex.stderr, timedOut: ex.timedOut, ms: ex.ms }
        : null,
      files: r.outputs.files,
      dirs: r.outputs.dirs ?? {},
    };
  };
}
