// Licence rules. The agent-instructions document is offered only when the contract's SPDX expression
// can be satisfied by MIT or Apache-2.0 (e.g. `MIT`, `Apache-2.0`, `MIT OR Apache-2.0`, `MIT OR GPL-3.0-only`).
import satisfies from 'spdx-satisfies';

export const INSTRUCTION_LICENSES = ['MIT', 'Apache-2.0'];

export function permitsInstructions(license: string | null | undefined): boolean {
  if (!license) return false;
  try {
    return satisfies(license, INSTRUCTION_LICENSES);
  } catch {
    return false;
  }
}
