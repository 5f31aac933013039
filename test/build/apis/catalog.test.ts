// The committed API catalog: every manifest valid, named after its file, unique, formatted as written,
// and the committed JSON Schema up to date with build/apis/manifest.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_SCHEMA_PATH, type ApiManifest as Manifest, validateManifest } from '../../../build/apis/manifest.ts';
import {
  OPERATIONS_EXTENSION,
  OPERATIONS_FOLDER,
  operationsFilePath,
  readOperationsFile,
} from '../../../build/apis/recipe-schema.ts';
import { checkOperationFiles } from '../../../build/catalog/validate-apis.ts';
import { createAjv } from '../../../build/model/validate-contract.ts';

const CATALOG = path.resolve(import.meta.dirname, '../../../catalog');
const APIS = path.join(CATALOG, 'apis');

const files = readdirSync(APIS)
  .filter((f) => f.endsWith('.json'))
  .sort();
const manifests = files.map((f) => {
  const text = readFileSync(path.join(APIS, f), 'utf8');
  return { file: f, text, value: JSON.parse(text) as Manifest };
});

describe('catalog/apis', () => {
  it('holds the compiled directory (≥ 2,400 manifests), their recipes, nothing else', () => {
    expect(files.length).toBeGreaterThanOrEqual(2400);
    expect(readdirSync(APIS).filter((f) => !f.endsWith('.json'))).toEqual([OPERATIONS_FOLDER]);
    expect(readdirSync(path.join(APIS, OPERATIONS_FOLDER)).sort()).toEqual(
      files.map((f) => f.replace(/\.json$/, OPERATIONS_EXTENSION)),
    );
  });

  it('recipes of a sample of APIs validate, and every intent of theirs has its recipe', () => {
    const sample = files.filter((_, i) => i % 100 === 0).map((f) => f.replace(/\.json$/, ''));
    const recipeFiles = sample.map((id) => ({
      id,
      file: `apis/operations/${id}.json.gz`,
      value: readOperationsFile(operationsFilePath(APIS, id)),
    }));
    const check = checkOperationFiles(
      recipeFiles,
      manifests.map((m) => m.value),
    );
    expect(check.errors).toEqual([]);
    expect(check.valid).toHaveLength(sample.length);
  });

  it('every manifest validates against the schema', () => {
    const invalid = manifests
      .map((m) => ({ file: m.file, errors: validateManifest(m.value) }))
      .filter((r) => r.errors.length > 0);
    expect(invalid.slice(0, 5)).toEqual([]);
  });

  it('service_name equals the file name, and is unique', () => {
    const mismatched = manifests.filter((m) => `${m.value.service_name}.json` !== m.file).map((m) => m.file);
    expect(mismatched).toEqual([]);
    expect(new Set(manifests.map((m) => m.value.service_name)).size).toBe(manifests.length);
  });

  it('files are 2-space JSON with a final newline, and indexable (service, category, tags, intents)', () => {
    for (const m of manifests) {
      expect(m.text, m.file).toBe(`${JSON.stringify(m.value, null, 2)}\n`);
      expect(m.value.manifest.service.length, m.file).toBeGreaterThan(0);
      expect(
        m.value.manifest.intents.every((i) => i.id && i.returns),
        m.file,
      ).toBe(true);
    }
  });

  it('one compile run: a single compiled_at, verified, and manifests far smaller than definitions', () => {
    expect(new Set(manifests.map((m) => m.value.record.compiled_at)).size).toBe(1);
    expect(manifests.every((m) => m.value.record.verified)).toBe(true);
    const def = manifests.reduce((a, m) => a + m.value.record.tokens.definition, 0);
    const man = manifests.reduce((a, m) => a + m.value.record.tokens.manifest, 0);
    expect(def / man).toBeGreaterThan(50);
  });
});

describe(API_SCHEMA_PATH, () => {
  // Up to date with build/apis/manifest.ts: checked with every schema file in test/build/schema-file.test.ts.
  it('gives an editor the same verdict as validateManifest', () => {
    const check = createAjv().compile(JSON.parse(readFileSync(path.join(CATALOG, API_SCHEMA_PATH), 'utf8')));
    const sample = manifests[0]?.value as Manifest;
    expect(check(sample)).toBe(true);
    const bad = { ...sample, service_name: 'Not Snake' };
    expect(check(bad)).toBe(false);
    expect(validateManifest(bad)).toEqual([
      {
        path: '/service_name',
        message: 'must be lowercase snake_case (letters and digits joined by single underscores)',
      },
    ]);
  });
});
