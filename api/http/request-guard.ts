// Path hygiene, as h3 middleware in front of every route and the static files: a path that no resource
// of this service can have is refused before any route or file lookup sees it. Every real path is
// short printable ASCII (aids, service names and dist/ file names are [a-z0-9._-]), so encoded NULs and
// control characters, encoded slashes, backslashes and dots, double encoding (%25..), overlong or
// invalid UTF-8, malformed escapes and non-ASCII look-alikes are all tricks, never a resource. (Literal
// dot segments are already resolved by URL parsing before this runs, so they only name paths inside the
// site.) app.ts lets malformed escapes through h3 so that they are refused here, with the usual headers.
import type { Middleware } from 'h3';
import { HTTP } from '../messages.ts';
import { httpError } from './errors.ts';

export const MAX_PATH_LENGTH = 2048;

// %00-%1f and %7f (controls), %25 (double encoding), %2e/%2f/%5c (encoded dot, slash, backslash),
// %80-%ff (non-ASCII, overlong UTF-8), and raw backslashes or characters outside printable ASCII.
const FORBIDDEN = /%(?:[01][0-9a-f]|7f|25|2e|2f|5c|[89a-f][0-9a-f])|\\|[^\x21-\x7e]/i;

/**
 * The answer for a raw (still percent-encoded) path no resource can have, or null when it is fine:
 * 400 for escapes that do not decode, 414 for an overlong path, otherwise 404 (there is no such resource,
 * and the answer does not say which trick was spotted).
 */
export function pathRefusal(pathname: string): { status: number; detail: string } | null {
  if (pathname.length > MAX_PATH_LENGTH) return { status: 414, detail: HTTP.pathTooLong(MAX_PATH_LENGTH) };
  try {
    decodeURIComponent(pathname);
  } catch {
    return { status: 400, detail: HTTP.badRequest };
  }
  // API routes check their ids against strict patterns before any lookup and answer in their own words
  // (`Tool '…' not found`); everything else may end in a file lookup under dist/. The MCP subregistry's
  // server names hold an encoded slash by design (io.github.owner%2Frepo) and never reach dist/.
  if (!pathname.startsWith('/api/') && !pathname.startsWith('/v0.1/') && FORBIDDEN.test(pathname))
    return { status: 404, detail: HTTP.notFound };
  return null;
}

export function requestGuard(): Middleware {
  return (event) => {
    const refusal = pathRefusal(event.url.pathname);
    if (refusal) throw httpError(refusal.status, refusal.detail);
  };
}
