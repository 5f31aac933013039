// The OpenAPI part for the MCP subregistry (GET /v0.1/servers …), merged into the document by document.ts.
// The shapes are the official MCP registry's (ServerList, ServerResponse with server.json inside); the tests
// validate live answers against the official document itself (test/fixtures/mcp-registry/openapi.yaml).
import { OFFICIAL_META_KEY, SUBREGISTRY_META_KEY } from '../services/mcp-server-json.ts';
import { SEARCH_MAX, SUBREGISTRY_LIMIT } from '../services/subregistry.ts';

type Json = Record<string, unknown>;
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('ErrorDetail'), description);
const str = { type: 'string' };
const op = (operationId: string, summary: string, responses: Json, parameters: Json[]) => ({
  operationId,
  tags: ['mcp-registry'],
  summary,
  security: [],
  parameters,
  responses,
});

const includeDeleted = {
  name: 'include_deleted',
  in: 'query',
  required: false,
  schema: { type: 'boolean', default: false },
  description: 'Also list entries whose contract is dead (status deleted).',
};
const serverName = {
  name: 'serverName',
  in: 'path',
  required: true,
  schema: str,
  description: 'The server name, URL-encoded (io.github.owner%2Frepo).',
};

export const subregistryComponentSchemas: Record<string, object> = {
  RegistryServerResponse: {
    type: 'object',
    required: ['server', '_meta'],
    description: 'One server as the official MCP registry serves it: server.json, the registry meta and our evidence.',
    properties: {
      server: {
        type: 'object',
        required: ['name', 'description', 'version', 'packages', 'remotes'],
        description: 'server.json (official schema 2025-12-11): description ≤ 100 characters',
        properties: {
          $schema: str,
          name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
          title: str,
          description: { type: 'string', maxLength: 100 },
          version: str,
          repository: { type: 'object', properties: { url: str, source: str } },
          websiteUrl: str,
          packages: { type: 'array', items: { type: 'object' } },
          remotes: { type: 'array', items: { type: 'object' } },
        },
      },
      _meta: {
        type: 'object',
        properties: {
          [OFFICIAL_META_KEY]: {
            type: 'object',
            required: ['status', 'isLatest'],
            properties: {
              status: { enum: ['active', 'deprecated', 'deleted'] },
              statusMessage: str,
              updatedAt: { type: 'string', format: 'date-time' },
              isLatest: { type: 'boolean' },
            },
          },
          [SUBREGISTRY_META_KEY]: {
            type: 'object',
            description:
              'The catalog contract behind the entry: aid and links, trust and verification evidence, the tools a ' +
              'handshake listed (name, description, inputSchema, sha256 hash, poisoning flags) and recorded changes.',
            required: ['aid', 'contract', 'trust', 'tools'],
            properties: {
              aid: str,
              contract: str,
              page: str,
              trust: { type: 'object' },
              tools: { type: 'array', items: { type: 'object' } },
              tool_changes: { type: 'array', items: { type: 'object' } },
            },
          },
        },
      },
    },
  },
  RegistryServerList: {
    type: 'object',
    required: ['servers', 'metadata'],
    properties: {
      servers: { type: 'array', items: ref('RegistryServerResponse') },
      metadata: {
        type: 'object',
        required: ['count'],
        properties: {
          nextCursor: { type: 'string', description: 'Absent on the last page.' },
          count: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
};

export const subregistryPaths = {
  '/v0.1/servers': {
    get: op(
      'registryListServers',
      'MCP servers of the catalog in the official MCP registry read API (v0.1), by name, a page at a time',
      {
        200: json(ref('RegistryServerList'), 'One page of servers'),
        400: error('Bad cursor, limit, search, updated_since, version or include_deleted'),
      },
      [
        { name: 'cursor', in: 'query', required: false, schema: str, description: 'metadata.nextCursor, unchanged.' },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: {
            type: 'integer',
            minimum: 1,
            maximum: SUBREGISTRY_LIMIT.maximum,
            default: SUBREGISTRY_LIMIT.default,
          },
        },
        {
          name: 'search',
          in: 'query',
          required: false,
          schema: { type: 'string', maxLength: SEARCH_MAX },
          description: 'Case-insensitive substring of the server name.',
        },
        {
          name: 'updated_since',
          in: 'query',
          required: false,
          schema: { type: 'string', format: 'date-time' },
          description: 'RFC 3339; entries updated at or after it, deleted ones included.',
        },
        {
          name: 'version',
          in: 'query',
          required: false,
          schema: str,
          description: "'latest' or one exact version.",
        },
        includeDeleted,
      ],
    ),
  },
  '/v0.1/servers/{serverName}/versions': {
    get: op(
      'registryServerVersions',
      'Every version of one MCP server, newest first',
      {
        200: json(ref('RegistryServerList'), 'The versions'),
        400: error('Bad include_deleted'),
        404: error('Unknown server'),
      },
      [serverName, includeDeleted],
    ),
  },
  '/v0.1/servers/{serverName}/versions/{version}': {
    get: op(
      'registryServerVersion',
      "One version of one MCP server; 'latest' for the latest",
      {
        200: json(ref('RegistryServerResponse'), 'The server'),
        400: error('Bad include_deleted'),
        404: error('Unknown server or version'),
      },
      [
        serverName,
        { name: 'version', in: 'path', required: true, schema: str, description: "URL-encoded version, or 'latest'." },
        includeDeleted,
      ],
    ),
  },
};
