// Pre-connection discovery of the MCP endpoint. Two drafts are in use, so both are served:
// - /.well-known/mcp/server-card.json: the SEP-1649 card (serverInfo, transport, capabilities, tools with
//   input schemas), what crawlers and agent-readiness checkers look for today;
// - /mcp/server-card: the SEP-2127 card (the server.json shape: name, version, remotes), which superseded it
//   and reserves `<streamable-http-url>/server-card`.
// The registry entry (server.json at the repository root) carries the same identity; a test keeps them equal.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_DESCRIPTION } from '../../build/discovery/agent-document.ts';
import { INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './server.ts';
import { MCP_TOOLS } from './tools.ts';

/** The name in the official MCP registry (io.github.<org> namespaces are verified through GitHub). */
export const REGISTRY_NAME = 'io.github.tool-contract-catalog/catalog';
/** At most 100 characters (registry and SEP-2127 limit). */
export const REGISTRY_DESCRIPTION =
  'Search tool contracts (GitHub, PyPI, npm) and web-API manifests; get install and run commands.';

export const SERVER_CARD_PATHS = ['/.well-known/mcp/server-card.json', '/.well-known/mcp/server-card'] as const;
export const SERVER_CARD_V2_PATH = '/mcp/server-card';

export function serverCard(baseUrl: string) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
    version: '1.0',
    protocolVersion: LATEST_PROTOCOL_VERSION,
    serverInfo: { ...SERVER_INFO, websiteUrl: `${baseUrl}/` },
    description: SERVICE_DESCRIPTION,
    transport: { type: 'streamable-http', url: `${baseUrl}/mcp` },
    supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    capabilities: SERVER_CAPABILITIES,
    instructions: INSTRUCTIONS,
    authentication: { required: false },
    tools: MCP_TOOLS.map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      annotations,
    })),
    resources: ['dynamic'],
    prompts: [],
  };
}

export function serverCardV2(baseUrl: string) {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
    name: REGISTRY_NAME,
    version: SERVER_INFO.version,
    description: REGISTRY_DESCRIPTION,
    title: SERVER_INFO.title,
    websiteUrl: `${baseUrl}/`,
    remotes: [
      {
        type: 'streamable-http' as const,
        url: `${baseUrl}/mcp`,
        supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
  };
}
