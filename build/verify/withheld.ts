// What this sandbox withholds from a tool, read from what a failed step printed: hosts outside the package
// registries (the sandbox has no DNS and its install step reaches the registries only, so a download from
// elsewhere fails by name resolution or is refused by the proxy), programs that are not installed on this
// machine (they come from neither npm nor PyPI), and files a tool keeps in the user's cache after downloading
// them on first use or by a setup command of its own (browsers). The verdict turns these into `unverifiable`
// with the thing named, so a maintainer can tell an environment limit from a broken tool. One set of rules for
// every tool: no rule names a package.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SANDBOX_HOME } from './sandbox.ts';

const HOST = String.raw`((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63})`;

/** Messages that name the host a connection could not resolve or reach, one per runtime or library. */
const HOST_FAILURES: RegExp[] = [
  // Node (getaddrinfo EAI_AGAIN api.nuget.org), also inside fetch's "cause".
  new RegExp(String.raw`getaddrinfo (?:EAI_AGAIN|ENOTFOUND|EAI_NONAME|EAI_FAIL) ${HOST}`, 'gi'),
  // curl and git.
  new RegExp(String.raw`Could not resolve host:? '?${HOST}`, 'gi'),
  // urllib3 / requests.
  new RegExp(String.raw`Failed to resolve '${HOST}'`, 'gi'),
  new RegExp(String.raw`HTTPS?ConnectionPool\(host='${HOST}'`, 'gi'),
  // Go.
  new RegExp(String.raw`dial tcp: lookup ${HOST}`, 'gi'),
];

/** A URL on a line that says a connection, request or download failed (Rust's reqwest, node-fetch, Hugging Face). */
const FAILED_LINE = /fail|error|could ?n[o']t|unable|refused|timed? ?out|unreachable|EAI_AGAIN|ENOTFOUND/i;
const NETWORK_LINE = /connect|resolv|request|fetch|download|reach|send/i;
const URL_HOST = new RegExp(String.raw`https?://${HOST}`, 'gi');

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0)$/i;

/** Hosts a step's output says it could not reach, lower-cased, loopback and the `allowed` registries left out. */
export function unreachedHosts(text: string, allowed: readonly string[] = []): string[] {
  const registries = new Set(allowed.map((h) => h.replace(/:\d+$/, '').toLowerCase()));
  const found = new Set<string>();
  for (const re of HOST_FAILURES) for (const m of text.matchAll(re)) found.add((m[1] as string).toLowerCase());
  for (const line of text.split('\n')) {
    if (!FAILED_LINE.test(line) || !NETWORK_LINE.test(line)) continue;
    for (const m of line.matchAll(URL_HOST)) found.add((m[1] as string).toLowerCase());
  }
  return [...found].filter((h) => !LOOPBACK.test(h) && !registries.has(h));
}

/** Where the sandbox looks for programs; one found here was there, so its absence is not the cause. */
const SYSTEM_BIN = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'];

/** `spawn festival ENOENT`, `sh: 1: festival: not found`, Go's and Python's subprocess errors. */
const PROGRAM_FAILURES: RegExp[] = [
  /\bspawn(?:Sync)? ([\w.+-]+) ENOENT\b/,
  /(?:^|: )([\w.+-]+): (?:command )?not found\s*$/m,
  /exec: "([\w.+-]+)": executable file not found in \$PATH/,
  /\bwhich: no ([\w.+-]+) in\b/,
];
const PYTHON_SUBPROCESS = /_execute_child|subprocess\.py/;
const PYTHON_NOT_FOUND = /FileNotFoundError: \[Errno 2\] No such file or directory: '([\w.+-]+)'/;

/**
 * A program the step could not start because this machine does not have it, or null. Bare names only (a path
 * is a file the package itself should have shipped), never the command's own program (that one the install
 * should have provided: a contract error), and only when no system folder the sandbox mounts has it.
 */
export function missingProgram(text: string, ownProgram?: string): string | null {
  const names = PROGRAM_FAILURES.map((re) => re.exec(text)?.[1]);
  if (PYTHON_SUBPROCESS.test(text)) names.push(PYTHON_NOT_FOUND.exec(text)?.[1]);
  const own = ownProgram ? path.basename(ownProgram) : undefined;
  for (const name of names) {
    if (!name || name === own || name === 'launcher') continue;
    if (SYSTEM_BIN.some((dir) => existsSync(path.join(dir, name)))) continue;
    return name;
  }
  return null;
}

const CACHE_PATH = new RegExp(String.raw`(?:${SANDBOX_HOME.replace(/\//g, '\\/')}|~)/\.cache/[^\s'"()\`,;]+`);
const NOT_THERE = /doesn't exist|does not exist|not found|could not find|couldn't find|no such file|is missing/i;

/**
 * A file the tool expected in the user's cache folder (`~/.cache/…`, where browser automation and model
 * libraries keep what they download on first use or by their own setup command), as `~/.cache/<first two
 * levels>`, or null. Each sandbox step starts with an empty HOME and no route out, so nothing can be there.
 */
export function missingDownload(text: string): string | null {
  if (!NOT_THERE.test(text)) return null;
  const found = CACHE_PATH.exec(text)?.[0];
  if (!found) return null;
  const rest = found
    .replace(/^.*?\/\.cache\//, '')
    .split('/')
    .filter(Boolean)
    .slice(0, 2);
  return `~/.cache/${rest.join('/')}`;
}
