// Operation recipes, auth placement and base_url templates on real definitions (twilio, AWS JSON protocol)
// and hand-written ones (synthetic/: a form body, a required constant header, two schemes sent together,
// server variables with a placeholder, a key inferred from parameters, a sample token in the URL).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileApi } from '../../../build/apis/compile.ts';
import { validateManifest } from '../../../build/apis/manifest.ts';
import {
  type OperationsFile,
  operationsFileContent,
  parseOperationsFile,
  type Recipe,
  validateOperationsFile,
} from '../../../build/apis/recipe-schema.ts';
import { checkOperationFiles } from '../../../build/catalog/validate-apis.ts';
import { COMPILED_AT, FIXTURES } from './fixtures.ts';

async function compileFile(rel: string) {
  const text = readFileSync(path.join(FIXTURES, rel), 'utf8');
  return compileApi({ definition: JSON.parse(text), text, serviceName: 'fixture_api', compiledAt: COMPILED_AT });
}

function recipe(ops: OperationsFile, id: string): Recipe {
  const found = ops.operations.find((o) => o.id === id);
  if (!found) throw new Error(`no recipe ${id}`);
  return found;
}

describe('recipes of a hand-written definition (synthetic/recipes.json)', () => {
  it('a form body: content type, every writable top-level field located in the body, objects one level deep', async () => {
    const { operations } = await compileFile('synthetic/recipes.json');
    const send = recipe(operations, 'send_message');
    expect(send.content_type).toBe('application/x-www-form-urlencoded');
    const body = send.params.filter((p) => p.in === 'body');
    expect(body.map((p) => p.name)).toEqual(['To', 'Body', 'MediaUrl', 'Priority', 'Options']); // readOnly Id left out
    expect(body.find((p) => p.name === 'To')).toMatchObject({
      required: true,
      type: 'string',
      pattern: '^\\+[1-9][0-9]{7,14}$',
    });
    expect(body.find((p) => p.name === 'Body')).toMatchObject({ required: true, min_length: 1, max_length: 1600 });
    expect(body.find((p) => p.name === 'MediaUrl')).toMatchObject({
      required: false,
      type: 'array',
      items: 'string',
      format: 'uri',
    });
    expect(body.find((p) => p.name === 'Options')?.fields).toEqual([
      { name: 'channel', required: true, type: 'string', enum: ['sms', 'whatsapp'] },
      { name: 'ttl', required: false, type: 'number' },
    ]);
    const upload = recipe(operations, 'upload_media');
    expect(upload.content_type).toBe('multipart/form-data');
    expect(upload.params[0]).toMatchObject({ name: 'file', in: 'body', required: true, format: 'binary' });
  });

  it('a required header with one allowed value is a param with that default; query and path params are located', async () => {
    const { operations } = await compileFile('synthetic/recipes.json');
    const send = recipe(operations, 'send_message');
    expect(send.params.find((p) => p.in === 'header')).toEqual({
      name: 'X-Api-Version',
      in: 'header',
      required: true,
      type: 'string',
      default: '2024-01-01',
    });
    expect(send.params.find((p) => p.in === 'query')).toMatchObject({
      name: 'dry_run',
      required: false,
      type: 'boolean',
      default: false,
    });
    expect(recipe(operations, 'get_message').params).toEqual([
      { name: 'messageId', in: 'path', required: true, type: 'string', format: 'uuid' },
    ]);
    expect(recipe(operations, 'list_messages').params[0]).toMatchObject({
      name: 'limit',
      in: 'query',
      minimum: 10,
      maximum: 100,
    });
  });

  it('two schemes required together, an OAuth2 alternative with token URL and scopes, per-operation security', async () => {
    const { manifest, operations } = await compileFile('synthetic/recipes.json');
    const auth = manifest.manifest.auth;
    expect(auth).toMatchObject({
      type: 'apikey',
      header: 'X-Client-Id',
      requirements: [['clientId', 'secret'], ['oauth']],
    });
    expect(auth.schemes).toEqual([
      { id: 'clientId', type: 'apikey', in: 'header', name: 'X-Client-Id', format: '{key}' },
      { id: 'secret', type: 'apikey', in: 'header', name: 'X-Secret', format: '{key}' },
      {
        id: 'oauth',
        type: 'oauth2',
        in: 'header',
        name: 'Authorization',
        format: 'Bearer {token}',
        flow: 'clientCredentials',
        token_url: 'https://auth.example-recipes.dev/token',
        scopes: ['messages:write', 'messages:read'],
      },
    ]);
    expect(recipe(operations, 'send_message').auth).toEqual([['clientId', 'secret'], ['oauth']]);
    expect(recipe(operations, 'get_message').auth).toEqual([['oauth']]);
  });

  it('server variables resolved to defaults and listed; a placeholder default stays a template variable', async () => {
    const { manifest } = await compileFile('synthetic/recipes.json');
    expect(manifest.manifest.base_url).toBe('https://{tenant}.api.example-recipes.dev/v2');
    expect(manifest.manifest.base_url_template).toBe(true);
    expect(manifest.manifest.base_url_variables).toEqual({
      tenant: { default: 'your-tenant', description: 'Your tenant name', placeholder: true },
      version: { default: 'v2', enum: ['v1', 'v2'] },
    });
    expect(manifest.manifest.insecure_http).toBeUndefined();
    expect(manifest.trust.reliability_score).toBe(0.78); // 0.80 + 0.05 https − 0.10 template + 0.03 auth
  });

  it('files are valid, intents share the recipes ids, and gzip round-trips byte-identically', async () => {
    const { manifest, operations } = await compileFile('synthetic/recipes.json');
    expect(validateManifest(manifest)).toEqual([]);
    expect(validateOperationsFile(operations)).toEqual([]);
    for (const intent of manifest.manifest.intents)
      expect(recipe(operations, intent.id)).toMatchObject({ method: intent.method, path: intent.path });
    const bytes = operationsFileContent(operations);
    expect(parseOperationsFile(bytes)).toEqual(operations);
    expect(operationsFileContent(operations).equals(bytes)).toBe(true);
  });
});

describe('auth and base_url from parameters and URLs (synthetic/inferred-key.json)', () => {
  it('no scheme declared: the key every operation takes becomes an inferred scheme, not repeated in the recipes', async () => {
    const { manifest, operations } = await compileFile('synthetic/inferred-key.json');
    expect(manifest.manifest.auth).toEqual({
      type: 'apikey',
      header: 'xi-api-key',
      schemes: [
        { id: 'xi-api-key', type: 'apikey', in: 'header', name: 'xi-api-key', format: '{key}', inferred: true },
      ],
      requirements: [['xi-api-key']],
    });
    for (const op of operations.operations) {
      expect(op.auth).toEqual([['xi-api-key']]);
      expect(op.params.some((p) => p.name === 'xi-api-key')).toBe(false);
    }
  });

  it('key schemes listed as alternatives but each a required parameter of the operation are sent together', async () => {
    const { operations } = await compileFile('synthetic/key-and-token.json');
    expect(recipe(operations, 'get_board').auth).toEqual([['api_key', 'api_token']]);
    expect(recipe(operations, 'create_card').auth).toEqual([['api_key', 'api_token']]);
    // Only the key is a required parameter here: the alternatives stand as declared.
    expect(recipe(operations, 'search').auth).toEqual([['api_key'], ['api_token']]);
    // An example the parameter's own enum rules out is not published (it would be the first value tried).
    const version = recipe(operations, 'search').params.find((p) => p.name === 'api-version');
    expect(version).toMatchObject({ in: 'query', required: true, enum: ['2018-09-01-preview'] });
    expect(version?.example).toBeUndefined();
    for (const op of operations.operations)
      expect(op.params.some((p) => p.name === 'key' || p.name === 'token')).toBe(false);
  });

  it('a sample token in the server URL is a placeholder variable, and plain http is flagged', async () => {
    const { manifest } = await compileFile('synthetic/inferred-key.json');
    expect(manifest.manifest).toMatchObject({
      base_url: 'http://api.example-voices.dev/bot{token}',
      base_url_template: true,
      insecure_http: true,
      base_url_variables: { token: { default: '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11', placeholder: true } },
    });
  });
});

describe('real definitions', () => {
  it('AWS JSON protocol: SigV4 with service and region, X-Amz-Target as a constant header, signing headers left to auth', async () => {
    const { manifest, operations } = await compileFile('directory/amazonaws.com/entitlement.marketplace.json');
    expect(manifest.manifest.auth).toMatchObject({
      type: 'sigv4',
      schemes: [{ type: 'sigv4', service: 'entitlement', region: 'us-east-1', in: 'header', name: 'Authorization' }],
    });
    expect(manifest.manifest.base_url).toBe('https://entitlement.marketplace.us-east-1.amazonaws.com');
    expect(manifest.manifest.base_url_variables?.region?.default).toBe('us-east-1');
    const get = recipe(operations, 'get_entitlements');
    expect(get.params.find((p) => p.in === 'header')).toEqual({
      name: 'X-Amz-Target',
      in: 'header',
      required: true,
      type: 'string',
      default: 'AWSMPEntitlementService.GetEntitlements',
    });
    expect(get.params.some((p) => /^X-Amz-(Date|Signature|Credential)/.test(p.name))).toBe(false);
    expect(get.params.find((p) => p.name === 'ProductCode')).toMatchObject({
      in: 'body',
      required: true,
      type: 'string',
    });
    expect(get.content_type).toBe('application/json');
  });

  it('twilio: the message create sends a form with its fields; basic auth says where and how', async () => {
    const { manifest, operations } = await compileFile('directory/twilio.com/api.json');
    expect(manifest.manifest.auth.schemes).toEqual([
      {
        id: 'accountSid_authToken',
        type: 'basic',
        in: 'header',
        name: 'Authorization',
        format: 'Basic base64({username}:{password})',
      },
    ]);
    const create = operations.operations.find(
      (o) => o.method === 'POST' && o.path === '/2010-04-01/Accounts/{AccountSid}/Messages.json',
    );
    expect(create?.content_type).toBe('application/x-www-form-urlencoded');
    const fields = create?.params.filter((p) => p.in === 'body').map((p) => p.name) ?? [];
    expect(fields).toEqual(expect.arrayContaining(['To', 'Body', 'From', 'MediaUrl', 'StatusCallback']));
    expect(create?.params.find((p) => p.name === 'To')).toMatchObject({ required: true });
  });
});

describe('checkOperationFiles', () => {
  it('reports an intent without its recipe, a file without a manifest, and a name that is not the file name', async () => {
    const { manifest, operations } = await compileFile('synthetic/recipes.json');
    const pruned = { ...operations, operations: operations.operations.filter((o) => o.id !== 'send_message') };
    const files = [
      { id: 'fixture_api', file: 'apis/operations/fixture_api.json.gz', value: pruned },
      {
        id: 'orphan_api',
        file: 'apis/operations/orphan_api.json.gz',
        value: { ...operations, service_name: 'orphan_api' },
      },
      { id: 'other_api', file: 'apis/operations/other_api.json.gz', value: operations },
    ];
    const { errors, valid } = checkOperationFiles(files, [manifest]);
    expect(valid).toHaveLength(2);
    expect(errors).toEqual([
      'apis/operations/other_api.json.gz: /service_name: "fixture_api" must equal the file name "other_api"',
      expect.stringMatching(/^apis\/operations\/other_api\.json\.gz: \/service_name: duplicates/),
      expect.stringMatching(
        /^apis\/operations\/fixture_api\.json\.gz: \/operations: no recipe for intent \d+ \(send_message, POST \/messages\)$/,
      ),
      'apis/operations/orphan_api.json.gz: /service_name: no manifest orphan_api.json beside it',
    ]);
  });
});
