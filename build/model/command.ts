// A contract's one-line command read as an agent would start it: without a shell, as one argument vector.
// Everything a shell would have to interpret (pipes, redirects, variables, several commands) is reported,
// and so are the patterns that make a command unsafe or useless to run: input pasted into code,
// a program that only imports a package, piping downloads into a shell, sudo, Homebrew.
import { parse } from 'shell-quote';

export type CommandProblemKind =
  | 'pipe_to_shell'
  | 'sudo'
  | 'homebrew'
  | 'remote_script'
  | 'shell_syntax'
  | 'placeholder_in_code'
  | 'import_only'
  | 'empty';

export interface CommandProblem {
  kind: CommandProblemKind | string;
  message: string;
}

export interface ParsedCommand {
  /**
   * The words of the command, quotes removed. When the command needs a shell (a `shell_syntax`
   * problem) this is only the first simple command, so it is never the whole story.
   */
  argv: string[];
  /** Placeholder names (`{file}` → `file`), each once, in order of first use. */
  placeholders: string[];
  problems: CommandProblem[];
}

/** `{name}`: a letter or underscore, then letters, digits, underscores; nothing else counts. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Placeholder names in one string, each once, in order. */
export function placeholderNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (!names.includes(m[1] as string)) names.push(m[1] as string);
  return names;
}

// Operators that join or wrap commands; redirections are listed apart for the message.
const REDIRECTS = new Set(['>', '>>', '<', '>&', '<&', '>|', '<>', '&>', '&>>', '<<', '<<<']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash']);
const DOWNLOADERS = new Set(['curl', 'wget', 'iwr', 'invoke-webrequest', 'irm']);

type Language = 'javascript' | 'python' | 'shell' | 'perl' | 'ruby' | 'php';

/** Interpreters and the flags after which their next argument is a program text. */
function codeFlags(program: string): { language: Language; flags: string[] } | null {
  const name = program.split('/').pop() ?? program;
  if (/^(node|nodejs|bun|deno)$/.test(name))
    return { language: 'javascript', flags: ['-e', '--eval', '-p', '--print'] };
  if (/^(python|python[23](\.\d+)?|pypy3?)$/.test(name)) return { language: 'python', flags: ['-c'] };
  if (SHELLS.has(name)) return { language: 'shell', flags: ['-c'] };
  if (name === 'perl') return { language: 'perl', flags: ['-e', '-E'] };
  if (name === 'ruby') return { language: 'ruby', flags: ['-e'] };
  if (name === 'php') return { language: 'php', flags: ['-r'] };
  return null;
}

export interface CodeArgument {
  language: Language;
  /** Index of the program text in the simple command's words. */
  index: number;
  code: string;
}

/** The program text passed to an interpreter with `-e` / `-c` (…), if the words contain one. */
export function findCodeArgument(words: readonly string[]): CodeArgument | null {
  for (let i = 0; i < words.length; i++) {
    const spec = codeFlags(words[i] as string);
    if (!spec) continue;
    for (let j = i + 1; j < words.length; j++) {
      const w = words[j] as string;
      if (w === '--') break;
      if (spec.flags.includes(w) && j + 1 < words.length) {
        return { language: spec.language, index: j + 1, code: words[j + 1] as string };
      }
      const eq = spec.flags.find((f) => f.startsWith('--') && w.startsWith(`${f}=`));
      if (eq) return { language: spec.language, index: j, code: w.slice(eq.length + 1) };
      // The first operand that is not an option is a script file: no program text follows.
      if (!w.startsWith('-')) break;
    }
  }
  return null;
}

function statements(code: string): string[] {
  return code
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const PY_IMPORT_ONLY = [
  /^import\s+[\w.]+(\s+as\s+\w+)?(\s*,\s*[\w.]+(\s+as\s+\w+)?)*$/,
  /^from\s+[\w.]+\s+import\s+.+$/,
  /^pass$/,
  // Printing the version proves the import worked and nothing more.
  /^print\(\s*[\w.]+\.(__version__|version)\s*\)$/,
];
const JS_IMPORT_ONLY = [
  /^import\s+[^'"]+\s+from\s+(['"])[^'"]+\1$/,
  /^import\s+(['"])[^'"]+\1$/,
  /^(const|let|var)\s+[^=]+=\s*(await\s+import|require)\(\s*(['"])[^'"]+\3\s*\)(\.[\w$]+)*$/,
  /^(await\s+import|require)\(\s*(['"])[^'"]+\2\s*\)(\.[\w$]+)*$/,
  /^process\.exit\(\s*\d*\s*\)$/,
  /^console\.log\(\s*typeof\s+.+\)$/,
];

/** True when a program text only loads modules (and at most prints a version): it does no task. */
export function isImportOnly(language: Language, code: string): boolean {
  const rules = language === 'python' ? PY_IMPORT_ONLY : language === 'javascript' ? JS_IMPORT_ONLY : null;
  if (!rules) return false;
  const parts = statements(code);
  return parts.length > 0 && parts.every((s) => rules.some((r) => r.test(s)));
}

/** Backticks outside single quotes are command substitution; shell-quote keeps them as text. */
function hasBacktickSubstitution(cmd: string): boolean {
  let single = false;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i];
    if (c === '\\' && !single) i++;
    else if (c === "'") single = !single;
    else if (c === '`' && !single) return true;
  }
  return false;
}

type Token = string | { op: string; pattern?: string } | { comment: string };

/** Parses a one-line command into its argument vector and everything wrong with running it without a shell. */
export function parseCommand(cmd: string): ParsedCommand {
  const problems: CommandProblem[] = [];
  const add = (kind: CommandProblemKind, message: string) => {
    if (!problems.some((p) => p.kind === kind && p.message === message)) problems.push({ kind, message });
  };
  const variables: string[] = [];
  // Variables are kept as text ($NAME) and remembered: expanding them needs a shell.
  const tokens = parse(cmd, (key: string) => {
    variables.push(key);
    return `$${key}`;
  }) as Token[];

  const segments: string[][] = [[]];
  const joins: string[] = [];
  const syntax: string[] = [];
  const words: string[] = [];
  let redirectTarget = false;
  for (const t of tokens) {
    if (typeof t === 'string') {
      words.push(t);
      // The word after a redirection names its file: not an argument of the command.
      if (!redirectTarget) (segments[segments.length - 1] as string[]).push(t);
      redirectTarget = false;
    } else if ('comment' in t) {
      syntax.push('a # comment');
    } else if (t.op === 'glob') {
      words.push(t.pattern ?? '');
      (segments[segments.length - 1] as string[]).push(t.pattern ?? '');
      syntax.push(`the glob ${t.pattern}`);
    } else if (REDIRECTS.has(t.op)) {
      syntax.push(`the redirection ${t.op}`);
      redirectTarget = true;
    } else {
      syntax.push(`the operator ${t.op}`);
      joins.push(t.op);
      segments.push([]);
    }
  }
  if (variables.length) syntax.push(`the variable $${variables[0]}`);
  if (hasBacktickSubstitution(cmd)) syntax.push('a `command substitution`');

  const simple = segments.filter((s) => s.length > 0);
  // Leading NAME=value words set the environment of one command: a shell feature.
  const commands = simple.map((words) => {
    let k = 0;
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k] as string)) k++;
    if (k > 0) syntax.push(`the environment assignment ${(words[0] as string).split('=')[0]}=`);
    return words.slice(k);
  });
  const argv = simple[0] ?? [];
  if (argv.length === 0) add('empty', 'the command is empty');

  const programOf = (words: string[]) => {
    const i = words[0] === 'sudo' ? words.findIndex((w, n) => n > 0 && !w.startsWith('-')) : 0;
    return (words[i] ?? '').split('/').pop() ?? '';
  };
  commands.forEach((words, i) => {
    if (words.includes('sudo')) add('sudo', 'runs sudo: a contract command must not need root');
    const program = programOf(words);
    if (program === 'brew') add('homebrew', 'installs with Homebrew (brew), which Linux machines and sandboxes lack');
    if (i > 0 && joins[i - 1] === '|' && (SHELLS.has(program) || codeFlags(program))) {
      add('pipe_to_shell', `pipes into ${program}: the downloaded or generated text runs as a program`);
    }
    if (DOWNLOADERS.has(program) && commands.length > 1) {
      add('remote_script', `downloads with ${program} and runs what it fetched`);
    }
    const code = findCodeArgument(words);
    if (code) {
      const inside = placeholderNames(code.code);
      if (inside.length) {
        add(
          'placeholder_in_code',
          `{${inside.join('}, {')}} inside the ${code.language} program text: the value would run as code; ` +
            'pass it as an argument or a file instead',
        );
      }
      if (isImportOnly(code.language, code.code)) {
        add('import_only', `the ${code.language} program only imports the package and does no task`);
      }
    }
  });
  if (/<\(|\$\(/.test(cmd) && /\b(curl|wget)\b/.test(cmd)) add('remote_script', 'runs a downloaded script');
  if (syntax.length) {
    add('shell_syntax', `needs a shell for ${[...new Set(syntax)].join(', ')}: write one command with its arguments`);
  }
  return { argv, placeholders: placeholderNames(words.join('\u0000')), problems };
}

/**
 * Fills `{name}` placeholders in every element from `values`. Each element stays one argument whatever the value
 * holds (spaces, quotes, `;`), since no shell reads it. A placeholder without a value is an error.
 */
export function fillArgv(argv: string[], values: Record<string, string>): string[] {
  return argv.map((arg) =>
    arg.replace(PLACEHOLDER, (_whole, name: string) => {
      if (!Object.hasOwn(values, name)) throw new Error(`no value for the placeholder {${name}}`);
      return values[name] as string;
    }),
  );
}

/** A command as served argv: null when there is no command or it only works through a shell. */
export function servedArgv(cmd: string | null): string[] | null {
  if (cmd == null) return null;
  const parsed = parseCommand(cmd);
  return parsed.problems.some((p) => p.kind === 'shell_syntax' || p.kind === 'empty') ? null : parsed.argv;
}
