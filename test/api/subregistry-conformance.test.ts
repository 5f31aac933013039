// Property: whatever a valid MCP-server contract holds (odd names, long or blank-looking tasks, any transport,
// URLs, arguments, environment variables, versions), its subregistry entry validates against the official
// registry's ServerResponse schema and its name matches the official pattern.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ToolContract } from '../../build/model/contract.ts';
import { validateContract } from '../../build/model/validate-contract.ts';
import { mcpRegistryName, REGISTRY_NAME_PATTERN } from '../../build/model/mcp-registry-name.ts';
import { entryVersion, registryStatus, serverResponse, updatedAtOf } from '../../api/services/mcp-server-json.ts';

const OFFICIAL_OPENAPI = path.resolve(import.meta.dirname, '../fixtures/mcp-registry/openapi.yaml');

const text = (min: number, max: number) => fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
const date = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

const contract = fc
  .record({
    platform: fc.constantFrom('npm', 'pypi', 'github', 'catalog'),
    name: text(1, 214),
    version: fc.option(fc.stringMatching(/^[0-9A-Za-z.+-]{1,40}$/), { nil: null }),
    task: fc.option(fc.oneof(text(1, 500), fc.constantFrom('   ', '\t\n', 'word '.repeat(100))), { nil: undefined }),
    status: fc.constantFrom('active', 'degraded', 'review', 'deprecated', 'dead'),
    transport: fc.constantFrom('stdio', 'streamable-http', 'sse'),
    url: fc.option(
      fc.constantFrom('https://mcp.example.com/mcp', 'http://localhost:8080/mcp', 'http://127.0.0.1:9/sse'),
      { nil: undefined },
    ),
    source: fc.constantFrom(
      'https://www.npmjs.com/package/x',
      'https://github.com/Owner_1/repo.name',
      'https://gitlab.com/g/p',
      'https://example.org/',
    ),
    args: fc.array(text(0, 40), { maxLength: 4 }),
    env: fc.array(
      fc.record({
        name: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/),
        description: fc.option(text(0, 80), { nil: undefined }),
        is_required: fc.option(fc.boolean(), { nil: undefined }),
        is_secret: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { maxLength: 3 },
    ),
    readAt: fc.option(date, { nil: null }),
    execute: fc.constantFrom(null, 'npx x', 'uvx x', 'node server.js'),
  })
  .map(
    (r): ToolContract => ({
      identity: {
        aid: 'npm-generated-v1',
        name: r.name,
        version: r.version,
        ...(r.task === undefined ? {} : { task: r.task }),
        platform: r.platform,
        kind: 'mcp_server',
        license: 'MIT',
      },
      logic: {
        input_schema: { type: 'object' },
        output_schema: { type: 'json' },
        mcp: {
          transport: r.transport,
          ...(r.url ? { url: r.url } : {}),
          arguments: r.args,
          env_vars: r.env,
          tools_read_at: r.readAt,
          tools: [{ name: 't', description: r.task ?? '', hash: `sha256:${'0'.repeat(64)}` }],
        },
      },
      trust: { reliability_score: 0.5, latency_ms: null, status: r.status },
      action: { source_url: r.source, install_cmd: null, execute_cmd: r.execute },
    }),
  );

describe('subregistry entries of any valid MCP-server contract', () => {
  let validate: (value: unknown) => boolean;
  let errors: () => unknown;
  beforeAll(async () => {
    const official = parseYaml(await fsp.readFile(OFFICIAL_OPENAPI, 'utf8'));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'https://mcp-registry.test/openapi', components: official.components });
    const v = ajv.getSchema('https://mcp-registry.test/openapi#/components/schemas/ServerResponse');
    if (!v) throw new Error('no ServerResponse in the official document');
    validate = (value) => v(value) as boolean;
    errors = () => v.errors;
  });

  it('validate against the official ServerResponse schema', () => {
    fc.assert(
      fc.property(contract, (c) => {
        // Only contracts our own schema accepts are in a catalog.
        fc.pre(validateContract(c).length === 0);
        const name = mcpRegistryName(c);
        expect(name).toMatch(REGISTRY_NAME_PATTERN);
        const entry = serverResponse(
          c,
          { name, version: entryVersion(c), status: registryStatus(c), updatedAt: updatedAtOf(c), isLatest: true },
          'https://catalog.example',
        );
        const ok = validate(entry);
        expect(ok ? [] : errors(), JSON.stringify(entry).slice(0, 400)).toEqual([]);
        expect(entry.server.description.length).toBeGreaterThan(0);
        expect(entry.server.description.length).toBeLessThanOrEqual(100);
      }),
      { numRuns: 300 },
    );
  });
});
