// The CDN's `_headers` gives every HTML page of dist/ the same Content-Security-Policy the API server sends
// with it (one definition, build/discovery/csp.ts), and the search page keeps its script allowance: no
// catch-all rule whose policy the host would add on top.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../api/http/security-headers.ts';
import { build } from '../../build/pipeline/build.ts';
import { sampleContract, type TempCatalog, tempCatalog } from '../helpers/temp-catalog.ts';

/** `_headers` as rules: path pattern → headers (Netlify / Cloudflare Pages syntax). */
function parseHeaders(text: string): { pattern: string; headers: Map<string, string> }[] {
  const rules: { pattern: string; headers: Map<string, string> }[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) {
      rules.push({ pattern: line.trim(), headers: new Map() });
      continue;
    }
    const i = line.indexOf(':');
    rules.at(-1)?.headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return rules;
}

const matches = (pattern: string, urlPath: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(urlPath);

async function htmlFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, e.name);
    if (e.isDirectory()) out.push(...(await htmlFiles(dir, rel)));
    else if (e.name.endsWith('.html')) out.push(rel);
  }
  return out;
}

describe('_headers Content-Security-Policy', () => {
  let cat: TempCatalog;
  beforeAll(async () => {
    cat = await tempCatalog([sampleContract('npm-alpha-v1'), sampleContract('npm-beta-v1')]);
    await build({ catalogDir: cat.catalogDir, distDir: cat.distDir, baseUrl: 'https://catalog.example' });
  });
  afterAll(() => cat?.cleanup());

  it('gives every HTML page exactly one policy, the one the server sends for that path', async () => {
    const rules = parseHeaders(await fsp.readFile(path.join(cat.distDir, '_headers'), 'utf8'));
    const pages = (await htmlFiles(cat.distDir)).map((f) => `/${f.replace(/index\.html$/, '')}`);
    expect(pages).toEqual(
      expect.arrayContaining(['/', '/search/', '/tools/npm-alpha-v1/', '/llmo-apis/', '/mai-api/']),
    );
    for (const page of pages) {
      const policies = rules
        .filter((r) => matches(r.pattern, page))
        .map((r) => r.headers.get('content-security-policy'))
        .filter(Boolean);
      expect(policies, page).toEqual([contentSecurityPolicy(page)]);
    }
    expect(contentSecurityPolicy('/search/')).toContain("script-src 'self'");
  });
});
