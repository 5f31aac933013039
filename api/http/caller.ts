// Who is asking, read from the request: the rate-limit key (an address, never stored) and the agent class.
import type { H3Event } from 'h3';
import type { AppContext } from '../context.ts';
import type { Caller } from '../services/tools.ts';
import { clientIp, userAgentClassOf } from './client.ts';

export const callerOf = (event: H3Event, ctx: Pick<AppContext, 'client'>): Caller => ({
  ip: clientIp(event, ctx.client),
  agent: userAgentClassOf(event),
});
