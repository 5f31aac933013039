// The agent discovery document served at /agent.json, /.well-known/agent.json and /.well-known/mcp.json.
export interface AgentDocumentInput {
  baseUrl: string;
  toolsCount: number;
  apisCount: number;
  generatedAt: string;
}

export const SERVICE_NAME = 'Tool Contract Catalog';
/** The tools of the MCP endpoint (api/mcp implements exactly these). */
export const MCP_TOOL_NAMES = [
  'search_tools',
  'get_tool',
  'report_outcome',
  'get_trending',
  'search_apis',
  'get_api_manifest',
  'search_api_operations',
  'get_api_operation',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];
export const SERVICE_DESCRIPTION =
  'A public catalog of machine-readable contracts for installable tools (GitHub, PyPI, npm) and compiled manifests of web APIs. Search by intent, fetch one contract by aid, report back whether it worked.';

export function agentDocument({ baseUrl, toolsCount, apisCount, generatedAt }: AgentDocumentInput) {
  const ep = (method: string, path: string, description: string) => ({
    method,
    path,
    url: `${baseUrl}${path}`,
    description,
  });
  return {
    schema_version: '1.0',
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    url: `${baseUrl}/`,
    version: '1.0.0',
    tools_count: toolsCount,
    apis_count: apisCount,
    generated_at: generatedAt,
    endpoints: [
      ep(
        'GET',
        '/api/v1/tools?q={query}&category={platform}',
        'Search tool contracts by keyword or intent; at most 10 results, no action block.',
      ),
      ep('GET', '/api/v1/tools/trending?limit={1-20}', 'Top tools by reliability_score.'),
      ep('GET', '/api/v1/tools/{aid}', 'One contract with action withheld, plus how to unlock it.'),
      ep(
        'POST',
        '/api/v1/tools/{aid}',
        'Send a tax_payload (execution_feedback, trend_keyword) to receive the full contract with action.',
      ),
      ep('GET', '/api/v1/tools/{aid}/instructions', 'Plain-text agent instructions for MIT or Apache-2.0 tools.'),
      ep('GET', '/api/v1/services/search?q={query}', 'Search compiled web-API manifests by intent.'),
      ep('GET', '/api/v1/services/{service_name}/mai-api.json', 'One compiled web-API manifest.'),
      ep('GET', '/api/v1/search?q={query}', 'Unified search over tools and APIs.'),
      ep('GET', '/api/v1/contribute', 'How to contribute a contract.'),
      ep('POST', '/mcp', 'Model Context Protocol endpoint (Streamable HTTP).'),
      ep(
        'GET',
        '/v0.1/servers?cursor={cursor}&limit={1-100}&search={name}&updated_since={rfc3339}&version={latest}',
        'The MCP servers of the catalog in the official MCP registry read API (v0.1), with verification evidence.',
      ),
      ep('GET', '/health', 'Service health and catalog counts.'),
    ],
    mcp: {
      endpoint: `${baseUrl}/mcp`,
      transport: 'streamable-http',
      tools: [...MCP_TOOL_NAMES],
      server_card: `${baseUrl}/.well-known/mcp/server-card.json`,
    },
    links: {
      llms_txt: `${baseUrl}/llms.txt`,
      sitemap: `${baseUrl}/sitemap.xml`,
      openapi: `${baseUrl}/openapi.json`,
      html_index: `${baseUrl}/`,
      search_page: `${baseUrl}/search/`,
      apis_index: `${baseUrl}/llmo-apis`,
      apis_page: `${baseUrl}/mai-api`,
    },
  };
}

export const AGENT_DOCUMENT_PATHS = ['agent.json', '.well-known/agent.json', '.well-known/mcp.json'] as const;
