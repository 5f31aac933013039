// /agent.json, /.well-known/agent.json and /.well-known/mcp.json, answered live (current counts) instead
// of the copies the build wrote into dist/.
import type { H3 } from 'h3';
import { AGENT_DOCUMENT_PATHS, agentDocument } from '../../build/discovery/agent-document.ts';
import type { AppContext } from '../context.ts';

export function agentRoutes(app: H3, ctx: AppContext) {
  for (const p of AGENT_DOCUMENT_PATHS) {
    app.get(`/${p}`, () => {
      return agentDocument({
        baseUrl: ctx.config.baseUrl,
        toolsCount: ctx.snapshot.tools.length,
        apisCount: ctx.apis.count,
        // The catalog state's time, not the request's: equal answers have equal ETags (http/conditional-get.ts).
        generatedAt: ctx.snapshot.madeAt,
      });
    });
  }
}
