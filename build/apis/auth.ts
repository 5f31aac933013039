// How to authenticate, from the definition's security schemes (3.x `components.securitySchemes`,
// 2.0 `securityDefinitions`) and requirements (`security`, top-level and per operation).
//
// Every scheme in force is described with its placement (header, query or cookie name and the value format,
// `Bearer {token}`), and the requirements say which schemes go together (Plaid: client id + secret +
// version). AWS request signing is `sigv4` with its signing service and region, not an API key. When the
// definition declares no scheme, parameters that carry a key on most operations (ElevenLabs' `xi-api-key`)
// become schemes marked `inferred`.
//
// The legacy fields stay for readers of the seed format: `type` and `header`/`query` describe the first
// scheme of the first requirement (the API's default); an empty first requirement (`{}`, anonymous access
// allowed) or no scheme at all is `none`.
import type { Auth, AuthScheme } from './manifest.ts';
import type { Operation } from './operation.ts';
import { parametersOf } from './operation.ts';
import { isObject, type Json, type Resolver } from './refs.ts';

const MAX_SCOPES = 10;

function schemesOf(doc: Json, r: Resolver): Json {
  const components = r.deref(doc.components);
  const schemes = r.deref(components?.securitySchemes) ?? r.deref(doc.securityDefinitions);
  return schemes ?? {};
}

/** A `security` array as alternatives of scheme names; undefined when absent or not an array. */
export function requirementsOf(security: unknown): string[][] | undefined {
  if (!Array.isArray(security)) return undefined;
  return security.filter(isObject).map((req) => Object.keys(req));
}

function firstServerHost(doc: Json): { host: string; region?: string } {
  const servers = Array.isArray(doc.servers) ? doc.servers.filter(isObject) : [];
  const server = servers.find((s) => typeof s.url === 'string' && /^https:/.test(s.url)) ?? servers[0];
  const url = typeof server?.url === 'string' ? server.url : typeof doc.host === 'string' ? `https://${doc.host}` : '';
  const host = url.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? '';
  const vars = isObject(server?.variables) ? server.variables : {};
  const region = isObject(vars.region) && typeof vars.region.default === 'string' ? vars.region.default : undefined;
  return { host, region };
}

function isSigV4(scheme: Json): boolean {
  const authType = String(scheme['x-amazon-apigateway-authtype'] ?? '').toLowerCase();
  return (
    authType === 'awssigv4' ||
    (scheme.name === 'Authorization' && /signature v(ersion )?4/i.test(String(scheme.description ?? '')))
  );
}

function sigV4Scheme(id: string, doc: Json): AuthScheme {
  const { host, region } = firstServerHost(doc);
  const info = isObject(doc.info) ? doc.info : {};
  const label = host.split('.')[0] ?? '';
  const service = label && !label.includes('{') ? label : String(info['x-serviceName'] ?? 'unknown');
  // Global endpoints (iam.amazonaws.com) sign for us-east-1.
  return { id, type: 'sigv4', in: 'header', name: 'Authorization', service, region: region ?? 'us-east-1' };
}

function oauthScheme(id: string, scheme: Json): AuthScheme {
  const out: AuthScheme = { id, type: 'oauth2', in: 'header', name: 'Authorization', format: 'Bearer {token}' };
  const flows = isObject(scheme.flows) ? scheme.flows : undefined;
  // 3.x `flows`, or 2.0's single flow on the scheme itself.
  const entries: [string, Json][] = flows
    ? Object.entries(flows).filter((e): e is [string, Json] => isObject(e[1]))
    : [[String(scheme.flow ?? ''), scheme]];
  const [flowName, flow] = entries.find(([, f]) => typeof f.tokenUrl === 'string') ?? entries[0] ?? ['', {}];
  if (flowName) out.flow = flowName;
  if (typeof flow.authorizationUrl === 'string' && flow.authorizationUrl)
    out.authorization_url = flow.authorizationUrl.slice(0, 500);
  if (typeof flow.tokenUrl === 'string' && flow.tokenUrl) out.token_url = flow.tokenUrl.slice(0, 500);
  const scopes = isObject(flow.scopes) ? Object.keys(flow.scopes) : [];
  if (scopes.length > 0) out.scopes = scopes.slice(0, MAX_SCOPES).map((s) => s.slice(0, 200));
  if (scopes.length > MAX_SCOPES) out.scopes_total = scopes.length;
  return out;
}

/** One scheme object, with its placement; undefined when its type is unknown. */
export function schemeOf(id: string, scheme: Json, doc: Json): AuthScheme | undefined {
  const type = typeof scheme.type === 'string' ? scheme.type.toLowerCase() : '';
  const name = typeof scheme.name === 'string' && scheme.name ? scheme.name.slice(0, 200) : undefined;
  switch (type) {
    case 'apikey': {
      if (isSigV4(scheme)) return sigV4Scheme(id, doc);
      const place = scheme.in === 'query' || scheme.in === 'cookie' ? scheme.in : 'header';
      return { id, type: 'apikey', in: place, name: name ?? 'Authorization', format: '{key}' };
    }
    case 'basic': // 2.0
      return { id, type: 'basic', in: 'header', name: 'Authorization', format: 'Basic base64({username}:{password})' };
    case 'oauth2':
      return oauthScheme(id, scheme);
    case 'openidconnect': {
      const out: AuthScheme = { id, type: 'oauth2', in: 'header', name: 'Authorization', format: 'Bearer {token}' };
      if (typeof scheme.openIdConnectUrl === 'string') out.openid_url = scheme.openIdConnectUrl.slice(0, 500);
      return out;
    }
    case 'http': {
      const s = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
      if (s === 'basic')
        return {
          id,
          type: 'basic',
          in: 'header',
          name: 'Authorization',
          format: 'Basic base64({username}:{password})',
        };
      if (s === 'bearer') return { id, type: 'bearer', in: 'header', name: 'Authorization', format: 'Bearer {token}' };
      // Custom Authorization-header schemes (HMAC signatures, `negotiate`): a credential after the scheme word.
      const word = typeof scheme.scheme === 'string' && scheme.scheme ? scheme.scheme.slice(0, 40) : 'Token';
      return { id, type: 'apikey', in: 'header', name: 'Authorization', format: `${word} {credentials}` };
    }
    default:
      return undefined;
  }
}

// Parameter names that carry a credential when a definition declares no scheme.
const KEY_PARAM =
  /^(x-)?([a-z]+[-_])?(api[-_]?key|apikey|api[-_]?token|access[-_]?token|auth[-_]?token|token|key|secret|client[-_]?secret|app[-_]?key|app[-_]?id|client[-_]?id|subscription[-_]?key|authorization|password)$/i;

/** Header/query/cookie parameters named like keys on at least half of the operations (and at least one). */
function inferredSchemes(ops: readonly Operation[], r: Resolver): AuthScheme[] {
  const counts = new Map<string, { n: number; in: 'header' | 'query' | 'cookie'; name: string }>();
  for (const o of ops) {
    for (const p of parametersOf(o, r)) {
      if (typeof p.name !== 'string' || !KEY_PARAM.test(p.name)) continue;
      if (p.in !== 'header' && p.in !== 'query' && p.in !== 'cookie') continue;
      const key = `${p.in}:${p.name}`;
      const entry = counts.get(key) ?? { n: 0, in: p.in, name: p.name };
      entry.n++;
      counts.set(key, entry);
    }
  }
  return [...counts.values()]
    .filter((c) => c.n >= Math.max(1, ops.length / 2))
    .map((c) => {
      const bearer = c.in === 'header' && /^authorization$/i.test(c.name);
      return {
        id: c.name.slice(0, 200),
        type: bearer ? 'bearer' : 'apikey',
        in: c.in,
        name: c.name.slice(0, 200),
        format: bearer ? 'Bearer {token}' : '{key}',
        inferred: true,
      } satisfies AuthScheme;
    });
}

export interface ApiAuth {
  /** The manifest's `auth`. */
  auth: Auth;
  /** Requirement alternatives of one operation (scheme ids), as its recipe lists them. */
  operationAuth(o: Operation): string[][];
  /** Whether a parameter is the credential of a scheme (so recipes need not list it). */
  isCredential(p: Json): boolean;
}

const SIGNING_HEADERS = /^x-amz-(content-sha256|date|algorithm|credential|security-token|signature|signedheaders)$/i;

export function authOf(doc: Json, r: Resolver, ops: readonly Operation[] = []): ApiAuth {
  const declared = schemesOf(doc, r);
  const byId = new Map<string, AuthScheme>();
  for (const [id, raw] of Object.entries(declared)) {
    const scheme = r.deref(raw);
    const described = scheme ? schemeOf(id.slice(0, 200), scheme, doc) : undefined;
    if (described) byId.set(id, described);
  }
  const known = (req: string[]) => req.filter((id) => byId.has(id));
  const top = requirementsOf(doc.security)?.map(known);
  const opReqs = ops.map((o) => requirementsOf(o.op.security)?.map(known));
  let defaults = top;
  if (!defaults || defaults.length === 0) defaults = opReqs.find((q) => q?.some((a) => a.length > 0));
  let inferred: AuthScheme[] = [];
  const anyRequirement = (top?.length ?? 0) > 0 || opReqs.some((q) => (q?.length ?? 0) > 0);
  if (byId.size === 0) {
    inferred = inferredSchemes(ops, r);
    for (const s of inferred) byId.set(s.id, s);
    if (inferred.length > 0) defaults = [inferred.map((s) => s.id)];
  } else if (!anyRequirement) {
    defaults = [...byId.keys()].map((id) => [id]); // schemes declared but never required: any one of them
  }
  const requirements = (defaults ?? []).filter((req, i, all) => all.findIndex((o) => o.join() === req.join()) === i);

  // Schemes in force: those any requirement (default or per operation) names, in first-use order.
  const used: string[] = [];
  for (const req of [...requirements, ...opReqs.flatMap((q) => q ?? [])])
    for (const id of req) if (!used.includes(id)) used.push(id);
  const schemes = used.map((id) => byId.get(id)).filter((s): s is AuthScheme => s !== undefined);

  const first = requirements[0];
  const primary = first && first.length > 0 ? byId.get(first[0] ?? '') : undefined;
  const auth: Auth = {
    type: primary ? (primary.type === 'apikey' && primary.in === 'cookie' ? 'apikey' : primary.type) : 'none',
  };
  if (primary?.in === 'query' && primary.name) auth.query = primary.name;
  else if (primary?.in === 'header' && primary.name) auth.header = primary.name;
  if (schemes.length > 0) {
    auth.schemes = schemes;
    auth.requirements = requirements;
  }

  const requiredKeys = (o: Operation) =>
    new Set(
      parametersOf(o, r)
        .filter((p) => p.required === true && (p.in === 'query' || p.in === 'header' || p.in === 'cookie'))
        .map((p) => `${String(p.in)}:${String(p.name)}`),
    );
  const operationAuth = (o: Operation): string[][] => {
    const own = requirementsOf(o.op.security)?.map(known);
    let reqs = own ?? requirements;
    // A definition may list key schemes as alternatives while the operation itself declares each one's
    // parameter required (Trello: `key` or `token`, yet both are required query parameters, as the real
    // API wants): the operation's own parameters win, so those schemes are sent together.
    const keys = requiredKeys(o);
    const demanded = schemes.filter((s) => s.type === 'apikey' && keys.has(`${s.in}:${s.name}`)).map((s) => s.id);
    if (demanded.length > 1 && reqs.length > 0)
      reqs = reqs.map((req) => [...req, ...demanded.filter((id) => !req.includes(id))]);
    // Alternatives that name the same schemes in another order are one.
    const key = (req: string[]) => [...req].sort().join();
    return reqs.filter((req, i, all) => all.findIndex((x) => key(x) === key(req)) === i);
  };
  // When every operation sends the declared alternatives together, the API-level requirement says so too.
  if (auth.requirements && ops.length > 0) {
    const per = ops.map((o) => JSON.stringify(operationAuth(o)));
    const common = JSON.parse(per[0] as string) as string[][];
    const merges = common.length === 1 && requirements.every((req) => req.every((id) => common[0]?.includes(id)));
    if (merges && per.every((x) => x === per[0]) && per[0] !== JSON.stringify(requirements)) auth.requirements = common;
  }
  const credentialKeys = new Set(schemes.filter((s) => s.type === 'apikey').map((s) => `${s.in}:${s.name}`));
  const sigv4 = schemes.some((s) => s.type === 'sigv4');
  return {
    auth,
    operationAuth,
    isCredential(p) {
      if (p.in === 'header' && typeof p.name === 'string' && /^authorization$/i.test(p.name) && schemes.length > 0)
        return true;
      if (sigv4 && p.in === 'header' && typeof p.name === 'string' && SIGNING_HEADERS.test(p.name)) return true;
      return credentialKeys.has(`${String(p.in)}:${String(p.name)}`);
    },
  };
}
