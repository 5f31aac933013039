// Whole-catalog checks on top of a record's schema: its id equals the file name, no id twice, no ids
// that differ only by case. One loop for tools and API manifests, so `npm run validate` prints both alike.
import type { StoredFile } from './catalog-store.ts';
import type { ToolContract } from '../model/contract.ts';
import type { ContractChecks, FieldError } from '../model/validate-contract.ts';
import { validateContract } from '../model/validate-contract.ts';

export interface FileCheck<T> {
  valid: T[];
  /** `catalog/tools/x-v1.json: /action/install_cmd: must be string or null` */
  errors: string[];
}
export type CatalogCheck = FileCheck<ToolContract>;

export interface RecordRules {
  validate(value: unknown): FieldError[];
  /** The id the record claims for itself, if it has one. */
  idOf(value: unknown): unknown;
  /** JSON pointer of that id, for messages. */
  idPath: string;
  /** How a duplicate is described: `duplicates the aid of <file> …`. */
  duplicate(first: string): string;
}

export function checkFiles<T>(files: StoredFile[], rules: RecordRules): FileCheck<T> {
  const errors: string[] = [];
  const valid: T[] = [];
  const byLower = new Map<string, string>();
  for (const f of files) {
    if (f.parseError) {
      errors.push(`${f.file}: /: ${f.parseError}`);
      continue;
    }
    const problems = rules.validate(f.value);
    const id = rules.idOf(f.value);
    if (typeof id === 'string' && id !== f.id) {
      problems.push({ path: rules.idPath, message: `"${id}" must equal the file name "${f.id}"` });
    }
    const lower = (typeof id === 'string' ? id : f.id).toLowerCase();
    const first = byLower.get(lower);
    if (first) problems.push({ path: rules.idPath, message: rules.duplicate(first) });
    else byLower.set(lower, f.file);
    for (const p of problems) errors.push(`${f.file}: ${p.path}: ${p.message}`);
    if (problems.length === 0) valid.push(f.value as T);
  }
  return { valid, errors };
}

export function checkToolFiles(files: StoredFile[], checks: ContractChecks = {}): CatalogCheck {
  return checkFiles<ToolContract>(files, {
    validate: (value) => validateContract(value, checks),
    idOf: (v) => (v as { identity?: { aid?: unknown } } | null)?.identity?.aid,
    idPath: '/identity/aid',
    duplicate: (first) => `duplicates the aid of ${first} (aids must differ by more than case)`,
  });
}
