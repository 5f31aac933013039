// eval:apis end to end on one definition: requests built from the recipes alone go to a real Prism mock
// started on the source definition (validation on, loopback). Every operation must be accepted, and
// requests that break the recipe (a constant header dropped, credentials missing, a limit ignored) must
// be rejected, so the check can fail.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileApi } from '../../../build/apis/compile.ts';
import {
  FLAGSHIP_FILE,
  flagshipCoverage,
  INDEPENDENT_FLAGSHIP_FILE,
  loadFlagship,
  matches,
} from '../../../build/apis/eval/flagship.ts';
import { type PrismServer, requestViolation, startPrism } from '../../../build/apis/eval/prism.ts';
import { buildRequest, fillValue } from '../../../build/apis/eval/request.ts';
import type { OperationsFile } from '../../../build/apis/recipe-schema.ts';
import type { ApiManifest } from '../../../build/apis/manifest.ts';
import { COMPILED_AT, FIXTURES } from './fixtures.ts';

const DEFINITION = path.join(FIXTURES, 'synthetic/recipes.json');

describe('requests from recipes against Prism on the source definition', { timeout: 300_000 }, () => {
  let prism: PrismServer;
  let manifest: ApiManifest;
  let operations: OperationsFile;

  beforeAll(async () => {
    const text = readFileSync(DEFINITION, 'utf8');
    ({ manifest, operations } = await compileApi({
      definition: JSON.parse(text),
      text,
      serviceName: 'fixture_api',
      compiledAt: COMPILED_AT,
    }));
    prism = await startPrism(DEFINITION);
  }, 300_000);
  afterAll(async () => {
    await prism?.close();
  });

  it('accepts the request built for every operation (form, multipart, constant header, two schemes, limits)', async () => {
    for (const recipe of operations.operations) {
      const request = buildRequest(recipe, manifest.manifest.auth);
      const verdict = await prism.send(request);
      expect({ id: recipe.id, ...verdict }).toMatchObject({ id: recipe.id, accepted: true });
    }
    const send = buildRequest(
      operations.operations.find((o) => o.id === 'send_message') as never,
      manifest.manifest.auth,
    );
    expect(send.headers).toMatchObject({
      'X-Api-Version': '2024-01-01',
      'X-Client-Id': 'test-credential',
      'X-Secret': 'test-credential',
    });
    expect(String(send.body)).toMatch(/^To=%2B[1-9]\d{7,14}&Body=.+$/);
  });

  it('rejects a request without the constant header, without credentials, or outside a limit', async () => {
    const send = operations.operations.find((o) => o.id === 'send_message');
    const list = operations.operations.find((o) => o.id === 'list_messages');
    if (!send || !list) throw new Error('fixture recipes missing');
    const noHeader = buildRequest(
      { ...send, params: send.params.filter((p) => p.name !== 'X-Api-Version') },
      manifest.manifest.auth,
    );
    expect(await prism.send(noHeader)).toMatchObject({ accepted: false });
    const noAuth = buildRequest({ ...list, auth: [] }, manifest.manifest.auth);
    expect(await prism.send(noAuth)).toMatchObject({ accepted: false, reason: expect.stringMatching(/UNAUTHORIZED/) });
    const tooSmall = buildRequest(
      { ...list, params: list.params.map((p) => ({ ...p, minimum: undefined })) },
      manifest.manifest.auth,
    );
    expect(tooSmall.url).toBe('/messages?limit=1');
    expect(await prism.send(tooSmall)).toMatchObject({ accepted: false });
  });
});

describe('fillValue', () => {
  it('prefers example, default and enum, else meets format, pattern and limits', () => {
    expect(fillValue({ type: 'string', example: 'e', default: 'd' })).toBe('e');
    expect(fillValue({ type: 'number', default: 7, minimum: 10 })).toBe(7);
    expect(fillValue({ type: 'array', items: 'string', enum: ['a', 'b'] })).toEqual(['a']);
    expect(fillValue({ type: 'string', format: 'date-time' })).toBe('2024-01-02T03:04:05Z');
    expect(fillValue({ type: 'number', minimum: 10, maximum: 100 })).toBe(10);
    const arn = fillValue({ type: 'string', pattern: '^arn:aws:[a-z]+:[0-9]{12}$', min_length: 50 }) as string;
    expect(arn).toMatch(/^arn:aws:[a-z]+:[0-9]{12}$/);
    expect(arn.length).toBeGreaterThanOrEqual(50);
    expect(fillValue({ type: 'string', min_length: 12, max_length: 12 })).toHaveLength(12);
  });
});

describe('flagship matching', () => {
  it('matches the end of the path whatever the template names, or an operationId with or without a method prefix', () => {
    expect(
      matches('POST /users/{userId}/messages/send', {
        id: 'x',
        method: 'POST',
        path: '/gmail/v1/users/{user}/messages/send',
      }),
    ).toBe(true);
    expect(
      matches('POST /users/{userId}/messages/send', {
        id: 'x',
        method: 'GET',
        path: '/gmail/v1/users/{user}/messages/send',
      }),
    ).toBe(false);
    expect(matches('GET /files', { id: 'x', method: 'GET', path: '/profiles' })).toBe(false);
    expect(matches('op:SendMessage', { id: 'get_send_message', method: 'GET', path: '/#Action=SendMessage' })).toBe(
      true,
    );
    expect(
      matches('op:SendMessage', { id: 'send_message_batch', method: 'POST', path: '/#Action=SendMessageBatch' }),
    ).toBe(false);
  });
});

describe('flagship coverage', () => {
  it('counts entries among the intents, and tells the misses the definition lacks from those it has', () => {
    const intents = [{ id: 'post_mail_send', method: 'POST' as const, path: '/mail/send', params: {}, returns: 'x' }];
    const operations = [...intents, { id: 'get_templates', method: 'GET' as const, path: '/templates' }];
    const c = flagshipCoverage(
      { mail_api: ['POST /mail/send', 'GET /templates', 'GET /nowhere'], gone_api: ['GET /x'] },
      (name) => (name === 'mail_api' ? intents : undefined),
      (name) => (name === 'mail_api' ? operations : undefined),
    );
    expect(c).toEqual({
      found: 1,
      total: 3,
      missingApis: ['gone_api'],
      misses: ['mail_api: GET /templates', 'mail_api: GET /nowhere'],
      absent: ['mail_api: GET /nowhere'],
    });
  });

  it('both lists name APIs of the catalog, and none twice', () => {
    const first = loadFlagship(FLAGSHIP_FILE);
    const second = loadFlagship(INDEPENDENT_FLAGSHIP_FILE);
    expect(Object.keys(second).length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(second).filter((k) => k in first)).toEqual([]);
    const apis = path.resolve(import.meta.dirname, '../../../catalog/apis');
    expect(Object.keys(second).filter((k) => !existsSync(path.join(apis, `${k}.json`)))).toEqual([]);
  });
});

describe('Prism violations header', () => {
  it('counts violations of the request only, also in a list Prism cut short after "Too many violations!"', () => {
    const response =
      '{"location":["response","body","arn"],"severity":"Error","message":"Response body property arn must"}';
    expect(requestViolation(`Too many violations! [${response},{"location":["resp`)).toBeNull();
    expect(requestViolation(`[${response}]`)).toBeNull();
    expect(
      requestViolation(
        `Too many violations! [${response},{"location":["request","body","x"],"severity":"Error","message":"Request body property x must be string"},{"lo`,
      ),
    ).toMatch(/^violation: request.* Request body property x must be string$/);
    expect(requestViolation('[{"path":["body"],"severity":"Warning","message":"Request body is odd"}]')).toBeNull();
    expect(requestViolation('garbage')).toBe('violation (unparsable header)');
  });
});
