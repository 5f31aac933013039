// GET /api/v1/tools (search or top list), GET /api/v1/tools/trending, GET /api/v1/tools/{aid} (partial
// contract), POST /api/v1/tools/{aid} (the tax gate and telemetry), GET /api/v1/tools/{aid}/instructions
// (plain-text agent instructions, permissive licences only). The work is in services/tools.ts, shared with MCP.
import { getRouterParam, type H3, type H3Event } from 'h3';
import { CONTRACT_KINDS, PLATFORMS } from '../../build/model/contract.ts';
import { HELD_INPUT_ROLES } from '../../build/model/input-roles.ts';
import type { AppContext } from '../context.ts';
import { readJsonBody } from '../http/body.ts';
import { callerOf } from '../http/caller.ts';
import { boolQuery, enumQuery, formatsQuery, intQuery, listQuery, textQuery } from '../http/query.ts';
import { LIMIT, MAX_HELD_INPUTS } from '../services/requests.ts';
import { instructionsFor } from '../services/instructions.ts';
import { lookUp, taxGate, toolByAid, toolListJson, trendingListJson } from '../services/tools.ts';

const JSON_TYPE = 'application/json;charset=UTF-8';

function jsonText(event: H3Event, text: string): string {
  event.res.headers.set('content-type', JSON_TYPE);
  return text;
}

export function toolRoutes(app: H3, ctx: AppContext) {
  const toolOf = (event: H3Event) => toolByAid(ctx, getRouterParam(event, 'aid') ?? '');

  app.get('/api/v1/tools', (event) => {
    const q = textQuery(event, 'q', { required: false });
    const category = enumQuery(event, 'category', PLATFORMS);
    const kind = enumQuery(event, 'kind', CONTRACT_KINDS);
    const inputs = listQuery(event, 'inputs', HELD_INPUT_ROLES, MAX_HELD_INPUTS);
    const formats = formatsQuery(event, 'formats', MAX_HELD_INPUTS);
    const offline = boolQuery(event, 'offline');
    return toolListJson(ctx, q, { category, kind, inputs, formats, offline }, callerOf(event, ctx)).then((text) =>
      jsonText(event, text),
    );
  });

  app.get('/api/v1/tools/trending', (event) =>
    trendingListJson(ctx, intQuery(event, 'limit', LIMIT)).then((text) => jsonText(event, text)),
  );

  app.get('/api/v1/tools/:aid', (event) => lookUp(ctx, toolOf(event), callerOf(event, ctx)));

  app.post('/api/v1/tools/:aid', async (event) => {
    const tool = toolOf(event);
    const result = await taxGate(ctx, tool, callerOf(event, ctx), () => readJsonBody(event));
    if (!result.paid) event.res.status = 402;
    return result.contract;
  });

  app.get('/api/v1/tools/:aid/instructions', (event) => {
    const text = instructionsFor(toolOf(event), ctx.config.baseUrl);
    return new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
}
