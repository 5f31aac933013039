// What the offline load check looks for in a command's program text: modules, named imports, called functions.
import { describe, expect, it } from 'vitest';
import { jsLoadTargets, pyLoadTargets } from '../../../build/verify/load-check.ts';

describe('load targets', () => {
  it('JavaScript: named imports, destructured requires, calls on a bound module; node: built-ins skipped', () => {
    const code =
      "import { Client, Other as O } from 'cloudy'; import fs from 'node:fs'; const s = require('sdk'); s.connect(1); s.x;";
    expect(jsLoadTargets(code)).toEqual([
      { module: 'cloudy', names: ['Client', 'Other'] },
      { module: 'sdk', names: ['connect'] },
    ]);
  });

  it('JavaScript: names taken from a member of the module are not checked on the module itself', () => {
    expect(jsLoadTargets("const { Translate } = require('@google-cloud/translate').v2; new Translate()")).toEqual([
      { module: '@google-cloud/translate', names: [] },
    ]);
  });

  it('Python: from-imports, comma-separated imports with aliases, calls on each binding', () => {
    const code = 'import sys, requests as rq\nfrom a.b import c, d as e\nrq.get(sys.argv[1]); print(e)';
    expect(pyLoadTargets(code)).toEqual([
      { module: 'a.b', names: ['c', 'd'] },
      { module: 'sys', names: [] },
      { module: 'requests', names: ['get'] },
    ]);
  });
});
