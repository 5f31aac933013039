// Values for the environment variables an MCP server needs to start, so it can start offline and list its
// tools: never real credentials, but of the right shape, since servers check their configuration at start (a
// URL that does not parse, a port that is not a number or a folder that does not exist stops them as surely as
// a missing key). The shape comes from what the registry says (default, choices, format, placeholder), then
// from the variable's name and description; anything else gets an opaque text.
import type { McpEnvVar } from '../model/contract.ts';
import { FIXTURE_PORT, SANDBOX_WORK } from './sandbox.ts';
import { hintedSample } from './input-values.ts';

export const PLACEHOLDER_ENV_VALUE = 'placeholder-set-by-the-verifier';

/** Where the folders and files that path variables name are made, inside the work folder. */
export const ENV_PATHS_DIR = '.env-paths';

export interface EnvPlaceholder {
  name: string;
  value: string;
  /** Which rule gave the value: the registry's default or first choice, its placeholder, a shape, or opaque text. */
  shape: 'default' | 'choice' | 'placeholder' | 'boolean' | 'number' | 'port' | 'path' | 'url' | 'host' | 'text';
  /** A path variable: make this folder, or this file (with a sample's bytes when one fits), before the start. */
  create?: { kind: 'dir' | 'file'; relative: string; sample: string | null };
}

const BOOLEAN_NAME =
  /^(ENABLE|DISABLE|USE|ALLOW|DEBUG|VERBOSE|READ_?ONLY|DRY_?RUN)(_|$)|_(ENABLED|DISABLED|DEBUG|VERBOSE|READ_?ONLY)$/;
const PORT_NAME = /(^|_)PORT$/;
const MS_NAME = /_MS$|MILLIS/;
const NUMBER_NAME =
  /(^|_)(TIMEOUT|SECONDS|LIMIT|MAX|MIN|COUNT|SIZE|RETRIES|TTL|INTERVAL|WORKERS|CONCURRENCY|DEPTH)(_|$)/;
// Over `NAME\ndescription`, multi-line: the name's words end at `_` or the end of its line.
const DIR_TEXT = /(^|_)(DIR|DIRECTORY|FOLDER|ROOT|WORKSPACE|HOME)(_|$)|\b(directory|folder)\b/im;
const PATH_TEXT =
  /(^|_)(PATH|FILE|DIR|DIRECTORY|FOLDER|ROOT|WORKSPACE)(_|$)|\b(path to|file ?path|directory|folder)\b/im;
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASS|CREDENTIALS?)(_|$)/;
const URL_TEXT = /(^|_)(URL|URI|ENDPOINT|DSN|WEBHOOK)(_|$)|\b(url|uri|endpoint)\b/im;
const HOST_NAME = /(^|_)(HOST|HOSTNAME)$/;
const EXAMPLE_URL = /\b([a-z][a-z0-9+.-]{1,20}):\/\/[^\s'"`<>()]+/i;

/** A URL of the kind the variable names, on this machine: the sandbox's fixture page for web addresses. */
function urlFor(text: string): string {
  const example = EXAMPLE_URL.exec(text);
  const web = `http://127.0.0.1:${FIXTURE_PORT}/`;
  // A documented example of another scheme (postgres://…, redis://…) is the best guide to the form.
  if (example && !/^https?$/i.test(example[1] as string)) return example[0];
  if (/postgres/i.test(text)) return 'postgresql://user:password@127.0.0.1:5432/db';
  if (/mysql|mariadb/i.test(text)) return 'mysql://user:password@127.0.0.1:3306/db';
  if (/mongo/i.test(text)) return 'mongodb://127.0.0.1:27017/db';
  if (/redis/i.test(text)) return 'redis://127.0.0.1:6379';
  if (/amqp|rabbit/i.test(text)) return 'amqp://127.0.0.1:5672';
  return web;
}

/** A value for one variable, and what to create for a path. */
export function envPlaceholder(v: Pick<McpEnvVar, 'name'> & Partial<McpEnvVar>): EnvPlaceholder {
  const name = v.name;
  const upper = name.toUpperCase();
  // A key's description says where to get one ("the token from your dashboard URL"), not what it looks like.
  const described = SECRET_NAME.test(upper) ? '' : (v.description ?? '');
  const text = `${upper}\n${described}`;
  if (v.default) return { name, value: v.default, shape: 'default' };
  if (v.choices?.length) return { name, value: v.choices[0] as string, shape: 'choice' };
  if (v.format === 'boolean' || (!v.format && BOOLEAN_NAME.test(upper)))
    return { name, value: 'false', shape: 'boolean' };
  if (PORT_NAME.test(upper)) return { name, value: '9123', shape: 'port' };
  if (v.format === 'number' || NUMBER_NAME.test(upper) || MS_NAME.test(upper)) {
    return { name, value: MS_NAME.test(upper) ? '30000' : '30', shape: 'number' };
  }
  if (v.format === 'filepath' || (!URL_TEXT.test(text) && PATH_TEXT.test(text))) {
    const kind = DIR_TEXT.test(text) && !/\bfile\b/i.test(described) ? 'dir' : 'file';
    const sample = kind === 'file' ? hintedSample(name.toLowerCase(), described) : null;
    const ext = sample ? sample.slice(sample.lastIndexOf('.')) : '';
    const relative = `${ENV_PATHS_DIR}/${name.toLowerCase()}${ext}`;
    return { name, value: `${SANDBOX_WORK}/${relative}`, shape: 'path', create: { kind, relative, sample } };
  }
  if (URL_TEXT.test(text)) return { name, value: urlFor(text), shape: 'url' };
  if (HOST_NAME.test(upper)) return { name, value: '127.0.0.1', shape: 'host' };
  // The registry's placeholder shows the form (https://your-site.example, ghp_…) where nothing above applied.
  if (v.placeholder && !/\s/.test(v.placeholder)) return { name, value: v.placeholder, shape: 'placeholder' };
  if (/(^|_)EMAIL$/.test(upper)) return { name, value: 'verifier@example.com', shape: 'text' };
  if (/(^|_)REGION$/.test(upper)) return { name, value: 'us-east-1', shape: 'text' };
  if (/(^|_)(USER|USERNAME)$/.test(upper)) return { name, value: 'verifier', shape: 'text' };
  return { name, value: PLACEHOLDER_ENV_VALUE, shape: 'text' };
}

/**
 * The variables a server requires: the required ones of logic.mcp.env_vars (with what the registry says of
 * them) and action.requires.env (names only), each once.
 */
export function requiredEnvVars(envVars: McpEnvVar[] = [], requiresEnv: string[] = []): McpEnvVar[] {
  const out = new Map<string, McpEnvVar>();
  for (const v of envVars) if (v.is_required) out.set(v.name, v);
  for (const name of requiresEnv) if (!out.has(name)) out.set(name, { name });
  return [...out.values()];
}
