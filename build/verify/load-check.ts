// For tools that need the internet or an account: what their command loads and calls, so the verifier can
// check offline that the package installs, loads, and has those functions (level `loads`). The check runs
// in the sandbox as a small script that reads its targets from a JSON file, never from pasted code.
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export interface LoadTarget {
  module: string;
  /** Names that must exist on the module (named imports, `binding.fn(` calls). */
  names: string[];
}

const JS_SPEC = /(?:require|import)\(\s*(['"])([^'"]+)\1\s*\)|from\s+(['"])([^'"]+)\3|import\s+(['"])([^'"]+)\5/g;

function addTarget(targets: Map<string, Set<string>>, module: string, names: string[] = []) {
  const set = targets.get(module) ?? new Set<string>();
  for (const n of names) if (n && n !== 'default' && n !== '*') set.add(n);
  targets.set(module, set);
}

/** Modules and names a JavaScript program text uses, from its imports and requires. */
export function jsLoadTargets(code: string): LoadTarget[] {
  const targets = new Map<string, Set<string>>();
  for (const m of code.matchAll(JS_SPEC)) {
    const spec = m[2] ?? m[4] ?? m[6];
    if (!spec || spec.startsWith('node:') || spec.startsWith('.')) continue;
    addTarget(targets, spec);
  }
  // import { a, b as c } from 'x'  /  const { a, b: c } = require('x')
  const named =
    /(?:import\s*\{([^}]*)\}\s*from|(?:const|let|var)\s*\{([^}]*)\}\s*=\s*(?:await\s+import|require))\s*\(?\s*(['"])([^'"]+)\3(\s*\)\s*\.)?/g;
  for (const m of code.matchAll(named)) {
    // `const { A } = require('x').v2` takes A from a member of the module: only the module is checked.
    if (m[5]) continue;
    const list = (m[1] ?? m[2] ?? '').split(',').map((s) => (s.trim().split(/\s+as\s+|\s*:\s*/)[0] ?? '').trim());
    if (!(m[4] as string).startsWith('node:')) addTarget(targets, m[4] as string, list);
  }
  // const X = require('x'); X.fn(   /  import X from 'x' / import * as X from 'x'; X.fn(
  const bound =
    /(?:(?:const|let|var)\s+([\w$]+)\s*=\s*(?:await\s+import|require)\(\s*|import\s+(?:\*\s+as\s+)?([\w$]+)\s+from\s+)(['"])([^'"]+)\3/g;
  for (const m of code.matchAll(bound)) {
    const binding = (m[1] ?? m[2]) as string;
    const calls = [
      ...code.matchAll(new RegExp(`(?<![\\w$.])${binding.replace(/\$/g, '\\$')}\\.([\\w$]+)\\s*\\(`, 'g')),
    ].map((c) => c[1] as string);
    if (!(m[4] as string).startsWith('node:')) addTarget(targets, m[4] as string, calls);
  }
  return [...targets].map(([module, names]) => ({ module, names: [...names] }));
}

/** Modules and names a Python program text uses. */
export function pyLoadTargets(code: string): LoadTarget[] {
  const targets = new Map<string, Set<string>>();
  for (const m of code.matchAll(/(?:^|[;\n])\s*from\s+([\w.]+)\s+import\s+([\w\s,]+)/g)) {
    addTarget(
      targets,
      m[1] as string,
      (m[2] as string).split(',').map((s) => (s.trim().split(/\s+as\s+/)[0] ?? '').trim()),
    );
  }
  const imports = /(?:^|[;\n])\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/g;
  const bindings = [...code.matchAll(imports)].flatMap((m) =>
    (m[1] as string).split(',').map((part) => {
      const [module, alias] = part.trim().split(/\s+as\s+/) as [string, string | undefined];
      return { module, binding: alias ?? module };
    }),
  );
  for (const { module, binding } of bindings) {
    const calls = [
      ...code.matchAll(new RegExp(`(?<![\\w.])${binding.replace(/\./g, '\\.')}\\.(\\w+)\\s*\\(`, 'g')),
    ].map((c) => c[1] as string);
    addTarget(targets, module, calls);
  }
  return [...targets].map(([module, names]) => ({ module, names: [...names] }));
}

const NODE_CHECK = `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const targets = JSON.parse(readFileSync('.verify-load.json', 'utf8'));
let missing = 0;
for (const { module, names } of targets) {
  let m;
  try { m = await import(module); } catch (e) { try { m = require(module); } catch { console.log('cannot load ' + module + ': ' + e.message); missing++; continue; } }
  for (const n of names) {
    const has = n in Object(m) || (m.default != null && n in Object(m.default));
    if (!has) { console.log(module + ' has no ' + n); missing++; }
  }
  console.log('loaded ' + module + (names.length ? ' (' + names.join(', ') + ')' : ''));
}
process.exit(missing ? 1 : 0);
`;

const PYTHON_CHECK = `import importlib, json, sys
missing = 0
for t in json.load(open('.verify-load.json')):
    try:
        m = importlib.import_module(t['module'])
    except Exception as e:
        print('cannot load %s: %s' % (t['module'], e)); missing += 1; continue
    for n in t['names']:
        if hasattr(m, n):
            continue
        try:
            importlib.import_module(t['module'] + '.' + n)
        except Exception:
            print('%s has no %s' % (t['module'], n)); missing += 1
    print('loaded ' + t['module'])
sys.exit(1 if missing else 0)
`;

/** Writes the check into the work folder; answers the argv that runs it inside the sandbox. */
export async function writeLoadCheck(
  workDir: string,
  runtime: 'node' | 'python',
  targets: LoadTarget[],
): Promise<string[]> {
  await fsp.writeFile(path.join(workDir, '.verify-load.json'), JSON.stringify(targets));
  if (runtime === 'node') {
    await fsp.writeFile(path.join(workDir, '.verify-load.mjs'), NODE_CHECK);
    return ['node', '.verify-load.mjs'];
  }
  await fsp.writeFile(path.join(workDir, '.verify-load.py'), PYTHON_CHECK);
  return ['python', '.verify-load.py'];
}
