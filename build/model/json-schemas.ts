// The JSON Schema files shipped in catalog/schema/, generated from the TypeBox definitions so editors
// validate a contributor's file with exactly the rules `npm run validate` applies.
import { API_SCHEMA_DESCRIPTION, API_SCHEMA_PATH, ApiManifest } from '../apis/manifest.ts';
import { OPERATIONS_SCHEMA_DESCRIPTION, OPERATIONS_SCHEMA_PATH, OperationsFile } from '../apis/recipe-schema.ts';
import { ToolContract } from './contract.ts';

export const SCHEMA_DIALECT = 'http://json-schema.org/draft-07/schema#';

export function schemaFileContent(schema: object, description: string): string {
  return `${JSON.stringify({ $schema: SCHEMA_DIALECT, description, ...schema }, null, 2)}\n`;
}

export function schemaFiles(): { path: string; content: string }[] {
  return [
    {
      path: 'schema/tool.schema.json',
      content: schemaFileContent(
        ToolContract,
        'A tool contract of the Tool Contract Catalog: one file per tool in catalog/tools/<aid>.json. Generated from build/contract.ts by `npm run schema`; do not edit by hand.',
      ),
    },
    { path: API_SCHEMA_PATH, content: schemaFileContent(ApiManifest, API_SCHEMA_DESCRIPTION) },
    { path: OPERATIONS_SCHEMA_PATH, content: schemaFileContent(OperationsFile, OPERATIONS_SCHEMA_DESCRIPTION) },
  ];
}
