// POST /mcp: the Model Context Protocol endpoint (Streamable HTTP, stateless: a fresh server and transport per
// request, JSON responses, no sessions), and the server cards. GET and DELETE /mcp get the app's 405 with
// Allow: a stateless server offers no SSE stream and has no session to end. CORS is the app's middleware's.
// No Origin check: everything here is public catalog data and no request carries credentials, so a page a
// browser visits can do nothing through this endpoint it could not do through the REST API.
import type { H3 } from 'h3';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.ts';
import type { AppContext } from '../context.ts';
import { createMcpServer } from '../mcp/server.ts';
import { SERVER_CARD_PATHS, SERVER_CARD_V2_PATH, serverCard, serverCardV2 } from '../mcp/server-card.ts';
import { callerOf } from '../http/caller.ts';

const jsonRpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export function mcpRoutes(app: H3, ctx: AppContext) {
  app.post('/mcp', async (event) => {
    const server = createMcpServer(ctx, callerOf(event, ctx));
    // The REST API's body limit; the transport answers 413 with a JSON-RPC error before parsing anything.
    const transport = new WebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
      maxRequestBodySize: DEFAULT_BODY_LIMIT,
    });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(event.req);
      // A streamed body over the limit was read part-way: drop the rest, as readJsonBody does. A declared
      // Content-Length over the limit was never read and is left to Node, again as on the REST routes.
      if (res.status === 413 && !event.req.headers.has('content-length'))
        await event.req.body?.cancel().catch(() => undefined);
      return res;
    } catch (error) {
      console.error('mcp: request failed:', error);
      return jsonRpcError(500, -32603, 'Internal error');
    } finally {
      await server.close().catch(() => undefined);
    }
  });

  // Both cards only depend on configuration: build them once.
  const card = serverCard(ctx.config.baseUrl);
  const cardV2 = serverCardV2(ctx.config.baseUrl);
  const cached = (event: { res: { headers: Headers } }) =>
    event.res.headers.set('cache-control', 'public, max-age=3600');
  for (const p of SERVER_CARD_PATHS) {
    app.get(p, (event) => {
      cached(event);
      return card;
    });
  }
  app.get(SERVER_CARD_V2_PATH, (event) => {
    cached(event);
    return cardV2;
  });
}
