// What a person wrote into a contract stays when the importer refreshes it from a registry: the task and
// tags (written as needs, not the registry's blurb), the commands (written to do the task) and the logic
// schemas. Only --overwrite replaces them. A field the contract does not have yet is filled from the registry.
import { isDeepStrictEqual } from 'node:util';
import type { ToolContract } from '../model/contract.ts';

export function keepHandWritten(next: ToolContract, existing: ToolContract | undefined): ToolContract {
  if (!existing) return next;
  const { task, tags } = existing.identity;
  return {
    ...next,
    identity: { ...next.identity, ...(task ? { task } : {}), ...(tags?.length ? { tags } : {}) },
    logic: { ...next.logic, input_schema: existing.logic.input_schema, output_schema: existing.logic.output_schema },
    action: {
      ...next.action,
      install_cmd: existing.action.install_cmd ?? next.action.install_cmd,
      execute_cmd: existing.action.execute_cmd ?? next.action.execute_cmd,
    },
  };
}

/** Equal (in any key order) apart from when the popularity was measured: a re-read of the same figure is no change. */
export function sameContract(a: ToolContract, b: ToolContract): boolean {
  const strip = (c: ToolContract) => {
    const { popularity_measured_at: _, ...record } = c.record ?? {};
    return { ...c, record };
  };
  return isDeepStrictEqual(strip(a), strip(b));
}
