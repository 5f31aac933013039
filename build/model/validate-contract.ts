// Validates one contract object: JSON Schema (ajv, from build/contract.ts) plus the checks a schema
// cannot express (SPDX expressions). Errors are `{path, message}`; callers prefix the file or map to 422.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import parseSpdx from 'spdx-expression-parse';
import { ToolContract } from './contract.ts';
import { commandErrors } from './validate-commands.ts';

export interface FieldError {
  /** JSON Pointer into the contract, e.g. `/action/install_cmd`; `/` for the whole document. */
  path: string;
  message: string;
}

// ajv-formats is CommonJS with a default export; under NodeNext it arrives wrapped.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });
  addFormats(ajv, ['uri', 'date-time', 'email']);
  return ajv;
}

const ajv = createAjv();
const checkSchema = ajv.compile(ToolContract);

// Field-specific wording for pattern failures, keyed by JSON Pointer; other patterns print the regex.
const CONTRACT_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  '/identity/aid': 'must be lowercase letters, digits, ".", "_" or "-", at most 127 characters before the "-v1" suffix',
  '/action/source_url': 'must be an http(s) URL',
};

function describe(error: ErrorObject, patternMessages: Readonly<Record<string, string>>): FieldError {
  const path = error.instancePath || '/';
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const t = p.type;
      return { path, message: `must be ${Array.isArray(t) ? t.join(' or ') : String(t)}` };
    }
    case 'required':
      return { path: `${error.instancePath}/${String(p.missingProperty)}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${error.instancePath}/${String(p.additionalProperty)}`, message: 'unknown field' };
    case 'enum':
      return { path, message: `must be one of ${(p.allowedValues as unknown[]).join(', ')}` };
    case 'pattern':
      return { path, message: patternMessages[path] ?? `must match ${String(p.pattern)}` };
    case 'format':
      return { path, message: p.format === 'uri' ? 'must be an absolute URL' : `must be a ${String(p.format)} string` };
    default:
      return { path, message: error.message ?? 'is invalid' };
  }
}

/**
 * ajv errors as `{path, message}` lines, one per path + message. Shared by every validator built on
 * `createAjv` (contracts, API manifests) so errors read the same everywhere.
 */
export function formatAjvErrors(
  errors: readonly ErrorObject[] | null | undefined,
  patternMessages: Readonly<Record<string, string>> = {},
): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    // anyOf branches repeat each other; keep one line per path + message.
    if (e.keyword === 'anyOf') continue;
    const d = describe(e, patternMessages);
    const key = `${d.path} ${d.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(d);
    }
  }
  return out;
}

function licenseErrors(value: unknown): FieldError[] {
  if (typeof value !== 'string') return [];
  try {
    parseSpdx(value);
    return [];
  } catch {
    return [{ path: '/identity/license', message: `"${value}" is not a valid SPDX license expression` }];
  }
}

export interface ContractChecks {
  /**
   * Also apply the command rules (build/model/validate-commands.ts): `npm run validate` and CI do; loading a
   * catalog and API writes check the schema only, so seeds and accepted command fixes keep loading.
   */
  commands?: boolean;
}

/** All problems with one contract object; an empty array means it is valid. */
export function validateContract(value: unknown, checks: ContractChecks = {}): FieldError[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ path: '/', message: 'must be a JSON object' }];
  }
  const errors: FieldError[] = [];
  if (!checkSchema(value)) errors.push(...formatAjvErrors(checkSchema.errors, CONTRACT_PATTERN_MESSAGES));
  else if (checks.commands) errors.push(...commandErrors(value as ToolContract));
  const identity = (value as { identity?: { license?: unknown } }).identity;
  errors.push(...licenseErrors(identity?.license));
  return errors;
}
