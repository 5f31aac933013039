// Recipe rules found on the failures of the callability evaluation (build/apis/eval/), each on a small
// definition written for it: an array of scalars carries its items' rules, an object field lists its own
// required fields, a map that must not be empty says so, and an example the field's own rules rule out is
// read as the declared type or left out. The request an agent builds from the recipe then meets them.
import { describe, expect, it } from 'vitest';
import { compileApi } from '../../../build/apis/compile.ts';
import { fillValue } from '../../../build/apis/eval/request.ts';
import { fittingExample } from '../../../build/apis/example-fit.ts';
import { type Recipe, validateOperationsFile } from '../../../build/apis/recipe-schema.ts';
import { COMPILED_AT } from './fixtures.ts';

const definition = {
  openapi: '3.0.3',
  info: { title: 'Rules API', version: '1', 'x-providerName': 'rules.example.com' },
  servers: [{ url: 'https://api.rules.example.com' }],
  paths: {
    '/sets/{dataset}': {
      put: {
        operationId: 'putSet',
        parameters: [{ name: 'dataset', in: 'path', required: true, schema: { type: 'string', enum: ['', 'mini'] } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['op'],
                properties: { op: { type: 'string', const: 'create' } },
              },
            },
          },
        },
        responses: { 200: { description: 'The set' } },
      },
    },
    '/members/{memberId}': {
      post: {
        operationId: 'updateMembers',
        parameters: [
          {
            name: 'memberId',
            in: 'path',
            required: true,
            schema: { type: 'string', format: 'uuid' },
            example: '{memberId}',
          },
          {
            name: 'day',
            in: 'query',
            required: true,
            schema: { type: 'string', format: 'date' },
            example: '2025-10-15T13:50:20.724Z',
          },
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 50 }, example: '20' },
          { name: 'since', in: 'query', schema: { type: 'number' }, example: '2025-10-15' },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['accountIds', 'updates', 'tags', 'code'],
                properties: {
                  accountIds: {
                    type: 'array',
                    items: { type: 'string', minLength: 12, maxLength: 12, pattern: '^[0-9]+$' },
                  },
                  subnets: { type: 'array', items: { type: 'string', pattern: '^subnet-[0-9a-f]{8}$' } },
                  updates: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['action', 'predicate'],
                      properties: {
                        action: { type: 'string', enum: ['INSERT', 'DELETE'] },
                        predicate: {
                          type: 'object',
                          required: ['negated', 'type'],
                          properties: {
                            negated: { type: 'boolean' },
                            type: { type: 'string', enum: ['IPMatch', 'GeoMatch'] },
                            dataId: { type: 'string', description: 'optional, not listed at the second level' },
                            deeper: { type: 'object', required: ['x'], properties: { x: { type: 'string' } } },
                          },
                        },
                        note: { type: 'string' },
                      },
                    },
                  },
                  tags: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
                  code: { type: 'string', example: 123456 },
                },
              },
            },
          },
        },
        responses: { 200: { description: 'The members' } },
      },
    },
  },
};

async function compiled(id = 'update_members'): Promise<Recipe> {
  const { operations } = await compileApi({ definition, serviceName: 'rules_api', compiledAt: COMPILED_AT });
  expect(validateOperationsFile(operations)).toEqual([]);
  return operations.operations.find((o) => o.id === id) as Recipe;
}

const param = (r: Recipe, name: string) => r.params.find((p) => p.name === name);

describe('recipe rules', () => {
  it('an array of scalars carries its items’ pattern and lengths, and a value made from them fits', async () => {
    const r = await compiled();
    expect(param(r, 'accountIds')).toMatchObject({
      type: 'array',
      items: 'string',
      pattern: '^[0-9]+$',
      min_length: 12,
      max_length: 12,
    });
    const ids = fillValue(param(r, 'accountIds') as Recipe['params'][number]) as string[];
    expect(ids[0]).toMatch(/^[0-9]{12}$/);
    const subnets = fillValue(param(r, 'subnets') as Recipe['params'][number]) as string[];
    expect(subnets[0]).toMatch(/^subnet-[0-9a-f]{8}$/);
  });

  it('an object field lists its own required fields, one more level and no further', async () => {
    const updates = param(await compiled(), 'updates');
    expect(updates?.fields).toEqual([
      { name: 'action', required: true, type: 'string', enum: ['INSERT', 'DELETE'] },
      {
        name: 'predicate',
        required: true,
        type: 'object',
        fields: [
          { name: 'negated', required: true, type: 'boolean' },
          { name: 'type', required: true, type: 'string', enum: ['IPMatch', 'GeoMatch'] },
        ],
      },
      { name: 'note', required: false, type: 'string' },
    ]);
    expect(fillValue(updates as Recipe['params'][number])).toEqual([
      { action: 'INSERT', predicate: { negated: true, type: 'IPMatch' } },
    ]);
  });

  it('a map that must hold entries says so, and gets one', async () => {
    const tags = param(await compiled(), 'tags');
    expect(tags).toMatchObject({ type: 'object', min_properties: 1 });
    expect(fillValue(tags as Recipe['params'][number])).toEqual({ key: 'value' });
  });

  it('an example the field’s own rules rule out is read as the declared type, or left out', async () => {
    const r = await compiled();
    expect(param(r, 'memberId')?.example).toBeUndefined(); // `{memberId}` is no uuid
    expect(param(r, 'day')?.example).toBeUndefined(); // a date-time is no date
    expect(param(r, 'since')?.example).toBeUndefined(); // a date is no number
    expect(param(r, 'limit')?.example).toBe(20); // "20" read as the number it names
    expect(param(r, 'code')?.example).toBe('123456'); // 123456 for a string, sent as its text
    expect(fillValue(param(r, 'memberId') as Recipe['params'][number])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a path parameter never offers an empty value; `const` is an enum of one', async () => {
    const r = await compiled('put_set');
    expect(param(r, 'dataset')?.enum).toEqual(['mini']);
    expect(param(r, 'op')).toMatchObject({ required: true, type: 'string', enum: ['create'] });
  });

  it('fittingExample: enums, ranges, items and types', () => {
    expect(fittingExample({ type: 'string', enum: ['a', 'b'] }, 'c')).toBeUndefined();
    expect(fittingExample({ type: 'number', maximum: 5 }, 9)).toBeUndefined();
    expect(fittingExample({ type: 'boolean' }, 'true')).toBe(true);
    expect(fittingExample({ type: 'array', items: 'string', format: 'email' }, ['a@b.co'])).toEqual(['a@b.co']);
    expect(fittingExample({ type: 'array', items: 'string', format: 'email' }, ['nope'])).toBeUndefined();
    expect(fittingExample({ type: 'array', items: 'string' }, 'one,two')).toBe('one,two');
    expect(fittingExample({ type: 'object' }, 'text')).toBeUndefined();
    // A pattern in a dialect the unicode mode refuses is read without it; one no engine reads is not held against it.
    expect(fittingExample({ type: 'string', pattern: '[\\w-]+:[0-9a-f-]+' }, 'us-east-1:0af')).toBe('us-east-1:0af');
    expect(fittingExample({ type: 'string', pattern: '(?<!x' }, 'anything')).toBe('anything');
    // A pattern that backtracks without end on the example is stopped and the example left out.
    const started = performance.now();
    expect(fittingExample({ type: 'string', pattern: '^(a|aa)*b$' }, 'a'.repeat(120))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
