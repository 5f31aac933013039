// The Runner of the agent benchmark on the verification sandbox (build/verify). Filled in when runContract lands.
import type { Runner } from './agent.ts';

export async function createSandboxRunner(): Promise<Runner | undefined> {
  return undefined;
}
