// The OpenAPI → manifest compiler on real definitions: auth, base URL, intent choice, params, returns,
// tokens, categories, source URLs and determinism.
import { describe, expect, it } from 'vitest';
import { CompileError, compileManifest, manifestFileContent } from '../../../build/apis/compile.ts';
import { kindOf } from '../../../build/apis/intents.ts';
import { MAX_INTENTS, PARAM_TYPES, validateManifest } from '../../../build/apis/manifest.ts';
import type { Operation } from '../../../build/apis/operation.ts';
import { pathResource } from '../../../build/apis/paths.ts';
import { COMPILED_AT, compileFixture, FIXTURE_FILES, type FixtureFile, fixtureText } from './fixtures.ts';

const intent = async (file: FixtureFile, id: string) => {
  const found = (await compileFixture(file)).manifest.intents.find((i) => i.id === id);
  if (!found) throw new Error(`${file} has no intent ${id}`);
  return found;
};

describe('every fixture', () => {
  for (const file of FIXTURE_FILES) {
    it(`${file}: valid manifest, ≤ 20 intents, typed params, short returns, tokens counted`, async () => {
      const m = await compileFixture(file);
      expect(validateManifest(m)).toEqual([]);
      expect(m.manifest.intents.length).toBeGreaterThan(0);
      expect(m.manifest.intents.length).toBeLessThanOrEqual(MAX_INTENTS);
      expect(new Set(m.manifest.intents.map((i) => i.id)).size).toBe(m.manifest.intents.length);
      for (const i of m.manifest.intents) {
        expect(i.id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
        expect(i.returns.split(' ').length).toBeLessThanOrEqual(10);
        for (const type of Object.values(i.params)) expect(PARAM_TYPES).toContain(type);
        for (const name of i.path.match(/\{([^}]+)\}/g) ?? []) expect(i.params).toHaveProperty(name.slice(1, -1));
      }
      expect(m.record.tokens.definition).toBeGreaterThan(0);
      expect(m.record.tokens.manifest).toBeGreaterThan(0);
      expect(m.record.tokens.manifest).toBeLessThan(m.record.tokens.definition);
      expect(m.trust.reliability_score).toBeGreaterThanOrEqual(0.5);
      expect(m.trust.reliability_score).toBeLessThanOrEqual(0.95);
      expect(m.record).toMatchObject({ verified: true, compiled_at: COMPILED_AT });
    });
  }
});

describe('auth', () => {
  it.each([
    ['directory/1password.com/events.json', { type: 'bearer', header: 'Authorization' }],
    ['directory/currencytick.com.json', { type: 'apikey', query: 'apikey' }],
    ['directory/amazonaws.com/applicationcostprofiler.json', { type: 'sigv4', header: 'Authorization' }],
    ['directory/googleapis.com/gmail.json', { type: 'oauth2', header: 'Authorization' }],
    ['directory/twilio.com/api.json', { type: 'basic', header: 'Authorization' }],
    ['directory/adyen.com/DisputeService-v30.json', { type: 'basic', header: 'Authorization' }],
    ['directory/xkcd.com.json', { type: 'none' }],
    ['swagger2/aiception.com.json', { type: 'basic', header: 'Authorization' }],
    ['swagger2/1forge.com.json', { type: 'none' }],
  ] as const)('%s → %j', async (file, auth) => {
    // The seed format's fields; `schemes` and `requirements` are checked in recipes.test.ts.
    const { type, header, query } = (await compileFixture(file)).manifest.auth;
    expect(JSON.parse(JSON.stringify({ type, header, query }))).toEqual(auth);
  });

  it('an apiKey in a header names the header', async () => {
    const def = JSON.parse(fixtureText('directory/xkcd.com.json'));
    def.components.securitySchemes = { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } };
    def.security = [{ key: [] }];
    const m = await compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT });
    expect(m.manifest.auth).toEqual({
      type: 'apikey',
      header: 'X-Api-Key',
      schemes: [{ id: 'key', type: 'apikey', in: 'header', name: 'X-Api-Key', format: '{key}' }],
      requirements: [['key']],
    });
  });
});

describe('base_url', () => {
  it.each([
    ['directory/xkcd.com.json', 'http://xkcd.com'],
    ['directory/googleapis.com/gmail.json', 'https://gmail.googleapis.com'],
    ['directory/twilio.com/api.json', 'https://api.twilio.com'],
    // server variables take their defaults
    [
      'directory/amazonaws.com/applicationcostprofiler.json',
      'https://application-cost-profiler.us-east-1.amazonaws.com',
    ],
    // Swagger 2.0: schemes + host + basePath, https preferred
    ['swagger2/1forge.com.json', 'https://1forge.com/forex-quotes'],
    ['swagger2/aiception.com.json', 'https://aiception.com/api/v2.1'],
  ] as const)('%s → %s', async (file, url) => {
    expect((await compileFixture(file)).manifest.base_url).toBe(url);
  });

  it('a relative server URL resolves against where the definition was served, never a file host', async () => {
    const def = JSON.parse(fixtureText('directory/xkcd.com.json'));
    def.servers = [{ url: '/api/v2' }];
    def.info['x-origin'] = [{ format: 'openapi', url: 'https://docs.acme-api.dev/docs/openapi.json', version: '3.0' }];
    expect(
      (await compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT })).manifest.base_url,
    ).toBe('https://docs.acme-api.dev/api/v2');
    // example.org is a documentation host: a template, never presented as callable
    def.info['x-origin'] = [{ format: 'openapi', url: 'https://example.org/docs/openapi.json', version: '3.0' }];
    expect(
      (await compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT })).manifest,
    ).toMatchObject({
      base_url: 'https://{host}/api/v2',
      base_url_template: true,
      base_url_variables: { host: { default: 'example.org', placeholder: true } },
    });
    def.info['x-origin'] = [
      { format: 'openapi', url: 'https://raw.githubusercontent.com/x/y/openapi.yaml', version: '3.0' },
    ];
    await expect(compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT })).rejects.toThrow(
      CompileError,
    );
  });
});

describe('intent selection', () => {
  it('a large definition (Twilio, 860 KB) gives 20 intents mixing list, fetch and create; no deletes', async () => {
    const m = await compileFixture('directory/twilio.com/api.json');
    const ops = m.manifest.intents;
    expect(ops).toHaveLength(20);
    expect(ops.some((i) => i.method === 'DELETE')).toBe(false);
    expect(ops.filter((i) => i.method === 'GET').length).toBeGreaterThanOrEqual(6);
    expect(ops.filter((i) => i.method === 'POST').length).toBeGreaterThanOrEqual(5);
    expect(ops.map((i) => i.id)).toContain('create_message');
    // two orders of magnitude smaller
    expect(m.record.tokens.definition / m.record.tokens.manifest).toBeGreaterThan(100);
  });

  it('required path, query and body parameters, with JSON types', async () => {
    expect((await intent('directory/twilio.com/api.json', 'create_message')).params).toEqual({
      AccountSid: 'string',
      To: 'string',
    });
    expect((await intent('directory/xkcd.com.json', 'get_by_comic_id_info_0_json')).params).toEqual({
      comicId: 'number',
    });
    expect((await intent('directory/currencytick.com.json', 'historical_exchange_rate')).params).toEqual({
      apikey: 'string',
      base: 'string',
      target: 'string',
      date: 'string',
    });
    // Swagger 2.0 body parameter: required properties only
    expect((await intent('swagger2/aiception.com.json', 'post_artistic_image')).params).toEqual({
      image_url: 'string',
      style_url: 'string',
    });
    // OpenAPI 3.1 request body with array and string fields
    expect(
      (await intent('directory/adyen.com/DisputeService-v30.json', 'post_supply_defense_document')).params,
    ).toEqual({ merchantAccountCode: 'string', disputePspReference: 'string', defenseDocuments: 'array' });
  });

  it('deprecated operations are left out while others remain', async () => {
    const def = JSON.parse(fixtureText('directory/googleapis.com/gmail.json'));
    def.paths['/gmail/v1/users/{userId}/labels'].get.deprecated = true;
    const before = (await compileFixture('directory/googleapis.com/gmail.json')).manifest.intents.map((i) => i.id);
    const after = (
      await compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT })
    ).manifest.intents.map((i) => i.id);
    expect(before).toContain('gmail_users_labels_list');
    expect(after).not.toContain('gmail_users_labels_list');
    expect(after).toHaveLength(20);
  });

  it('an email API offers sending mail before account settings (Gmail: messages.send in, at most 2 settings)', async () => {
    const ids = (await compileFixture('directory/googleapis.com/gmail.json')).manifest.intents.map((i) => i.id);
    expect(ids).toContain('gmail_users_messages_send');
    expect(ids).toContain('gmail_users_messages_list');
    expect(ids.filter((id) => id.includes('_settings_')).length).toBeLessThanOrEqual(2);
  });

  it('resources: the last literal segment past versions and trailing verbs; "constructor" is no verb', async () => {
    expect(pathResource('/gmail/v1/users/{userId}/messages/send')).toBe('messages');
    expect(pathResource('/v2/jobs/{id}/cancel')).toBe('jobs');
    expect(pathResource('/users/{id}/drafts/{d}')).toBe('drafts');
    expect(pathResource('/search')).toBe('search');
    expect(pathResource('/things/constructor')).toBe('constructor');
    const op = {
      method: 'POST',
      path: '/things/constructor',
      op: { operationId: 'constructor' },
      index: 0,
    } as unknown as Operation;
    expect(kindOf(op)).toBe('action');
  });

  it('resources of RPC, dotted and custom-method paths (one rule for intents and returns)', () => {
    expect(pathResource('/#X-Amz-Target=AWSApplicationCostProfiler.ListReportDefinitions')).toBe(
      'list report definitions',
    );
    expect(pathResource('/account.cart.list.json')).toBe('cart');
    expect(pathResource('/v1/threatLists:computeDiff')).toBe('threat lists');
    expect(pathResource('/v1beta1/{parent}/evaluations:search')).toBe('evaluations');
    expect(pathResource("/indexers('{indexerName}')/search.run")).toBe('indexers');
    expect(pathResource('/providers/Microsoft.LabServices/users/{userName}/register')).toBe('users');
  });

  it('returns: the response description when it says something, else the schema or resource', async () => {
    expect((await intent('swagger2/1forge.com.json', 'get_quotes')).returns).toBe('A list of quotes');
    expect((await intent('directory/xkcd.com.json', 'get_info_0_json')).returns).toBe('the comic');
    expect((await intent('directory/googleapis.com/gmail.json', 'gmail_users_messages_list')).returns).toBe(
      'list of messages',
    );
    expect((await intent('directory/googleapis.com/gmail.json', 'gmail_users_labels_create')).returns).toBe(
      'the created label',
    );
  });
});

describe('metadata', () => {
  it('category from the directory, a title keyword beating a broad directory label', async () => {
    expect((await compileFixture('directory/googleapis.com/gmail.json')).category).toBe('email'); // directory: analytics, media
    expect((await compileFixture('directory/twilio.com/api.json')).category).toBe('messaging'); // telecom, messaging
    expect((await compileFixture('directory/xkcd.com.json')).category).toBe('media');
    expect((await compileFixture('swagger2/aiception.com.json')).category).toBe('ai'); // machine_learning
    expect((await compileFixture('directory/adyen.com/DisputeService-v30.json')).category).toBe('payments');
  });

  it('tags: lowercase, category first, at most 8', async () => {
    const m = await compileFixture('directory/xkcd.com.json');
    expect(m.tags[0]).toBe('media');
    expect(m.tags).toEqual(expect.arrayContaining(['humor', 'comics', 'xkcd']));
    expect(m.tags.length).toBeLessThanOrEqual(8);
  });

  it('source_url: the APIs.guru URL, swagger.json for Swagger-origin definitions', async () => {
    expect((await compileFixture('directory/googleapis.com/gmail.json')).source_url).toBe(
      'https://api.apis.guru/v2/specs/googleapis.com/gmail/v1/openapi.json',
    );
    expect((await compileFixture('directory/xkcd.com.json')).source_url).toBe(
      'https://api.apis.guru/v2/specs/xkcd.com/1.0.0/openapi.json',
    );
    expect((await compileFixture('swagger2/aiception.com.json')).source_url).toBe(
      'https://api.apis.guru/v2/specs/aiception.com/1.0.0/swagger.json',
    );
    expect(
      (
        await compileFixture('directory/1password.com/events.json', {
          specId: { provider: '1password.com', service: 'events' },
        })
      ).source_url,
    ).toBe('https://api.apis.guru/v2/specs/1password.com/events/1.2.0/openapi.json');
  });

  it('reliability: https, auth and size raise it; http and few operations lower it', async () => {
    expect((await compileFixture('directory/twilio.com/api.json')).trust.reliability_score).toBe(0.9);
    expect((await compileFixture('directory/xkcd.com.json')).trust.reliability_score).toBe(0.6); // http, 2 ops, unofficial
  });
});

describe('determinism and failures', () => {
  it('compiling twice gives byte-identical files and leaves the definition untouched', async () => {
    for (const file of ['directory/googleapis.com/gmail.json', 'swagger2/aiception.com.json'] as const) {
      const text = fixtureText(file);
      const def = JSON.parse(text);
      const a = await compileManifest({ definition: def, text, serviceName: 'x_api', compiledAt: COMPILED_AT });
      const b = await compileManifest({
        definition: JSON.parse(text),
        text,
        serviceName: 'x_api',
        compiledAt: COMPILED_AT,
      });
      expect(manifestFileContent(a)).toBe(manifestFileContent(b));
      expect(JSON.stringify(def)).toBe(JSON.stringify(JSON.parse(text)));
    }
  });

  it('definitions that cannot become a manifest fail with a reason', async () => {
    const compile = (definition: unknown) =>
      compileManifest({ definition, serviceName: 'x_api', compiledAt: COMPILED_AT });
    await expect(compile([])).rejects.toThrow('not a JSON object');
    await expect(compile({ info: {} })).rejects.toThrow('not an OpenAPI');
    const noPaths = JSON.parse(fixtureText('directory/xkcd.com.json'));
    noPaths.paths = {};
    await expect(compile(noPaths)).rejects.toThrow('no operations');
  });

  it('a cyclic schema is read safely', async () => {
    const def = JSON.parse(fixtureText('directory/xkcd.com.json'));
    def.components.schemas.comic.properties.next = { $ref: '#/components/schemas/comic' };
    def.components.schemas.loop = { $ref: '#/components/schemas/loop' };
    def.paths['/info.0.json'].get.responses['200'].content['*/*'].schema = { $ref: '#/components/schemas/loop' };
    const m = await compileManifest({ definition: def, serviceName: 'x_api', compiledAt: COMPILED_AT });
    expect(validateManifest(m)).toEqual([]);
  });
});
