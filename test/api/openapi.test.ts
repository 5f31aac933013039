// GET /openapi.json is a valid OpenAPI 3.1 document that matches what the server does: every documented
// operation answers with a documented status, and live responses validate against its schemas.
// Also: the live agent discovery documents.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentSchemas, openApiDocument } from '../../api/openapi/document.ts';
import { TaxPayload } from '../../api/services/tax-payload.ts';
import { ToolContract } from '../../build/model/contract.ts';
import { BASE_URL, startTestServer, type TestServer } from '../helpers/server.ts';

const SAMPLE_PARAMS: Record<string, string> = { aid: 'npm-axios-v1', service_name: 'sendgrid' };
// Built into dist/ by `npm run build`, not answered by the API process itself.
const STATIC_PATHS = new Set(['/', '/llms.txt', '/robots.txt', '/sitemap.xml']);
const payload = { execution_feedback: 200, trend_keyword: 'fetch json data' };

describe('OpenAPI document', () => {
  let s: TestServer;
  let doc: any;
  let check: (schema: string, value: unknown) => void;

  beforeAll(async () => {
    s = await startTestServer();
    doc = (await s.json('/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ $id: 'https://openapi.test/doc', components: doc.components });
    check = (schema, value) => {
      const validate = ajv.getSchema(`https://openapi.test/doc#/components/schemas/${schema}`);
      if (!validate) throw new Error(`no schema ${schema}`);
      const ok = validate(value);
      expect(ok ? [] : validate.errors, `${schema}: ${JSON.stringify(value).slice(0, 200)}`).toEqual([]);
    };
  });
  afterAll(() => s.cleanup());

  it('is valid OpenAPI 3.1 (swagger-parser), version 1.0.0, and the same as openApiDocument(baseUrl)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument(BASE_URL))));
  });

  it('builds its components from the schemas the server validates with', () => {
    expect(componentSchemas.TaxPayload).toBe(TaxPayload);
    expect(componentSchemas.ToolContract).toBe(ToolContract);
    expect(doc.components.schemas.TaxPayload).toEqual(JSON.parse(JSON.stringify(TaxPayload)));
    // swagger-parser checks the document's structure; the JSON Schema meta-schema checks each component.
    const meta = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries<object>(doc.components.schemas)) {
      expect(meta.validateSchema(schema) ? [] : meta.errors, name).toEqual([]);
    }
  });

  it('every documented API operation answers with one of its documented statuses', async () => {
    for (const [template, ops] of Object.entries<any>(doc.paths)) {
      if (STATIC_PATHS.has(template)) continue;
      for (const [method, op] of Object.entries<any>(ops)) {
        const p = template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLE_PARAMS[name] ?? name);
        const query = (op.parameters ?? [])
          .filter((x: any) => x.in === 'query' && x.required)
          .map((x: any) => `${x.name}=email`)
          .join('&');
        const init: RequestInit = { method: method.toUpperCase() };
        if (method === 'post') {
          init.body = JSON.stringify(payload);
          init.headers = { 'content-type': 'application/json' };
        }
        const res = await s.fetch(query ? `${p}?${query}` : p, init);
        expect(Object.keys(op.responses), `${method.toUpperCase()} ${p}`).toContain(String(res.status));
        await res.arrayBuffer();
      }
    }
  });

  it('live responses validate against the documented schemas', async () => {
    check('ToolList', (await s.json('/api/v1/tools')).body);
    check('ToolList', (await s.json('/api/v1/tools?q=email&category=npm')).body);
    check('ToolList', (await s.json('/api/v1/tools?q=email&inputs=text&offline=true')).body);
    check('Trending', (await s.json('/api/v1/tools/trending?limit=20')).body);
    check('PartialContract', (await s.json('/api/v1/tools/npm-axios-v1')).body);
    check('PartialContract', (await s.json('/api/v1/tools/pypi-yagmail-v1')).body);
    const unpaid = await s.post('/api/v1/tools/pypi-yagmail-v1');
    expect(unpaid.status).toBe(402);
    check('PartialContract', unpaid.body);
    check(
      'FullContract',
      (await s.post('/api/v1/tools/pypi-yagmail-v1', { ...payload, validation_vote: 'partial' })).body,
    );
    check('FullContract', (await s.post('/api/v1/tools/npm-axios-v1', { tax_payload: payload })).body);
    check('UnifiedSearch', (await s.json('/api/v1/search?q=email')).body);
    check('ServiceSearch', (await s.json('/api/v1/services/search?q=weather')).body);
    check('ApiManifest', (await s.json('/api/v1/services/sendgrid/mai-api.json')).body);
    check('Health', (await s.json('/health')).body);
    check('AgentDocument', (await s.json('/.well-known/mcp.json')).body);
    for (const p of ['/api/v1/tools/trending?limit=0', '/api/v1/search', '/api/v1/tools?category=x'])
      check('HTTPValidationError', (await s.json(p)).body);
    check('HTTPValidationError', (await s.post('/api/v1/tools/npm-axios-v1', { execution_feedback: 'x' })).body);
    check('ErrorDetail', (await s.json('/api/v1/tools/npm-nope-v1')).body);
    check('ErrorDetail', (await s.json('/api/v1/tools', { method: 'DELETE' })).body);
    check('ErrorDetail', (await s.post('/api/v1/tools/npm-axios-v1', 'a=1', { 'content-type': 'text/plain' })).body);
  });

  it('the 402 example payload is itself a valid TaxPayload', async () => {
    const { body } = await s.post('/api/v1/tools/npm-axios-v1');
    check('TaxPayload', body.tax_required.example);
  });
});

describe('agent discovery documents', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    // Stale static copies, as an old build would have left them: the API must answer live instead.
    await fsp.mkdir(path.join(s.distDir, '.well-known'), { recursive: true });
    const stale = JSON.stringify({ name: 'stale', tools_count: 0 });
    for (const p of ['agent.json', '.well-known/agent.json', '.well-known/mcp.json'])
      await fsp.writeFile(path.join(s.distDir, p), stale);
    await fsp.writeFile(path.join(s.distDir, 'llms.txt'), 'static llms\n');
  });
  afterAll(() => s.cleanup());

  it.each(['/agent.json', '/.well-known/agent.json', '/.well-known/mcp.json'])(
    '%s is served live with current counts',
    async (p) => {
      const { status, body } = await s.json(p);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        name: 'Tool Contract Catalog',
        version: '1.0.0',
        tools_count: s.running.ctx.snapshot.tools.length,
        apis_count: 2,
      });
      expect(body.links.openapi).toBe(`${BASE_URL}/openapi.json`);
      expect(Date.parse(body.generated_at)).toBeGreaterThan(Date.now() - 60_000);
    },
  );

  it('other dist files are still served statically', async () => {
    const res = await s.fetch('/llms.txt');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('static llms\n');
  });
});
