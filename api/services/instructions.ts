// The plain-text agent instructions of GET /api/v1/tools/{aid}/instructions: install, execute with its
// placeholders explained, schemas, the telemetry protocol and the canonical link. Offered only for tools
// whose licence permits MIT or Apache-2.0 terms (the document reveals the action block).
import type { SchemaObject, ToolContract } from '../../build/model/contract.ts';
import { permitsInstructions } from '../../build/model/license.ts';
import { CATALOG } from '../messages.ts';
import { DomainError } from './errors.ts';
import { cleanText } from './tax-payload.ts';

const PLACEHOLDERS: Record<string, string> = {
  prompt: 'the instruction or text you give the tool',
  model: 'the model name or id to use',
  api_key: 'your own API key for the upstream service (never send it to this catalog)',
  script: 'path to your script file',
  input: 'the input value or file', output: 'where to write the result', file: 'path to a file', path: 'a file or folder path',
  url: 'the URL to work on', text: 'the text to work on', query: 'your query', port: 'a TCP port number',
};

// Plain text, one line per value: contract text loses control characters (no terminal escapes, no fake lines).
const one = (v: unknown) => cleanText(typeof v === 'string' ? v : JSON.stringify(v) ?? '');

function schemaLines(s: SchemaObject): string[] {
  const required = new Set(s.required ?? []);
  const out = [`type: ${one(s.type)}`];
  if (s.format) out.push(`format: ${one(Array.isArray(s.format) ? s.format.join(', ') : s.format)}`);
  if (s.description) out.push(`description: ${one(s.description)}`);
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    const bits = [p.type ? `${one(p.type)}` : null, required.has(name) ? 'required' : 'optional',
      p.default !== undefined ? `default ${one(p.default)}` : null, p.enum ? `one of ${one(p.enum.map(String).join(', '))}` : null];
    out.push(`- ${one(name)} (${bits.filter(Boolean).join(', ')})${p.description ? `: ${one(p.description)}` : ''}`);
  }
  return out;
}

/** The agent-instructions document of GET /api/v1/tools/{aid}/instructions. */
export function instructionsText(c: ToolContract, baseUrl: string): string {
  const { identity: id, action } = c;
  const names = [...new Set([...(action.execute_cmd ?? '').matchAll(/\{([A-Za-z_][A-Za-z0-9_]{0,40})\}/g)].map((m) => m[1] ?? ''))];
  return [
    `# ${one(id.name)} (${id.aid}): agent instructions`,
    '',
    ...(id.task ? [`Task: ${one(id.task)}`] : []),
    `Platform: ${id.platform}`, `Version: ${one(id.version ?? 'unknown')}`, `Licence: ${one(id.license)}`, `Source: ${one(action.source_url)}`,
    '', '## Install', action.install_cmd ? one(action.install_cmd) : 'No install command is known yet.',
    '', '## Execute', action.execute_cmd ? one(action.execute_cmd) : 'No execute command is known yet.',
    ...(names.length ? ['', 'Placeholders (replace each {name}, braces included):', ...names.map((n) => `- {${n}}: ${PLACEHOLDERS[n.toLowerCase()] ?? 'a value you supply'}`)] : []),
    '', '## Input', ...schemaLines(c.logic.input_schema),
    '', '## Output', ...schemaLines(c.logic.output_schema),
    '', '## Telemetry (opt-in)',
    `After using the tool, POST ${baseUrl}/api/v1/tools/${id.aid} with Content-Type: application/json and`,
    '{"execution_feedback": <HTTP-style status of your use: 200 worked, 500 failed>, "trend_keyword": "<your use case, two or more words>"}',
    'Optionally add "validation_vote": "yes" | "no" | "partial" when you know whether it solved your task.',
    '', '## Canonical', `${baseUrl}/api/v1/tools/${id.aid}`, '',
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
