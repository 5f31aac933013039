// The bundled npm contracts install the release line they were verified on (`sharp@0.34`, `yaml@2`): `npm install
// sharp` alone would take whatever major the registry holds when an agent runs it, and a command verified on one
// major can fail on the next (arquero 8.0.3 depends on a package the registry answers 404).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, '../../../catalog/tools');
const npmContracts = readdirSync(dir)
  .filter((f) => f.startsWith('npm-') && f.endsWith('.json'))
  .map(
    (f) =>
      JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as {
        identity: { aid: string };
        action: { install_cmd: string | null };
      },
  );

describe('bundled npm contracts', () => {
  it('pin every package they install to a release line', () => {
    expect(npmContracts.length).toBeGreaterThan(800);
    const unpinned = npmContracts.flatMap((c) => {
      const m = /^npm install (.+)$/.exec(c.action.install_cmd ?? '');
      if (!m) return [`${c.identity.aid}: ${c.action.install_cmd}`];
      return m[1]!
        .split(/\s+/)
        .filter((spec) => !/^@?[^@\s]+@\d+(?:\.\d+){0,2}$/.test(spec))
        .map((spec) => `${c.identity.aid}: ${spec}`);
    });
    expect(unpinned).toEqual([]);
  });
});
