// The rules that make a contract's commands fillable and runnable by a machine: every placeholder is described
// (type, description, role, an example or default), the described inputs are the ones the commands use, the
// result has a named target, and each command is one argument vector that does a task (no shell syntax, no input
// pasted into program text, no program that only imports a package).
import { parseCommand } from './command.ts';
import { OUTPUT_ROLES, type ToolContract } from './contract.ts';
import type { FieldError } from './validate-contract.ts';

/** Problems of a command that make it unfit for a contract; the others (sudo, brew …) only make it unverifiable. */
const COMMAND_ERRORS = new Set(['shell_syntax', 'placeholder_in_code', 'import_only', 'empty']);

/** A description an agent reads in one glance. */
export const MAX_PLACEHOLDER_DESCRIPTION = 200;

const COMMAND_FIELDS = ['install_cmd', 'execute_cmd'] as const;

export function commandErrors(c: ToolContract): FieldError[] {
  const errors: FieldError[] = [];
  const properties = c.logic.input_schema.properties ?? {};
  const used = new Map<string, (typeof COMMAND_FIELDS)[number]>();
  for (const field of COMMAND_FIELDS) {
    const cmd = c.action[field];
    if (cmd == null) continue;
    const parsed = parseCommand(cmd);
    for (const p of parsed.problems) {
      if (COMMAND_ERRORS.has(p.kind)) errors.push({ path: `/action/${field}`, message: `${p.kind}: ${p.message}` });
    }
    for (const name of parsed.placeholders) if (!used.has(name)) used.set(name, field);
  }

  for (const [name, field] of used) {
    const path = `/logic/input_schema/properties/${name}`;
    const prop = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!prop) {
      errors.push({ path, message: `is required: {${name}} is a placeholder of ${field}` });
      continue;
    }
    const missing = [
      prop.type ? null : 'type',
      prop.description ? null : 'description',
      prop.role ? null : 'role',
      prop.default !== undefined || prop.examples ? null : 'default or examples',
    ].filter((m): m is string => m !== null);
    if (missing.length) errors.push({ path, message: `placeholder {${name}} needs ${missing.join(', ')}` });
    if (prop.description && prop.description.length > MAX_PLACEHOLDER_DESCRIPTION) {
      errors.push({
        path: `${path}/description`,
        message: `must be at most ${MAX_PLACEHOLDER_DESCRIPTION} characters`,
      });
    }
  }

  // Without an execute command the properties document the tool's inputs for whoever writes one;
  // with one, a property no command uses is an input an agent would prepare for nothing.
  if (c.action.execute_cmd != null) {
    for (const name of Object.keys(properties)) {
      if (!used.has(name)) {
        errors.push({
          path: `/logic/input_schema/properties/${name}`,
          message: 'is not a placeholder of execute_cmd or install_cmd: use it in the command or remove it',
        });
      }
    }
    const target = c.logic.output_schema.target;
    if (target === undefined) {
      errors.push({
        path: '/logic/output_schema/target',
        message: 'is required with an execute_cmd: "stdout" or an output placeholder',
      });
    } else if (target !== 'stdout') {
      const role = used.has(target) ? properties[target]?.role : undefined;
      if (!role || !OUTPUT_ROLES.includes(role)) {
        errors.push({
          path: '/logic/output_schema/target',
          message: `must be "stdout" or a placeholder with role output_file or output_dir; "${target}" is not`,
        });
      }
    }
  }
  return errors;
}
