// GET /api/v1/contribute (how to contribute) and POST /api/v1/contribute (a proposed contract or a command
// fix, queued for review: 202 + ticket). Nothing an anonymous caller sends reaches the catalog until an admin
// accepts it (routes/admin.ts).
import type { H3 } from 'h3';
import type { AppContext } from '../context.ts';
import { readJsonBody } from '../http/body.ts';
import { clientIp, userAgentClassOf } from '../http/client.ts';
import { contribute, contributionGuide } from '../services/contributions.ts';
import { CONTRIBUTE_BODY_LIMIT } from '../services/requests.ts';
import { enforce } from '../state/rate-limit/enforce.ts';

export function contributeRoutes(app: H3, ctx: AppContext) {
  app.get('/api/v1/contribute', () => contributionGuide(ctx.config.baseUrl));

  app.post('/api/v1/contribute', async (event) => {
    await enforce(ctx.contributeLimiter, clientIp(event, ctx.client));
    const body = await readJsonBody(event, { limit: CONTRIBUTE_BODY_LIMIT });
    const answer = await contribute(ctx, body, userAgentClassOf(event));
    event.res.status = 202;
    return answer;
  });
}
