// How to authenticate, from the definition's security schemes (3.x `components.securitySchemes`,
// 2.0 `securityDefinitions`).
//
// Which scheme: the first of the top-level `security` requirement (the API's default); without one, the
// first requirement of any operation in document order (per-operation security is common in converted
// definitions); without any, the first declared scheme; with no schemes at all, `none`. An empty
// requirement (`{}`) first in the list means anonymous access is allowed, so `none`.
import type { Auth } from './manifest.ts';
import { isObject, type Json, type Resolver } from './refs.ts';

function schemesOf(doc: Json, r: Resolver): Json {
  const components = r.deref(doc.components);
  const schemes = r.deref(components?.securitySchemes) ?? r.deref(doc.securityDefinitions);
  return schemes ?? {};
}

/** The scheme names of the first requirement in a `security` array; [] for anonymous; undefined if absent. */
function firstRequirement(security: unknown): string[] | undefined {
  if (!Array.isArray(security) || security.length === 0) return undefined;
  const first = security[0];
  return isObject(first) ? Object.keys(first) : undefined;
}

function operationRequirement(doc: Json, r: Resolver): string[] | undefined {
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const raw of Object.values(paths)) {
    const item = r.deref(raw);
    if (!item) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = r.deref(item[method]);
      const names = op ? firstRequirement(op.security) : undefined;
      if (names && names.length > 0) return names;
    }
  }
  return undefined;
}

/** One scheme object as manifest auth; undefined when its type is unknown. */
export function authOfScheme(scheme: Json): Auth | undefined {
  const type = typeof scheme.type === 'string' ? scheme.type.toLowerCase() : '';
  const name = typeof scheme.name === 'string' && scheme.name ? scheme.name : undefined;
  switch (type) {
    case 'apikey':
      if (scheme.in === 'header') return { type: 'apikey', header: name ?? 'Authorization' };
      if (scheme.in === 'query' && name) return { type: 'apikey', query: name };
      return { type: 'apikey' }; // cookie
    case 'basic': // 2.0
      return { type: 'basic', header: 'Authorization' };
    case 'oauth2':
    case 'openidconnect':
      return { type: 'oauth2' };
    case 'http': {
      const s = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
      if (s === 'basic') return { type: 'basic', header: 'Authorization' };
      // `bearer`, and custom Authorization-header schemes (HMAC signatures, `negotiate`): a token in
      // the Authorization header is the closest of our types.
      return { type: s === 'bearer' ? 'bearer' : 'apikey', header: 'Authorization' };
    }
    default:
      return undefined;
  }
}

export function authOf(doc: Json, r: Resolver): Auth {
  const schemes = schemesOf(doc, r);
  const top = firstRequirement(doc.security);
  if (top && top.length === 0) return { type: 'none' };
  const names = top ?? operationRequirement(doc, r) ?? Object.keys(schemes);
  for (const name of names) {
    const scheme = r.deref(schemes[name]);
    const auth = scheme ? authOfScheme(scheme) : undefined;
    if (auth) return auth;
  }
  return { type: 'none' };
}
