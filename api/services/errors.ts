// Domain errors: what went wrong, in the catalog's terms. Services, state and writes throw these; the HTTP
// layer (api/http/errors.ts) and MCP (api/mcp/results.ts) each turn them into their own answers in one
// table, so no service knows about status codes and both ways in word a problem the same.
import type { FieldError } from '../../build/model/validate-contract.ts';
import { UpstreamError } from '../../build/translate/upstream-error.ts';

/** One problem with one input, in FastAPI's HTTPValidationError item shape. */
export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export type Problem =
  | 'invalid' // the input breaks a rule: the caller fixes it (one or more items)
  | 'bad_request' // a malformed request to an interface whose clients expect 400, not 422 (the MCP subregistry)
  | 'not_found' // no such tool, manifest, contribution …
  | 'conflict' // the same change is already queued, or a ticket no longer matches
  | 'rate_limited' // too many requests: retry after `retryAfterS`
  | 'unavailable' // storage or shared state cannot be reached: nothing changed, retry after `retryAfterS`
  | 'upstream' // a registry or peer this service asked answered badly
  | 'unsupported' // this deployment cannot do it (e.g. a backend without evidence)
  | 'disabled' // the feature is switched off by configuration
  | 'unauthenticated' // no credential
  | 'forbidden'; // a wrong credential

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly problem: Problem;
  /** A sentence for the caller, or validation items for `invalid`. */
  readonly detail: string | ValidationItem[];
  /** For `rate_limited` and `unavailable`: when a retry may succeed. */
  readonly retryAfterS: number | undefined;
  constructor(problem: Problem, detail: string | ValidationItem[], retryAfterS?: number) {
    super(typeof detail === 'string' ? detail : detail.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.problem = problem;
    this.detail = detail;
    this.retryAfterS = retryAfterS;
  }
}

/** Where an input came from, as the first elements of its items' `loc` (['body'], ['body', 'contract']). */
export type Loc = (string | number)[];

/** A contract or manifest that fails validation: every problem as an item under `at`. */
export class ContractInvalidError extends DomainError {
  readonly errors: FieldError[];
  constructor(errors: FieldError[], at: Loc) {
    super(
      'invalid',
      errors.map((e) => ({ loc: [...at, ...pointerSegments(e.path)], msg: e.message, type: 'value_error' })),
    );
    this.errors = errors;
    // Quoted when the data came from an upstream (translate, compile): JSON Pointers, as the validator says them.
    this.message = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
  }
}

export const invalidItems = (items: ValidationItem[]): DomainError => new DomainError('invalid', items);

/** One invalid input: `invalid('query', 'limit', 'must be …', 'int_parsing')`. */
export function invalid(
  where: 'query' | 'path' | 'body' | 'header' | 'contribution',
  field: string | (string | number)[] | null,
  msg: string,
  type = 'value_error',
): DomainError {
  const loc = field === null ? [where] : [where, ...(Array.isArray(field) ? field : [field])];
  return invalidItems([{ loc, msg, type }]);
}

/** `/identity/tags/0` → ['identity', 'tags', 0] (JSON Pointer unescaped; array indexes as numbers). */
export function pointerSegments(pointer: string): (string | number)[] {
  return pointer
    .split('/')
    .slice(1)
    .filter((s) => s !== '')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d{0,8})$/.test(s) ? Number(s) : s));
}

/** An upstream failure from build/translate as the domain error of the same problem (404 / 502); anything else as is. */
export function fromUpstream(error: unknown): unknown {
  return error instanceof UpstreamError ? new DomainError(error.problem, error.message) : error;
}
