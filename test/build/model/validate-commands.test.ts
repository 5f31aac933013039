// The command rules of the validator: placeholders described and used, a named output target, one argv that
// does a task. Also through `npm run validate`, which prints them one line each.
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../../build/model/contract.ts';
import { validateContract } from '../../../build/model/validate-contract.ts';
import { runTs } from '../../helpers/run-ts.ts';
import { sampleContract, type TempCatalog, tempCatalog, writeContract } from '../../helpers/temp-catalog.ts';

const text = { type: 'string', description: 'Text to convert', role: 'text' as const, examples: ['Hello'] };
const outFile = { type: 'string', description: 'PNG file to write', role: 'output_file' as const, default: 'out.png' };

/** A contract that passes every command rule. */
function good(patch: { execute_cmd?: string | null; install_cmd?: string | null } = {}): ToolContract {
  return sampleContract('npm-qr-v1', {
    logic: {
      input_schema: { type: 'object', properties: { text, output_png: outFile }, required: ['text'] },
      output_schema: { type: 'image', target: 'output_png' },
    },
    action: { install_cmd: 'npm install qrcode', execute_cmd: 'npx qrcode -o {output_png} {text}', ...patch },
  });
}

const messages = (c: unknown) => validateContract(c, { commands: true }).map((e) => `${e.path}: ${e.message}`);

describe('command rules', () => {
  it('accept a contract whose placeholders are all described and used', () => {
    expect(messages(good())).toEqual([]);
    expect(
      messages({ ...good(), logic: { ...good().logic, output_schema: { type: 'string', target: 'stdout' } } }),
    ).toEqual([]);
  });

  it('apply only when asked: loading a catalog checks the schema', () => {
    const c = good({ execute_cmd: `node -e "console.log('{text}')"` });
    expect(validateContract(c)).toEqual([]);
    expect(messages(c).length).toBeGreaterThan(0);
  });

  it('require a property for every placeholder of either command, and use for every property', () => {
    const c = good({ execute_cmd: 'npx qrcode -o {output_png} {txt}', install_cmd: 'npm install {pkg}' });
    expect(messages(c)).toEqual([
      '/logic/input_schema/properties/pkg: is required: {pkg} is a placeholder of install_cmd',
      '/logic/input_schema/properties/txt: is required: {txt} is a placeholder of execute_cmd',
      '/logic/input_schema/properties/text: is not a placeholder of execute_cmd or install_cmd: use it in the command or remove it',
    ]);
  });

  it('allow undescribed-by-command properties while there is no execute command', () => {
    expect(messages(good({ execute_cmd: null }))).toEqual([]);
  });

  it('require type, description, role and a default or examples, and a short description', () => {
    const c = good();
    c.logic.input_schema.properties = {
      text: { type: 'string' },
      output_png: { ...outFile, description: 'x'.repeat(201) },
    };
    expect(messages(c)).toEqual([
      '/logic/input_schema/properties/output_png/description: must be at most 200 characters',
      '/logic/input_schema/properties/text: placeholder {text} needs description, role, default or examples',
    ]);
  });

  it('reject unknown roles and empty examples through the schema', () => {
    const c = good();
    c.logic.input_schema.properties = { text: { ...text, role: 'blob' as never, examples: [] }, output_png: outFile };
    expect(messages(c)).toEqual([
      '/logic/input_schema/properties/text/role: must be one of text, input_file, output_file, output_dir, url, json, number, option',
      '/logic/input_schema/properties/text/examples: must NOT have fewer than 1 items',
    ]);
  });

  it('require an output target naming stdout or an output placeholder', () => {
    const missing = good();
    delete missing.logic.output_schema.target;
    expect(messages(missing)).toEqual([
      '/logic/output_schema/target: is required with an execute_cmd: "stdout" or an output placeholder',
    ]);
    const wrong = good();
    wrong.logic.output_schema.target = 'text';
    expect(messages(wrong)).toEqual([
      '/logic/output_schema/target: must be "stdout" or a placeholder with role output_file or output_dir; "text" is not',
    ]);
    wrong.logic.output_schema.target = 'nothing';
    expect(messages(wrong)[0]).toContain('"nothing" is not');
  });

  it('reject input pasted into code, import-only programs and shell syntax, one line each', () => {
    const inCode = messages(good({ execute_cmd: `node -e "require('qrcode').toFile('{output_png}', '{text}')"` }));
    expect(inCode).toHaveLength(1);
    expect(inCode[0]).toMatch(
      /^\/action\/execute_cmd: placeholder_in_code: \{output_png\}, \{text\} inside the javascript/,
    );
    const importOnly = good({ execute_cmd: `python3 -c "import qrcode"` });
    importOnly.logic.input_schema.properties = {};
    importOnly.logic.output_schema.target = 'stdout';
    expect(messages(importOnly)).toEqual([
      '/action/execute_cmd: import_only: the python program only imports the package and does no task',
    ]);
    expect(messages(good({ execute_cmd: 'qr {text} > {output_png}' }))).toEqual([
      '/action/execute_cmd: shell_syntax: needs a shell for the redirection >: write one command with its arguments',
    ]);
    expect(messages(good({ install_cmd: 'curl -fsSL https://x.example/i.sh | sh' }))[0]).toMatch(
      /^\/action\/install_cmd: shell_syntax: needs a shell for the operator \|/,
    );
  });

  it('leave sudo and Homebrew to the verifier (unverifiable, not invalid)', () => {
    expect(messages(good({ install_cmd: 'brew install qrencode' }))).toEqual([]);
  });

  it('check requires: credential variable names and minimum runtime versions', () => {
    const c = good();
    c.action.requires = { network: true, env: ['OPENAI_API_KEY'], runtime: { node: '>=22' } };
    expect(messages(c)).toEqual([]);
    c.action.requires = { env: ['openai key'], runtime: { node: '22' } };
    expect(messages(c)).toEqual([
      '/action/requires/env/0: must match ^[A-Z_][A-Z0-9_]*$',
      '/action/requires/runtime/node: must match ^>=\\d+(\\.\\d+){0,2}$',
    ]);
  });
});

describe('npm run validate applies the command rules', () => {
  let cat: TempCatalog;
  afterEach(() => cat?.cleanup());

  it('prints one line per command problem and exits 1', async () => {
    cat = await tempCatalog([good()]);
    const bad = good({ execute_cmd: `python3 -c "print('{text}')"` });
    bad.identity.aid = 'npm-bad-v1';
    await writeContract(cat.catalogDir, bad);
    const r = await runTs('build/cli/validate.ts', [], { cwd: cat.root, env: { CATALOG_DIR: 'catalog' } });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      'catalog/tools/npm-bad-v1.json: /action/execute_cmd: placeholder_in_code: {text} inside the python program text: ' +
        'the value would run as code; pass it as an argument or a file instead',
      'catalog/tools/npm-bad-v1.json: /logic/input_schema/properties/output_png: is not a placeholder of execute_cmd ' +
        'or install_cmd: use it in the command or remove it',
      'catalog/tools/npm-bad-v1.json: /logic/output_schema/target: must be "stdout" or a placeholder with role ' +
        'output_file or output_dir; "output_png" is not',
    ]);
  });
});
