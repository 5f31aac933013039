// action.requires.runtime from what registries declare: npm `engines.node` (a semver range) and PyPI
// `requires_python` (a PEP 440 specifier). Only a lower bound is kept (`>=18`, `>=3.10`), the form the contract
// allows; a range with no lower bound, or one we cannot read, says nothing.
import semver from 'semver';

const trim = (v: string) => v.replace(/(\.0)+$/, '');

/** `>=18.17`, or null: the lowest Node version the range admits (0.x and no bound: null). */
export function nodeMinimum(engines: unknown): string | null {
  const range = engines && typeof engines === 'object' ? (engines as { node?: unknown }).node : undefined;
  if (typeof range !== 'string' || !range.trim() || range.length > 200) return null;
  try {
    const min = semver.minVersion(range.trim());
    if (!min || min.major === 0) return null;
    return `>=${trim(`${min.major}.${min.minor}.${min.patch}`)}`;
  } catch {
    return null;
  }
}

/** `>=3.10`, or null: the `>=` (or `~=`, `==`) clause of a requires_python specifier. */
export function pythonMinimum(spec: unknown): string | null {
  if (typeof spec !== 'string' || spec.length > 200) return null;
  for (const clause of spec.split(',')) {
    const m = /^\s*(>=|~=|==)\s*(\d+(?:\.\d+){0,2})(\.\*)?\s*$/.exec(clause);
    if (m?.[2]) return `>=${m[2]}`;
  }
  return null;
}
