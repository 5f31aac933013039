// Valid API manifests for tests, and writing them into a temporary catalog's apis/ folder.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { ApiManifest } from '../../build/apis/manifest.ts';
import type { Recipe } from '../../build/apis/recipe-schema.ts';

type Patch = Partial<Omit<ApiManifest, 'manifest' | 'record'>> & {
  manifest?: Partial<ApiManifest['manifest']>;
  record?: Partial<ApiManifest['record']>;
};

export function sampleManifest(name: string, patch: Patch = {}): ApiManifest {
  const { manifest, record, ...top } = patch;
  return {
    service_name: name,
    category: 'email',
    tags: ['email'],
    source_url: `https://api.apis.guru/v2/specs/${name}/1.0.0/openapi.json`,
    manifest: {
      service: `${name} service`,
      base_url: `https://api.${name.replace(/_api$/, '').replace(/_/g, '')}.com/v1`,
      auth: { type: 'bearer', header: 'Authorization' },
      intents: [
        {
          id: 'send_message',
          method: 'POST',
          path: '/messages',
          params: { to: 'string' },
          returns: 'the created message',
        },
      ],
      ...manifest,
    },
    trust: { reliability_score: 0.9 },
    record: {
      verified: true,
      compiled_at: '2026-01-01T00:00:00Z',
      tokens: { definition: 5000, manifest: 100 },
      ...record,
    },
    ...top,
  };
}

export async function writeManifest(catalogDir: string, m: unknown, name?: string): Promise<string> {
  const dir = path.join(catalogDir, 'apis');
  await fsp.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name ?? (m as ApiManifest).service_name}.json`);
  await fsp.writeFile(file, `${JSON.stringify(m, null, 2)}\n`);
  return file;
}

/** Recipes matching sampleManifest's one intent (send_message), plus one more operation. */
export function sampleRecipes(): Recipe[] {
  return [
    {
      id: 'send_message',
      method: 'POST',
      path: '/messages',
      summary: 'Send a message',
      content_type: 'application/json',
      params: [{ name: 'to', in: 'body', required: true, type: 'string', format: 'email' }],
      returns: 'the created message',
      auth: [['bearer']],
    },
    {
      id: 'get_message',
      method: 'GET',
      path: '/messages/{id}',
      params: [{ name: 'id', in: 'path', required: true, type: 'string' }],
      returns: 'one message',
      auth: [['bearer']],
    },
  ];
}
