// The bundled contracts install the release line they were verified on (`sharp@0.34`, `yaml@2`, `django~=5.0`):
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

describe('bundled npm contracts', () => {
  it('pin every package they install to a release line, the one their version is on', () => {
    expect(npmContracts.length).toBeGreaterThan(800);
    const unpinned = npmContracts.flatMap((c) => {
      const m = /^npm install (.+)$/.exec(c.action.install_cmd ?? '');
      if (!m) return [`${c.identity.aid}: ${c.action.install_cmd}`];
      return m[1]!.split(/\s+/).flatMap((spec) => {
        const p = /^(@?[^@\s]+)@(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(spec);
        if (!p) return [`${c.identity.aid}: ${spec}`];
        if (p[1] === c.identity.name && !onLine(c.identity.version, p[2]!, p[3]))
          return [`${c.identity.aid}: ${spec} against version ${c.identity.version}`];
        return [];
      });
    });
    expect(unpinned).toEqual([]);
  });
});

describe('bundled PyPI contracts verified in the sandbox', () => {
  it('pin every index package they install to a compatible release, the line their version is on', () => {
    expect(pypiVerified.length).toBeGreaterThan(150);
    const unpinned = pypiVerified.flatMap((c) => {
      const m = /^(?:python3 -m pip|pip) install (.+)$/.exec(c.action.install_cmd ?? '');
      if (!m) return [`${c.identity.aid}: ${c.action.install_cmd}`];
      return m[1]!.split(/\s+/).flatMap((spec) => {
        if (/^https?:/.test(spec)) return [];
        const p = /^'?([A-Za-z0-9][\w.-]*)(?:\[[\w,-]+\])?~=(\d+)\.(\d+)(?:\.0)?'?$/.exec(spec);
        if (!p) return [`${c.identity.aid}: ${spec}`];
        if (normal(p[1]!) === normal(c.identity.name) && !onLine(c.identity.version, p[2]!, p[3]))
          return [`${c.identity.aid}: ${spec} against version ${c.identity.version}`];
        return [];
      });
    });
    expect(unpinned).toEqual([]);
  });
});
