// Every sentence the API says to a caller, in one place: REST error details, FastAPI-style validation
// messages, MCP tool errors. Wording here is part of the interface (clients of the original FastAPI service
// match some of it), so change it deliberately. Values from the request are clipped before they are quoted.

const clip = (s: string, n: number) => s.slice(0, n);

/** FastAPI's own validation wording, kept so existing clients recognise the errors. */
export const VALIDATION = {
  required: 'Field required',
  extra: 'Extra inputs are not permitted',
  notAnObject: 'Input should be a valid dictionary or object',
  notAnInteger: 'Input should be a valid integer, unable to parse string as an integer',
  notABoolean: 'Input should be a valid boolean, unable to interpret input',
  tooLong: (max: number) => `String should have at most ${max} characters`,
  tooShort: (min: number) => `String should have at least ${min} character(s)`,
  atLeast: (min: number) => `Input should be greater than or equal to ${min}`,
  atMost: (max: number) => `Input should be less than or equal to ${max}`,
  oneOf: (list: string) => `Input should be ${list}`,
  oneOfValues: (values: unknown[]) => `Input should be one of ${values.map((v) => `'${String(v)}'`).join(', ')}`,
  ofType: (types: string) => `Input should be ${types.replace(',', ' or ')}`,
  ofFormat: (format: string) => `Input should be a valid ${format}`,
  pattern: (pattern: string) => `String should match pattern '${pattern}'`,
  atMostItems: (max: number) => `List should have at most ${max} items`,
  atLeastItems: (min: number) => `List should have at least ${min} item${min === 1 ? '' : 's'}`,
  invalidValue: 'Invalid value',
  jsonDecode: (reason: string) => `JSON decode error: ${clip(reason, 200)}`,
  trendKeywordWords: 'Value error, trend_keyword must be two or more words',
  duplicateAid: 'Duplicate aid in the batch',
} as const;

export const HTTP = {
  badRequest: 'Bad Request',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  serverError: 'Internal Server Error',
  pathTooLong: (max: number) => `Request path too long: the limit is ${max} characters`,
  bodyTooLarge: (limit: number) => `Request body too large: the limit is ${limit} bytes`,
  bodyIncomplete: 'Request body incomplete: the connection closed before the whole body arrived',
  unsupportedMediaType: (type: string) =>
    `Unsupported Media Type: send the body as application/json (got ${clip(type, 60)})`,
  crossOriginAdmin: 'Cross-origin requests are not allowed on admin routes',
  metricsToken: 'metrics need Authorization: Bearer <METRICS_TOKEN>',
  /** Default details by status, for errors that bring none. */
  defaults: {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    413: 'Request body too large',
    415: 'Unsupported Media Type',
    429: 'Too Many Requests',
    503: 'Service Unavailable',
  } as Record<number, string>,
} as const;

export const CATALOG = {
  toolNotFound: (aid: string) => `Tool '${clip(aid, 140)}' not found in catalog`,
  manifestNotFound: (name: string) => `No compiled manifest for '${clip(name, 100)}'`,
  operationNotFound: (name: string, id: string) =>
    `No operation '${clip(id, 100)}' in ${clip(name, 100)}; list them with GET /api/v1/services/${clip(name, 100)}/operations`,
  noInstructions: (aid: string, license: string | null) =>
    `No agent instructions for '${aid}': ${
      license ? `its licence (${license}) does not permit MIT or Apache-2.0 terms` : 'its licence is unknown'
    }. Instructions are offered for MIT or Apache-2.0 tools only.`,
  reportNotStored: 'Your report could not be stored, so nothing was recorded; please retry later.',
  rateLimited: (s: number) => `Too many requests: retry after ${s} s`,
  writeLockBusy: 'Another instance is writing the catalog; nothing was changed, please retry shortly.',
  notMcpServer: (aid: string) => `'${clip(aid, 140)}' is not an MCP-server contract: it has no tool list to review`,
  nothingToReview: (aid: string) =>
    `'${clip(aid, 140)}' has no open tool-list change or flag to review (trust.status is not review)`,
} as const;

export const ADMIN = {
  disabled: 'admin disabled',
  locked: (s: number) => `Too many wrong admin secrets: retry after ${s} s`,
  secretRequired: 'admin secret required: send it in the X-Admin-Secret header',
  secretWrong: 'wrong admin secret',
  sharedStateDown: 'Admin is unavailable while the shared state (Redis) is unreachable; retry later.',
  noEvidence: 'this telemetry backend keeps no per-client evidence',
  contributionNotFound: (id: string) => `Contribution '${clip(id, 80)}' not found (accepted, rejected or never queued)`,
  queuedContractNotJson: 'the queued contract is not valid JSON; reject it',
  queuedContractOtherAid: 'the queued contract names another aid than its ticket; reject it',
  queuedManifestNotJson: 'the queued manifest is not valid JSON; reject it',
  queuedManifestOtherService: 'the queued manifest names another service than its ticket; reject it',
  suggestionNeedsField: 'This suggestion names no field: send {"field": "install_cmd"} or {"field": "execute_cmd"}',
  manifestChangeQueued: (name: string) =>
    `The same change to ${name} is already waiting for review, or the review queue is full`,
  compileOneSource: 'Send exactly one of url and definition',
  compileUrlHost: (hosts: string[]) => `Unsupported URL: give an https URL on one of ${hosts.join(', ')}`,
  compileFailed: (reason: string) => `cannot be compiled: ${reason}`,
  compileFailedAt: (host: string, reason: string) =>
    `the definition at ${host} cannot be compiled: ${clip(reason, 300)}`,
} as const;

/** POST /admin/verify and its tickets. */
export const VERIFY = {
  oneSelection: 'Send {"aids": [...]}, or {"all": true} and/or {"platform": "npm"}, not both',
  noSelection: 'Say what to verify: {"aids": [...]}, {"all": true} or {"platform": "npm"}',
  unknownAid: (aid: string) => `Tool '${clip(aid, 140)}' not found in catalog`,
  nothingSelected: (platform: string) => `No tool of platform '${platform}' in the catalog`,
  ticketNotFound: (ticket: string) =>
    `Verification ticket '${clip(ticket, 40)}' not found (never issued, or older than a week)`,
  queueDown: 'The verification queue cannot be reached; nothing was queued, retry later.',
} as const;

export const CONTRIBUTE = {
  shape: 'Send {"contract": {...}} or {"aid", "field", "value"}',
  unknownAid: (aid: string) => `Tool '${aid}' is not in the catalog; propose a whole contract instead`,
  duplicate: 'An identical contribution is already waiting for review, or the review queue is full; nothing was added.',
} as const;

export const TRANSLATE = {
  unsupportedUrl:
    'Unsupported URL: give a GitHub repository, a PyPI project, an npm package, an MCP registry server ' +
    '(/v0.1/servers/<name>/versions/<version|latest>), or a contract URL (/api/v1/tools/<aid>) on an allowed peer catalog',
  notAContract: (kind: string, reason: string) =>
    `the ${kind} source does not make a valid contract: ${clip(reason, 300)}`,
} as const;

export const MCP = {
  unknownTool: (name: string) => `Unknown tool: ${clip(name, 100)}. Call tools/list for the tools of this server.`,
  invalidParams: (issues: string[]) => `Invalid params: ${issues.join('; ')}`,
  invalidCursor: 'Invalid cursor: pass the nextCursor of the previous page unchanged',
  invalidArguments: (clauses: string[]) => `Invalid arguments: ${clauses.join('; ')}`,
  toolFailed: (tool: string) => `${tool} failed on the server; nothing was changed. Please retry later.`,
} as const;

/** The MCP subregistry (GET /v0.1/servers …): 400s in the problem format the rest of the API uses. */
export const SUBREGISTRY = {
  badLimit: (max: number) => `limit must be an integer from 1 to ${max}`,
  badCursor: 'cursor is not one this registry returned: pass metadata.nextCursor of the previous page unchanged',
  badUpdatedSince: 'updated_since must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z',
  badVersion:
    "version must be 'latest' or one exact version (at most 255 printable characters); ranges such as ^1.2 or 1.x are not versions",
  badSearch: (max: number) => `search must be at most ${max} characters`,
  badIncludeDeleted: "include_deleted must be 'true' or 'false'",
  serverNotFound: (name: string) => `Server '${clip(name, 200)}' not found`,
  versionNotFound: (name: string, version: string) =>
    `Server '${clip(name, 200)}' has no version '${clip(version, 100)}'; list them with GET /v0.1/servers/{serverName}/versions`,
  statusReview:
    'Under review: its tool list changed since an earlier verification (see the catalog meta for the changes)',
  statusDegraded: 'Degraded: its last sandboxed verification failed or its reliability dropped',
} as const;
