// Who is asking: the client address (for rate limits only, never stored) and a coarse user-agent class
// (stored with telemetry instead of the raw header, which can identify people).
import { getRequestIP, type H3Event } from 'h3';
import { agentClass } from '../services/agent-class.ts';

export interface ClientOptions {
  /** Trust the first X-Forwarded-For hop; only behind a proxy that overwrites it (TRUST_PROXY=1). */
  trustProxy: boolean;
}

export function clientIp(event: H3Event, options: ClientOptions): string {
  return getRequestIP(event, { xForwardedFor: options.trustProxy }) ?? 'unknown';
}

export const userAgentClassOf = (event: H3Event) => agentClass(event.req.headers.get('user-agent'));
