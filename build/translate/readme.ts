// Commands from a README: the install command from its install section, and an execute command from its
// usage section when a shell example runs the tool's own CLI. Only fenced code blocks count; prose is
// never turned into a command.
import { clip, isInstallCommand } from './common.ts';

interface Section {
  heading: string;
  blocks: string[][];
}

function sections(markdown: string): Section[] {
  const out: Section[] = [{ heading: '', blocks: [] }];
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let fence: string | null = null;
  let lang = '';
  let block: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    const current = out.at(-1) as Section;
    if (fence) {
      if (l.trim().startsWith(fence)) {
        if (/^(|sh|bash|shell|console|zsh|shell-session|terminal|cmd|powershell|ps1|text)$/i.test(lang))
          current.blocks.push(block);
        fence = null;
      } else block.push(l);
      continue;
    }
    const open = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(l);
    if (open) {
      fence = open[1] as string;
      lang = open[2] ?? '';
      block = [];
      continue;
    }
    const atx = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    const setext = i + 1 < lines.length && l.trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1] ?? '');
    if (atx) out.push({ heading: atx[1] ?? '', blocks: [] });
    else if (setext) {
      out.push({ heading: l.trim(), blocks: [] });
      i++;
    }
  }
  return out;
}

/** Shell lines of a block without prompts and comments; continued lines (trailing `\`) are dropped. */
function commands(block: string[]): string[] {
  const out: string[] = [];
  for (const raw of block) {
    const l = raw.trim().replace(/^(\$|>|%|PS>|C:\\>)\s+/, '');
    if (!l || l.startsWith('#') || l.startsWith('//') || l.endsWith('\\') || l.length > 500) continue;
    out.push(l.replace(/\s+/g, ' '));
  }
  return out;
}

const INSTALL_HEADING = /install|setup|getting started/i;
const USAGE_HEADING = /usage|quick ?start|getting started|example|how to use|command[- ]line|cli\b/i;

export interface ReadmeCommands {
  install_cmd: string | null;
  execute_cmd: string | null;
}

/** `cli` is the command the tool installs (the repository or package name), if it has one. */
export function readmeCommands(markdown: string, cli: string | null): ReadmeCommands {
  const all = sections(markdown.slice(0, 512 * 1024));
  const lines = (pick: (s: Section) => boolean) => all.filter(pick).flatMap((s) => s.blocks.flatMap(commands));
  const install =
    lines((s) => INSTALL_HEADING.test(s.heading)).find(isInstallCommand) ??
    lines(() => true).find(isInstallCommand) ??
    null;
  let execute: string | null = null;
  if (cli) {
    const runsCli = (l: string) => !isInstallCommand(l) && (l === cli || l.startsWith(`${cli} `));
    execute = lines((s) => USAGE_HEADING.test(s.heading)).find(runsCli) ?? null;
  }
  return { install_cmd: install ? clip(install, 500) : null, execute_cmd: execute ? clip(execute, 1000) : null };
}
