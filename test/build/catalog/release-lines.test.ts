// The bundled contracts install the release line they were verified on (`sharp@0.35`, `yaml@2`, `django~=5.0`):
// `npm install sharp` or `pip install django` alone would take whatever the registry holds when an agent runs it,
// and a command verified on one major can fail on the next (arquero 8.0.3 depends on a package the registry
// answers 404).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface Bundled {
  identity: { aid: string; name: string; version: string | null };
  action: { install_cmd: string | null };
  record?: { verification?: { status?: string } };
}

const dir = path.join(import.meta.dirname, '../../../catalog/tools');
const bundled = (prefix: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Bundled);
const npmContracts = bundled('npm-');
// Only what ran in the sandbox has a verified line; the others (not in the local index) keep the plain name.
const pypiVerified = bundled('pypi-').filter((c) => c.record?.verification?.status === 'passed');

/** `3.1.1` lies on the line `3` (or `0.16` on `0.16`). */
const onLine = (version: string | null, major: string, minor: string | undefined) => {
  const [a, b] = (version ?? '').split('.');
  return a === major && (major !== '0' || b === minor);
};
const normal = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

/**
 * The problems of each install: a command of another shape, a package spec without a release line, or the line of
 * the package a contract is named after missing its identity.version. `spec` captures name, major and minor.
 */
function unpinned(
  contracts: readonly Bundled[],
  rule: { command: RegExp; spec: RegExp; sameName: (a: string, b: string) => boolean; skip?: RegExp },
): string[] {
  return contracts.flatMap((c) => {
    const m = rule.command.exec(c.action.install_cmd ?? '');
    if (!m) return [`${c.identity.aid}: ${c.action.install_cmd}`];
    return m[1]!.split(/\s+/).flatMap((spec) => {
      if (rule.skip?.test(spec)) return [];
      const p = rule.spec.exec(spec);
      if (!p) return [`${c.identity.aid}: ${spec}`];
      if (rule.sameName(p[1]!, c.identity.name) && !onLine(c.identity.version, p[2]!, p[3]))
        return [`${c.identity.aid}: ${spec} against version ${c.identity.version}`];
      return [];
    });
  });
}

describe('bundled npm contracts', () => {
  it('pin every package they install to a release line, the one their version is on', () => {
    expect(npmContracts.length).toBeGreaterThan(800);
    const problems = unpinned(npmContracts, {
      command: /^npm install (.+)$/,
      spec: /^(@?[^@\s]+)@(\d+)(?:\.(\d+))?(?:\.\d+)?$/,
      sameName: (a, b) => a === b,
    });
    expect(problems).toEqual([]);
  });
});

describe('bundled PyPI contracts verified in the sandbox', () => {
  it('pin every index package they install to a compatible release, the line their version is on', () => {
    expect(pypiVerified.length).toBeGreaterThan(150);
    const problems = unpinned(pypiVerified, {
      command: /^(?:python3 -m pip|pip) install (.+)$/,
      spec: /^'?([A-Za-z0-9][\w.-]*)(?:\[[\w,-]+\])?~=(\d+)\.(\d+)(?:\.0)?'?$/,
      sameName: (a, b) => normal(a) === normal(b),
      skip: /^https?:/,
    });
    expect(problems).toEqual([]);
  });
});
