// Whole-catalog checks on top of the per-contract schema: aid equals the file name, no duplicate aids,
// no aids that differ only by case. Produces the one-line messages `npm run validate` prints.
import type { ToolContract } from './contract.ts';
import type { StoredFile } from './catalog-store.ts';
import { validateContract } from './validate-contract.ts';

export interface CatalogCheck {
  valid: ToolContract[];
  /** `catalog/tools/x-v1.json: /action/install_cmd: must be string or null` */
  errors: string[];
}

export function checkToolFiles(files: StoredFile[]): CatalogCheck {
  const errors: string[] = [];
  const valid: ToolContract[] = [];
  const byLower = new Map<string, string>();
  for (const f of files) {
    if (f.parseError) {
      errors.push(`${f.file}: /: ${f.parseError}`);
      continue;
    }
    const problems = validateContract(f.value);
    const aid = (f.value as { identity?: { aid?: unknown } }).identity?.aid;
    if (typeof aid === 'string' && aid !== f.id) {
      problems.push({ path: '/identity/aid', message: `"${aid}" must equal the file name "${f.id}"` });
    }
    const lower = (typeof aid === 'string' ? aid : f.id).toLowerCase();
    const first = byLower.get(lower);
    if (first) {
      problems.push({ path: '/identity/aid', message: `duplicates the aid of ${first} (aids must differ by more than case)` });
    } else {
      byLower.set(lower, f.file);
    }
    for (const p of problems) errors.push(`${f.file}: ${p.path}: ${p.message}`);
    if (problems.length === 0) valid.push(f.value as ToolContract);
  }
  return { valid, errors };
}
