// The committed JSON Schema is exactly what the TypeBox definitions generate, and validates like them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaFiles } from '../../build/model/json-schemas.ts';
import { createAjv, validateContract } from '../../build/model/validate-contract.ts';
import { sampleContract } from '../helpers/temp-catalog.ts';

const CATALOG = path.resolve(import.meta.dirname, '../../catalog');

describe('catalog/schema files', () => {
  for (const f of schemaFiles()) {
    it(`${f.path} is up to date with the TypeScript types (npm run schema)`, () => {
      expect(readFileSync(path.join(CATALOG, f.path), 'utf8')).toBe(f.content);
    });
  }

  it('the shipped tool schema gives an editor the same verdict as the validator', () => {
    const schema = JSON.parse(readFileSync(path.join(CATALOG, 'schema/tool.schema.json'), 'utf8'));
    const check = createAjv().compile(schema);
    const good = { $schema: '../schema/tool.schema.json', ...sampleContract('npm-a-v1') };
    const bad = sampleContract('npm-b-v1', { action: { install_cmd: 3 as never } });
    expect(check(good)).toBe(true);
    expect(validateContract(good)).toEqual([]);
    expect(check(bad)).toBe(false);
    expect(validateContract(bad)).not.toEqual([]);
  });
});
