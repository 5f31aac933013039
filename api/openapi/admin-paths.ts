// The OpenAPI part for admin writes and contributions (merged into the document by routes/openapi.ts).
// Request bodies are the TypeBox schemas the routes validate with; admin operations carry the
// X-Admin-Secret security scheme.
import { ApiManifest as ApiManifestFile } from '../../build/apis/manifest.ts';
import {
  AcceptRequest,
  CompileApiRequest,
  ContributionRequest,
  McpReviewedRequest,
  TranslateRequest,
  UpdateTrustRequest,
  VerifyRequest,
} from '../services/requests.ts';

type Json = Record<string, unknown>;
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('ErrorDetail'), description);
const invalid = json(
  ref('HTTPValidationError'),
  'Validation error: each bad field, loc ["body", ...JSON pointer segments]',
);
const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };
const retry = { headers: { 'Retry-After': { schema: { type: 'integer' } } } };

export const ADMIN_SECURITY_SCHEMES = {
  adminSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Admin-Secret',
    description: 'The ADMIN_SECRET of the server; compared in constant time.',
  },
};

const auth = {
  401: error('No X-Admin-Secret header'),
  403: error('Wrong admin secret'),
  429: { ...error('10 wrong secrets from this client within a minute: locked out until Retry-After'), ...retry },
  503: error('Admin disabled: ADMIN_SECRET is not set ({"detail": "admin disabled"})'),
};

export const adminComponentSchemas: Record<string, object> = {
  IngestRequest: {
    title: 'IngestRequest',
    description:
      'A complete contract in the catalog file format (record optional), or the same wrapped as {"contract": ...}.',
    oneOf: [
      ref('ToolContract'),
      {
        type: 'object',
        properties: { contract: ref('ToolContract') },
        required: ['contract'],
        additionalProperties: false,
      },
    ],
  },
  IngestResult: {
    type: 'object',
    required: ['status', 'aid', 'created'],
    properties: { status: { const: 'ok' }, aid: str, created: { type: 'boolean' } },
  },
  TranslateRequest,
  TranslateResult: {
    type: 'object',
    required: ['status', 'aid', 'created', 'source', 'contract'],
    properties: {
      status: { const: 'ok' },
      aid: str,
      created: { type: 'boolean' },
      source: { enum: ['github', 'pypi', 'npm', 'peer'] },
      contract: ref('ToolContract'),
    },
  },
  UpdateTrustRequest,
  McpReviewedRequest,
  McpReviewedResult: {
    type: 'object',
    required: ['status', 'aid', 'trust_status', 'reviewed_at', 'latest_change'],
    properties: {
      status: { const: 'ok' },
      aid: str,
      trust_status: str,
      reviewed_at: { type: 'string', format: 'date-time' },
      latest_change: { oneOf: [ref('McpToolChange'), { type: 'null' }] },
    },
  },
  UpdateTrustResult: {
    type: 'object',
    required: ['status', 'updated', 'unknown', 'calculated_at'],
    properties: {
      status: { const: 'ok' },
      updated: int,
      unknown: { type: 'array', items: str },
      calculated_at: { type: 'string', format: 'date-time' },
    },
  },
  ContributionRequest,
  ContributionTicket: {
    type: 'object',
    required: ['status', 'ticket', 'kind', 'aid'],
    properties: { status: { const: 'queued' }, ticket: str, kind: { enum: ['contract', 'fix'] }, aid: str, note: str },
  },
  Contribution: {
    type: 'object',
    required: ['id', 'aid', 'kind', 'submitted_at', 'status'],
    properties: {
      id: str,
      aid: str,
      kind: { enum: ['micro_translation', 'fix', 'contract', 'api'] },
      field: { enum: ['install_cmd', 'execute_cmd', null] },
      value: str,
      contract: {},
      manifest: {},
      operations_count: { type: 'integer', description: 'Recipes queued with an API manifest.' },
      note: str,
      agent: str,
      submitted_at: { type: 'string', format: 'date-time' },
      status: { const: 'pending' },
    },
  },
  AcceptRequest,
  CompileApiRequest,
  ApiManifestFile,
  // A manifest file, and its recipes beside its own fields when they come with it.
  ApiIngestRequest: {
    ...ApiManifestFile,
    title: 'ApiIngestRequest',
    properties: {
      ...ApiManifestFile.properties,
      operations: {
        type: 'array',
        minItems: 1,
        items: ref('Recipe'),
        description:
          'Its operation recipes (the `operations` of catalog/apis/operations/<service_name>.json.gz), a recipe for every intent; absent: the stored recipes stay.',
      },
    },
  },
  ApiWriteResult: {
    oneOf: [
      {
        type: 'object',
        required: ['status', 'service_name', 'created', 'manifest'],
        properties: {
          status: { const: 'ok' },
          service_name: str,
          created: { type: 'boolean' },
          manifest: ref('ApiManifestFile'),
        },
      },
      {
        type: 'object',
        required: ['status', 'service_name', 'ticket', 'changes'],
        properties: {
          status: { const: 'queued' },
          service_name: str,
          ticket: str,
          changes: { type: 'array', items: str },
        },
      },
    ],
  },
  VerifyRequest,
  VerifyQueued: {
    type: 'object',
    required: ['status', 'ticket', 'aids', 'queued', 'status_url'],
    properties: {
      status: { const: 'queued' },
      ticket: str,
      aids: { ...int, description: 'Tools the ticket follows.' },
      queued: { ...int, description: 'New jobs; the other aids were already waiting and share their job.' },
      status_url: str,
    },
  },
  VerifyTicket: {
    type: 'object',
    required: ['ticket', 'reason', 'created_at', 'state', 'counts', 'jobs'],
    properties: {
      ticket: str,
      reason: { enum: ['import', 'ingest', 'accept', 'admin', 'schedule'] },
      created_at: { type: 'string', format: 'date-time' },
      state: { enum: ['queued', 'running', 'done'] },
      counts: { type: 'object', additionalProperties: int },
      jobs: {
        type: 'array',
        items: {
          type: 'object',
          required: ['aid', 'state', 'attempts'],
          properties: {
            aid: str,
            state: { enum: ['queued', 'running', 'done', 'failed', 'unknown'] },
            attempts: int,
            outcome: {
              type: 'object',
              required: ['status', 'reason', 'checked_at'],
              properties: {
                status: { enum: ['passed', 'failed', 'unverifiable'] },
                level: { enum: ['runs', 'loads'] },
                reason: str,
                checked_at: { type: 'string', format: 'date-time' },
                write_error: str,
              },
            },
            error: str,
          },
        },
      },
    },
  },
  RebuildStatus: {
    type: 'object',
    required: ['running', 'queued', 'builds', 'failures'],
    properties: {
      running: { type: 'boolean' },
      queued: int,
      builds: int,
      failures: int,
      last: { type: ['object', 'null'] },
      last_error: { type: ['string', 'null'] },
    },
  },
};

const admin = (operationId: string, summary: string, responses: Json, extra: Json = {}) => ({
  operationId,
  tags: ['admin'],
  summary,
  security: [{ adminSecret: [] }],
  ...extra,
  responses: { ...responses, ...auth },
});
const body = (name: string, limit: string) => ({
  requestBody: {
    required: true,
    description: `JSON, at most ${limit}.`,
    content: { 'application/json': { schema: ref(name) } },
  },
});
const idParam = {
  parameters: [
    {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^[a-z0-9-]{1,64}$' },
      description: 'The ticket id.',
    },
  ],
};

const ticketParam = {
  parameters: [
    {
      name: 'ticket',
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^[a-z0-9]{6,16}-[a-f0-9]{8}$' },
      description: 'The ticket POST …/verify answered.',
    },
  ],
};

/** POST /api/v1/admin/verify and its ticket; `/admin/verify` is the same beside the other admin routes. */
function verifyPaths(base: string, suffix: string) {
  return {
    [base]: {
      post: admin(
        `verify${suffix}`,
        'Queue tools for verification in the sandbox (run by npm run verify:worker processes, never by the server)',
        {
          202: json(ref('VerifyQueued'), 'Queued; follow the ticket'),
          413: error('Body over 1.5 MB'),
          415: error('Body is not JSON'),
          422: invalid,
        },
        body('VerifyRequest', '1.5 MB'),
      ),
    },
    [`${base}/{ticket}`]: {
      get: admin(
        `verifyTicket${suffix}`,
        'Progress of a verification ticket: each aid queued, running, done (with its outcome) or failed',
        { 200: json(ref('VerifyTicket'), 'Status'), 404: error('No such ticket (or older than a week)') },
        ticketParam,
      ),
    },
  };
}

export const adminPaths = {
  ...verifyPaths('/api/v1/admin/verify', ''),
  ...verifyPaths('/admin/verify', 'Admin'),
  '/api/v1/ingest': {
    post: admin(
      'ingest',
      'Store a pre-built contract (replaces the stored one whole); the API shows it at once, the static site after a rebuild',
      {
        200: json(ref('IngestResult'), 'Stored'),
        413: error('Body over 1 MB'),
        415: error('Body is not JSON'),
        422: invalid,
      },
      body('IngestRequest', '1 MB'),
    ),
  },
  '/api/v1/translate': {
    post: admin(
      'translate',
      'Build a contract from a GitHub repository, PyPI project, npm package, MCP registry server or a peer catalog contract URL, and store it',
      {
        200: json(ref('TranslateResult'), 'Stored'),
        404: error('The upstream has no such repository, project, package or contract'),
        422: invalid,
        502: error(
          'The upstream is down, slow (10 s), too large (5 MB), redirected elsewhere, or gave data that makes no valid contract',
        ),
      },
      body('TranslateRequest', '64 KB'),
    ),
  },
  '/admin/apis/compile': {
    post: admin(
      'compileApi',
      "Compile one OpenAPI 2.0/3.x definition (by url on an allowed host, or posted) into an API manifest and its operation recipes and store them; a change of a verified manifest's base_url or auth is queued for review instead",
      {
        200: json(
          ref('ApiWriteResult'),
          'Stored; the services search shows it at once, the static site after a rebuild',
        ),
        202: json(ref('ApiWriteResult'), 'Queued for review (accept with POST /admin/contributions/{id}/accept)'),
        404: error('The definition host has no such file'),
        409: error('The same change is already queued, or the queue is full'),
        413: error('Body over 5 MB'),
        415: error('Body is not JSON'),
        422: invalid,
        502: error(
          'The definition host is down, slow (10 s), too large (5 MB), redirected elsewhere, or its definition cannot be compiled',
        ),
      },
      body('CompileApiRequest', '5 MB'),
    ),
  },
  '/admin/apis/ingest': {
    post: admin(
      'ingestApi',
      "Store a ready API manifest file (catalog/apis format, validated), with its operation recipes under `operations` or without (the stored ones stay); a change of a verified manifest's base_url or auth is queued for review instead",
      {
        200: json(ref('ApiWriteResult'), 'Stored'),
        202: json(ref('ApiWriteResult'), 'Queued for review'),
        409: error('The same change is already queued, or the queue is full'),
        413: error('Body over 8 MB'),
        415: error('Body is not JSON'),
        422: invalid,
      },
      body('ApiIngestRequest', '8 MB'),
    ),
  },
  '/admin/update-trust': {
    post: admin(
      'updateTrust',
      'Set reliability_score (and record.reliability_calculated_at) for up to 10,000 tools; nothing else changes',
      {
        200: json(ref('UpdateTrustResult'), 'Applied; unknown aids listed'),
        413: error('Body over 2 MB'),
        422: invalid,
      },
      body('UpdateTrustRequest', '2 MB'),
    ),
  },
  '/admin/mcp-reviewed': {
    post: admin(
      'mcpReviewed',
      "Mark an MCP server's tool-list changes and poisoning flags reviewed: trust.status review becomes active",
      {
        200: json(ref('McpReviewedResult'), 'Reviewed'),
        404: error('No such tool'),
        409: error('Not an MCP-server contract, or nothing open to review'),
        413: error('Body over 1 MB'),
        415: error('Body is not JSON'),
        422: invalid,
      },
      body('McpReviewedRequest', '1 MB'),
    ),
  },
  '/admin/trust-evidence': {
    get: admin('trustEvidence', 'Telemetry evidence per tool, counted per distinct client (read by npm run trust)', {
      200: json({ type: 'object' }, 'Evidence'),
      501: error('Telemetry backend without per-client evidence'),
    }),
  },
  '/admin/rebuild': {
    get: admin('rebuildStatus', 'State of the live rebuilds of the static site', {
      200: json(ref('RebuildStatus'), 'Status'),
    }),
  },
  '/admin/contributions': {
    get: admin('listContributions', 'Contributions and micro_translations waiting for review, oldest first', {
      200: json(
        {
          type: 'object',
          required: ['count', 'contributions'],
          properties: { count: int, contributions: { type: 'array', items: ref('Contribution') } },
        },
        'The queue',
      ),
    }),
  },
  '/admin/contributions/{id}/accept': {
    post: admin(
      'acceptContribution',
      'Apply a contribution like an ingest (a fix or micro_translation sets one command field)',
      {
        200: json({ type: 'object' }, 'Applied and removed from the queue'),
        404: error('No such ticket'),
        409: error('The queued contract names another aid'),
        422: invalid,
      },
      {
        ...idParam,
        requestBody: { required: false, content: { 'application/json': { schema: ref('AcceptRequest') } } },
      },
    ),
  },
  '/admin/contributions/{id}/reject': {
    post: admin(
      'rejectContribution',
      'Drop a contribution',
      { 200: json({ type: 'object' }, 'Removed'), 404: error('No such ticket') },
      idParam,
    ),
  },
  '/api/v1/contribute': {
    get: {
      operationId: 'contributeGuide',
      tags: ['contribute'],
      security: [],
      summary: 'How to contribute: pull request, schema URL, validator, this API',
      responses: { 200: json({ type: 'object' }, 'The guide') },
    },
    post: {
      operationId: 'contribute',
      tags: ['contribute'],
      security: [],
      summary: 'Propose a contract or a command fix; queued for review, never published before an admin accepts it',
      ...body('ContributionRequest', '256 KB'),
      responses: {
        202: json(ref('ContributionTicket'), 'Queued'),
        409: error('An identical contribution is pending, or the queue is full'),
        413: error('Body over 256 KB'),
        415: error('Body is not JSON'),
        422: invalid,
        429: { ...error('Too many contributions from this client (about 10 per hour)'), ...retry },
      },
    },
  },
};
