import { describe, expect, it } from 'vitest';
import { fillArgv, isImportOnly, parseCommand } from '../../../build/model/command.ts';

const kinds = (cmd: string) =>
  parseCommand(cmd)
    .problems.map((p) => p.kind)
    .sort();

describe('parseCommand', () => {
  it('splits shell words, removes quotes and keeps whole-element placeholders', () => {
    const p = parseCommand(`jq '{filter}' {json_file}`);
    expect(p.argv).toEqual(['jq', '{filter}', '{json_file}']);
    expect(p.placeholders).toEqual(['filter', 'json_file']);
    expect(p.problems).toEqual([]);
  });

  it('keeps a program text as one element and its arguments after it', () => {
    const p = parseCommand(`node -e "console.log(process.argv[1].toUpperCase())" {text}`);
    expect(p.argv).toEqual(['node', '-e', 'console.log(process.argv[1].toUpperCase())', '{text}']);
    expect(p.placeholders).toEqual(['text']);
    expect(p.problems).toEqual([]);
  });

  it('finds placeholders embedded in an element, each once', () => {
    const p = parseCommand('rclone copy {src} {remote}:{dest} --log={src}');
    expect(p.placeholders).toEqual(['src', 'remote', 'dest']);
    expect(p.problems).toEqual([]);
  });

  it('flags a placeholder pasted into node, python, bash, perl and ruby code', () => {
    for (const cmd of [
      `node -e "require('axios').get('{url}')"`,
      `node --input-type=module -e "console.log('{text}')"`,
      `node --eval="console.log('{text}')"`,
      `python3 -c "print('{text}')"`,
      `bash -c "echo {text}"`,
      `perl -e 'print "{x}"'`,
      `ruby -e 'puts "{x}"'`,
    ]) {
      expect(kinds(cmd), cmd).toContain('placeholder_in_code');
    }
    expect(parseCommand(`python3 -c "print('{text}')"`).problems[0]?.message).toMatch(/\{text\}.*python/);
  });

  it('does not treat a script file or a later -e as program text', () => {
    expect(kinds('node script.js -e {x}')).toEqual([]);
    expect(kinds('python3 tool.py -c {config}')).toEqual([]);
    expect(kinds('grep -e {pattern} {file}')).toEqual([]);
  });

  it('flags import-only programs', () => {
    expect(kinds(`python3 -c "import pydantic"`)).toEqual(['import_only']);
    expect(kinds(`python -c "from smolagents import CodeAgent"`)).toEqual(['import_only']);
    expect(kinds(`python3 -c "import sklearn; print(sklearn.__version__)"`)).toEqual(['import_only']);
    expect(kinds(`node -e "require('x')"`)).toEqual(['import_only']);
    expect(kinds(`node --input-type=module -e "import { Command } from 'commander'"`)).toEqual(['import_only']);
    expect(kinds(`node -e "const x = require('x'); process.exit(0)"`)).toEqual(['import_only']);
    expect(kinds(`python3 -c "import sys, json; print(json.dumps(sys.argv[1:]))" a`)).toEqual([]);
    expect(kinds(`node -e "console.log(require('x').run(process.argv[1]))" a`)).toEqual([]);
    expect(isImportOnly('python', '')).toBe(false);
  });

  it('flags pipes into a shell, downloads that run, sudo and Homebrew', () => {
    expect(kinds('curl -fsSL https://ollama.com/install.sh | sh')).toEqual([
      'pipe_to_shell',
      'remote_script',
      'shell_syntax',
    ]);
    expect(kinds('curl https://rclone.org/install.sh | sudo bash')).toEqual([
      'pipe_to_shell',
      'remote_script',
      'shell_syntax',
      'sudo',
    ]);
    expect(kinds('bash <(curl -s https://x.example/i.sh)')).toContain('remote_script');
    expect(kinds('sudo apt-get install -y jq')).toEqual(['sudo']);
    expect(kinds('brew install jq')).toEqual(['homebrew']);
  });

  it('reports everything else a shell would interpret as shell_syntax, naming it', () => {
    for (const [cmd, what] of [
      ['git diff | delta', 'operator |'],
      ['a && b', 'operator &&'],
      ['a; b', 'operator ;'],
      [`qr '{text}' > {out}`, 'redirection >'],
      ['fzf --filter x < {file}', 'redirection <'],
      ['CGO_ENABLED=1 go install x@latest', 'environment assignment CGO_ENABLED='],
      ['echo $HOME', 'variable $HOME'],
      ['echo `date`', 'command substitution'],
      ['ls *.js', 'glob'],
    ] as const) {
      const p = parseCommand(cmd);
      expect(
        p.problems.map((x) => x.kind),
        cmd,
      ).toEqual(['shell_syntax']);
      expect(p.problems[0]?.message, cmd).toContain(what);
    }
    // A redirect target is no argument, but its placeholder is still one of the command's.
    const r = parseCommand(`qr '{text}' > {out}`);
    expect(r.argv).toEqual(['qr', '{text}']);
    expect(r.placeholders).toEqual(['text', 'out']);
  });

  it('allows what only looks like shell syntax inside single quotes', () => {
    expect(kinds(`node -e 'console.log(\`a\${1}\`)'`)).toEqual([]);
    expect(kinds(`python3 -c 'import sys; print(sys.argv[1] + "|" + "$x")' y`)).toEqual([]);
  });

  it('reports an empty command', () => {
    expect(kinds('   ')).toEqual(['empty']);
  });
});

describe('fillArgv', () => {
  it('puts each value into its element, keeping hostile text one argument', () => {
    const argv = parseCommand(`node -e "console.log(process.argv[1])" {text} {a}-{b}`).argv;
    expect(fillArgv(argv, { text: `'); rm -rf / #`, a: 'x y', b: '$HOME' })).toEqual([
      'node',
      '-e',
      'console.log(process.argv[1])',
      `'); rm -rf / #`,
      'x y-$HOME',
    ]);
  });

  it('does not read inherited names and fails on a missing value', () => {
    expect(() => fillArgv(['{toString}'], {})).toThrow(/no value for the placeholder \{toString\}/);
    expect(() => fillArgv(['x', '{file}'], { text: 'a' })).toThrow(/\{file\}/);
  });

  it('leaves braces that are not placeholders alone', () => {
    expect(fillArgv(['{ a: 1 }', '{1x}', '{}'], {})).toEqual(['{ a: 1 }', '{1x}', '{}']);
  });
});
