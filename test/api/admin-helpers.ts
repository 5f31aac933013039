// Shared by the admin tests: a real test server with ADMIN_SECRET set, and requests that carry it. Each
// test file gives its requests its own X-Forwarded-For address (trustProxy), so the wrong-secret
// lockout of one test never locks out another.
import { startTestServer, type JsonResponse, type TestServer, type TestServerOptions } from '../helpers/server.ts';

export const SECRET = 'test-admin-secret-7f3a9c';

export interface AdminServer extends TestServer {
  /** POST with the admin secret from client `ip`. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field in the tests
  admin<T = any>(
    method: 'GET' | 'POST',
    p: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<JsonResponse<T>>;
}

export async function startAdminServer(
  options: TestServerOptions & { secret?: string | null; ip?: string } = {},
): Promise<AdminServer> {
  const s = await startTestServer({ trustProxy: true, ...options });
  // The helper builds its Config without ADMIN_SECRET; routes read it per request, and restarts reuse it.
  s.running.ctx.config.adminSecret = options.secret === null ? undefined : (options.secret ?? SECRET);
  const ip = options.ip ?? '10.9.0.1';
  const admin: AdminServer['admin'] = (method, p, body, headers = {}) => {
    const h: Record<string, string> = { 'x-admin-secret': SECRET, 'x-forwarded-for': ip, ...headers };
    if (method === 'GET') return s.json(p, { headers: h });
    return s.post(p, body, h);
  };
  return Object.assign(s, { admin });
}

/** Waits until the rebuilds requested so far have finished. */
export const settled = (s: TestServer) => s.running.ctx.rebuild.idle();
