// A minimal valid tool contract for tests that only care about its commands and inputs.
import type { ToolContract } from '../../build/model/contract.ts';

export function toolContract(
  aid: string,
  platform: 'npm' | 'pypi' | 'github',
  action: Record<string, unknown>,
  properties: Record<string, unknown> = {},
): ToolContract {
  return {
    identity: { aid, name: aid.replace(/^(npm|pypi|github)-|-v1$/g, ''), version: '1.0.0', platform, license: 'MIT' },
    logic: { input_schema: { type: 'string', properties }, output_schema: { type: 'string' } },
    trust: { reliability_score: 0.5, latency_ms: null, status: 'active' },
    action: { source_url: 'https://example.com/', install_cmd: null, execute_cmd: null, ...action },
  } as ToolContract;
}
