// The plain-text agent instructions of GET /api/v1/tools/{aid}/instructions: install, execute with its
// placeholders explained, schemas, the telemetry protocol and the canonical link. Offered only for tools
// whose licence permits MIT or Apache-2.0 terms (the document reveals the action block).
import { placeholderNames, servedArgv } from '../../build/model/command.ts';
import type { Requires, SchemaObject, ToolContract } from '../../build/model/contract.ts';
import { permitsInstructions } from '../../build/model/license.ts';
import { verificationText } from '../../build/model/views.ts';
import { CATALOG } from '../messages.ts';
import { DomainError } from './errors.ts';
import { cleanText } from '../../build/model/clean-text.ts';

const PLACEHOLDERS: Record<string, string> = {
  prompt: 'the instruction or text you give the tool',
  model: 'the model name or id to use',
  api_key: 'your own API key for the upstream service (never send it to this catalog)',
  script: 'path to your script file',
  input: 'the input value or file',
  output: 'where to write the result',
  file: 'path to a file',
  path: 'a file or folder path',
  url: 'the URL to work on',
  text: 'the text to work on',
  query: 'your query',
  port: 'a TCP port number',
};

// Plain text, one line per value: contract text loses control characters (no terminal escapes, no fake lines).
const one = (v: unknown) => cleanText(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function schemaLines(s: SchemaObject & { target?: string }): string[] {
  const required = new Set(s.required ?? []);
  const out = [`type: ${one(s.type)}`];
  if (s.target)
    out.push(
      `target: ${s.target === 'stdout' ? 'stdout (the command prints the result)' : `the file {${one(s.target)}}`}`,
    );
  if (s.format) out.push(`format: ${one(Array.isArray(s.format) ? s.format.join(', ') : s.format)}`);
  if (s.description) out.push(`description: ${one(s.description)}`);
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    const bits = [
      p.type ? `${one(p.type)}` : null,
      required.has(name) ? 'required' : 'optional',
      p.role ? `role ${p.role}` : null,
      p.default !== undefined ? `default ${one(p.default)}` : null,
      p.enum ? `one of ${one(p.enum.map(String).join(', '))}` : null,
      p.examples ? `e.g. ${p.examples.map((e) => one(e)).join(' | ')}` : null,
    ];
    out.push(`- ${one(name)} (${bits.filter(Boolean).join(', ')})${p.description ? `: ${one(p.description)}` : ''}`);
  }
  return out;
}

/** One line per placeholder: the contract's own description, role and example, else a generic hint. */
function placeholderLine(c: ToolContract, name: string): string {
  const p = Object.hasOwn(c.logic.input_schema.properties ?? {}, name)
    ? c.logic.input_schema.properties?.[name]
    : undefined;
  if (!p?.description) return `- {${name}}: ${PLACEHOLDERS[name.toLowerCase()] ?? 'a value you supply'}`;
  const example = p.examples?.[0] ?? p.default;
  const kind = [p.role, p.type].filter(Boolean).join(', ');
  return `- {${name}}${kind ? ` (${one(kind)})` : ''}: ${one(p.description)}${example !== undefined ? `; e.g. ${one(example)}` : ''}`;
}

function argvLine(cmd: string | null): string[] {
  const argv = servedArgv(cmd);
  return argv ? [`As argv (no shell; fill placeholders inside each element): ${one(JSON.stringify(argv))}`] : [];
}

function requiresLines(r: Requires | undefined): string[] {
  if (!r) return [];
  const lines = [
    r.network ? '- network: the execute command needs the internet or a server' : null,
    r.env?.length ? `- environment variables (your credentials): ${one(r.env.join(', '))}` : null,
    ...Object.entries(r.runtime ?? {}).map(([name, v]) => `- ${name} ${one(v)}`),
  ].filter((l): l is string => l !== null);
  return lines.length ? ['', '## Requires', ...lines] : [];
}

/** The agent-instructions document of GET /api/v1/tools/{aid}/instructions. */
export function instructionsText(c: ToolContract, baseUrl: string): string {
  const { identity: id, action } = c;
  const names = [
    ...new Set([action.install_cmd, action.execute_cmd].flatMap((cmd) => (cmd ? placeholderNames(cmd) : []))),
  ];
  return [
    `# ${one(id.name)} (${id.aid}): agent instructions`,
    '',
    ...(id.task ? [`Task: ${one(id.task)}`] : []),
    `Platform: ${id.platform}`,
    `Version: ${one(id.version ?? 'unknown')}`,
    `Licence: ${one(id.license)}`,
    `Source: ${one(action.source_url)}`,
    `Verification (sandboxed install and run): ${one(verificationText(c))}`,
    '',
    '## Install',
    action.install_cmd ? one(action.install_cmd) : 'No install command is known yet.',
    ...argvLine(action.install_cmd),
    '',
    '## Execute',
    action.execute_cmd ? one(action.execute_cmd) : 'No execute command is known yet.',
    ...argvLine(action.execute_cmd),
    ...(names.length
      ? ['', 'Placeholders (replace each {name}, braces included):', ...names.map((n) => placeholderLine(c, n))]
      : []),
    ...requiresLines(action.requires),
    '',
    '## Input',
    ...schemaLines(c.logic.input_schema),
    '',
    '## Output',
    ...schemaLines(c.logic.output_schema),
    '',
    '## Telemetry (opt-in)',
    `After using the tool, POST ${baseUrl}/api/v1/tools/${id.aid} with Content-Type: application/json and`,
    '{"execution_feedback": <HTTP-style status of your use: 200 worked, 500 failed>, "trend_keyword": "<your use case, two or more words>"}',
    'Optionally add "validation_vote": "yes" | "no" | "partial" when you know whether it solved your task.',
    '',
    '## Canonical',
    `${baseUrl}/api/v1/tools/${id.aid}`,
    '',
  ].join('\n');
}

/** The instructions of a tool, or `not_found` saying why its licence keeps them back. */
export function instructionsFor(tool: ToolContract, baseUrl: string): string {
  const license = tool.identity.license;
  if (!permitsInstructions(license)) {
    throw new DomainError('not_found', CATALOG.noInstructions(tool.identity.aid, license ? one(license) : null));
  }
  return instructionsText(tool, baseUrl);
}
