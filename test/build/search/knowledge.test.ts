// Ranking factors beyond the text: popularity and reliability as separate factors, what other
// entries say about a package (mentions, centrality), SDKs <-> API manifest topics, and the
// concept-coverage rule. Real engines over small real-looking catalogs; no mocks.
import { describe, expect, it } from 'vitest';
import type { SearchDocument } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import {
  emptyKnowledgeMemo,
  nameReferences,
  serviceKeyOf,
  serviceTopics,
  withCatalogKnowledge,
} from '../../../build/search/knowledge.ts';
import {
  centralityFactor,
  isStubName,
  maturityFactor,
  popularityFactor,
  popularityLevel,
} from '../../../build/search/rank.ts';

function tool(
  name: string,
  task: string,
  opts: { prior?: number; popularity?: number | null; platform?: string; verified?: boolean } = {},
): SearchDocument {
  const platform = opts.platform ?? 'npm';
  const prior = opts.prior ?? 0.9;
  const id = `${platform}-${name.replace(/[^a-z0-9]+/g, '-').replace(/^-/, '')}-v1`;
  return {
    id,
    kind: 'tool',
    platform,
    prior,
    popularity: opts.popularity ?? null,
    ...(opts.verified ? { verified: true } : {}),
    fields: { name, task },
    display: { name, task, platform, reliability: prior },
  };
}

const TOPICS = [
  'Utility for strings',
  'HTTP client helper',
  'Date formatting utility',
  'CLI argument helper',
  'Color conversion',
];
const FILLER = Array.from({ length: 300 }, (_, i) =>
  tool(`filler-${i}`, `${TOPICS[i % 5]} number ${i}`, { prior: [0.72, 0.86, 0.93, 0.97][i % 4]! }),
);
const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe('ranking factors', () => {
  it('ranks equal matches by popularity, and by reliability when popularity is absent', () => {
    const a = tool('yaml-a', 'YAML parser', { prior: 0.99, popularity: 0.2 });
    const b = tool('yaml-b', 'YAML parser', { prior: 0.86, popularity: 0.995 });
    const withPop = createSearchIndex([...FILLER, a, b]).engine;
    expect(ids(withPop.search('yaml parser').slice(0, 2))).toEqual([b.id, a.id]);
    const none = createSearchIndex([...FILLER, { ...a, popularity: null }, { ...b, popularity: null }]).engine;
    expect(ids(none.search('yaml parser').slice(0, 2))).toEqual([a.id, b.id]);
    // The empty query stays in reliability order whatever the popularity.
    expect(withPop.search('', { limit: 1 })[0]!.id).toBe(a.id);
  });

  it('counts a verified contract as popular as the top 2.5 %: its check says more than downloads', () => {
    expect(popularityFactor(0.5, true)).toBeCloseTo(Math.exp(1.5 * (0.8 - 1)), 10);
    expect(popularityFactor(0.999, true)).toBe(popularityFactor(0.999));
    expect(popularityFactor(null, true)).toBe(popularityFactor(0.97, true));
    // Two verified YAML parsers: reliability decides, not downloads; unverified, downloads decide.
    const a = tool('yaml-a', 'YAML parser', { prior: 0.97, popularity: 0.5, verified: true });
    const b = tool('yaml-b', 'YAML parser', { prior: 0.86, popularity: 0.97, verified: true });
    expect(
      ids(
        createSearchIndex([...FILLER, a, b])
          .engine.search('yaml parser')
          .slice(0, 2),
      ),
    ).toEqual([a.id, b.id]);
    const unverified = [a, b].map(({ verified: _, ...d }) => d);
    expect(
      ids(
        createSearchIndex([...FILLER, ...unverified])
          .engine.search('yaml parser')
          .slice(0, 2),
      ),
    ).toEqual([b.id, a.id]);
  });

  it('counts a verified contract as named by about 15 entries: its check says more than mentions', () => {
    expect(centralityFactor(0, true)).toBeCloseTo(Math.exp(1.5 * (0.8 - 1)), 10);
    expect(centralityFactor(30, true)).toBe(centralityFactor(30));
    expect(centralityFactor(3, false)).toBeLessThan(centralityFactor(3, true));
    // Two verified gzip tools: reliability decides, not how many entries name one; unverified, mentions decide.
    const named = tool('gzkit', 'gzip compress files', { prior: 0.86, verified: true });
    const namers = Array.from({ length: 10 }, (_, i) => tool(`gzkit-preset-${i}`, `Preset number ${i} for Gzkit`));
    const checked = tool('gzpack', 'gzip compress files', { prior: 0.97, verified: true });
    const top2 = (docs: SearchDocument[]) =>
      ids(
        createSearchIndex([...FILLER, ...namers, ...docs])
          .engine.search('gzip compress')
          .slice(0, 2),
      );
    expect(top2([named, checked])).toEqual([checked.id, named.id]);
    const unverified = [named, checked].map(({ verified: _, ...d }) => d);
    expect(top2(unverified)).toEqual([named.id, checked.id]);
  });

  it('lets a match of every concept in the task beat a match of one in the name by a more popular tool', () => {
    const all = tool('sheet-kit', 'Build widget reports from spreadsheets', { prior: 0.8, popularity: 0.5 });
    const one = tool('widget', 'A configurable UI element', { prior: 0.97, popularity: 0.999 });
    const engine = createSearchIndex([...FILLER, all, one]).engine;
    expect(engine.search('widget reports spreadsheets')[0]!.id).toBe(all.id);
  });

  it('measures popularity on a log scale that saturates at the top', () => {
    expect(popularityLevel(1)).toBe(1);
    expect(popularityLevel(0.995)).toBe(1);
    expect(popularityLevel(0.9)).toBeCloseTo(0.5, 5);
    expect(popularityLevel(0.5)).toBeLessThan(popularityLevel(0.9));
    expect(popularityLevel(0)).toBe(0);
    // Unknown popularity counts as the median, never as the top or the bottom.
    expect(popularityFactor(null)).toBe(popularityFactor(0.5));
    expect(popularityFactor(undefined)).toBe(popularityFactor(0.5));
    expect(popularityFactor(Number.NaN)).toBe(popularityFactor(0.5));
  });
});

describe('catalog knowledge', () => {
  const host = tool('lintkit', 'Pluggable analysis for your code');
  const plugins = ['react', 'vue', 'imports', 'promises', 'security', 'jsdoc'].map((p) =>
    tool(`lintkit-plugin-${p}`, `Lint rules about ${p} for Lintkit`),
  );
  const rival = tool('lint-runner', 'Runs lint rules', { prior: 0.97 });

  it('learns what a package is for from the entries that name it', () => {
    const docs = withCatalogKnowledge([...FILLER, host, ...plugins, rival]);
    const h = docs.find((d) => d.id === host.id)!;
    expect(h.mentions).toBe(plugins.length);
    expect(h.fields.about).toContain('lint');
    expect(h.fields.about).toContain('rule');
    // An entry nobody names has no about terms and no mentions.
    expect(docs.find((d) => d.id === rival.id)!.fields.about ?? []).toEqual([]);
  });

  it('reads what the naming entries say as task text is read: "log in" is login', () => {
    const idp = tool('authkit', 'Identity for your apps');
    const namers = ['react', 'vue', 'svelte'].map((p) =>
      tool(`authkit-${p}`, `Log in users of ${p} apps with Authkit`),
    );
    const about = withCatalogKnowledge([...FILLER, idp, ...namers]).find((d) => d.id === idp.id)!.fields.about;
    expect(about).toContain('login');
    expect(about).not.toContain('log');
  });

  it('gives the same documents with a memo of the last run, after entries changed, came and went', () => {
    const memo = emptyKnowledgeMemo();
    const first = [...FILLER, host, ...plugins, rival];
    expect(withCatalogKnowledge(first, { memo })).toEqual(withCatalogKnowledge(first));
    expect(memo.references.size).toBeGreaterThan(0);
    expect(memo.terms.size).toBeGreaterThan(0);
    // A plugin now names the rival, one plugin is gone, a new one names the host.
    const second = [
      ...FILLER,
      host,
      tool('lintkit-plugin-0', 'Lint rules for Lint-runner configs'),
      ...plugins.slice(2),
      tool('lintkit-extra', 'More lint rules for Lintkit'),
      rival,
    ];
    const withMemo = withCatalogKnowledge(second, { memo });
    expect(withMemo).toEqual(withCatalogKnowledge(second));
    expect(withMemo.find((d) => d.id === rival.id)!.mentions).toBe(1);
    // Only this run's entries are kept for the next one.
    const gone = plugins[1]!.fields;
    expect(memo.references.has(`${gone.name}\u0000${gone.task}`)).toBe(false);
    expect(memo.references.has(`lintkit-extra\u0000More lint rules for Lintkit`)).toBe(true);
  });

  it('finds the central package for a need its own summary does not state', () => {
    const engine = createSearchIndex([...FILLER, host, ...plugins, rival]).engine;
    const hits = ids(engine.search('lint rules', { limit: 10 }));
    expect(hits).toContain(host.id);
    // Without the plugins nothing says lintkit is about lint rules.
    expect(ids(createSearchIndex([...FILLER, host, rival]).engine.search('lint rules'))).not.toContain(host.id);
    // A write to the package keeps what others say about it until the next build.
    engine.upsert({ ...host, fields: { ...host.fields, task: 'Pluggable analysis, now faster' } });
    expect(ids(engine.search('lint rules', { limit: 10 }))).toContain(host.id);
  });

  it('reads references from names and name-like words, not from plain English', () => {
    expect(nameReferences('eslint-plugin-react', 'React specific linting rules')).toEqual(
      new Set(['eslint-plugin-react', 'eslint', 'react', 'eslint-plugin', 'plugin-react']),
    );
    expect(nameReferences('@babel/core', 'Babel compiler core.')).toEqual(
      new Set(['@babel/core', 'babel', 'babel-core']),
    );
    const refs = nameReferences('jest-slack-reporter', 'Posts messages in Slack channels with socket.io');
    expect(refs.has('slack')).toBe(true);
    expect(refs.has('socket.io')).toBe(true);
    expect(refs.has('posts')).toBe(false);
    expect(refs.has('messages')).toBe(false);
    // "find" is a package, but most summaries use the word plainly: find-up does not describe it.
    const find = tool('find', 'Find files');
    const users = Array.from({ length: 12 }, (_, i) => tool(`x-${i}`, `Helps you find things number ${i}`));
    const namers = ['find-up', 'find-cache-dir'].map((n) => tool(n, 'Locate a directory upward'));
    const docs = withCatalogKnowledge([...FILLER, find, ...users, ...namers]);
    expect(docs.find((d) => d.id === find.id)!.mentions ?? 0).toBe(0);
  });

  it('counts inflected words as plain uses, not as references to a package', () => {
    // "mock" is a package, but summaries say "mocks" and "mocking": jest-mock-like names do not describe it.
    const mock = tool('mock', 'Mock objects');
    const inflected = Array.from({ length: 12 }, (_, i) => tool(`double-${i}`, `Test doubles and mocking, kind ${i}`));
    const mockNamers = Array.from({ length: 10 }, (_, i) => tool(`mock-thing-${i}`, 'Fake servers'));
    // A host package keeps its mentions: summaries write it as a name ("for Lintkit").
    const docs = withCatalogKnowledge([...FILLER, mock, ...inflected, ...mockNamers, host, ...plugins]);
    expect(docs.find((d) => d.id === mock.id)!.mentions ?? 0).toBe(0);
    expect(docs.find((d) => d.id === host.id)!.mentions).toBe(plugins.length);
    // Without the plain uses, the same names count as references.
    const counted = withCatalogKnowledge([...FILLER, mock, ...mockNamers]);
    expect(counted.find((d) => d.id === mock.id)!.mentions).toBe(mockNamers.length);
    // Acronyms in capitals are not plain uses (they read as names, as before): "TAR" does not make tar a word.
    const tar = tool('tar', 'Tar archives');
    const caps = Array.from({ length: 12 }, (_, i) => tool(`pack-${i}`, `Read TAR files, kind ${i}`));
    const tarNamers = Array.from({ length: 4 }, (_, i) => tool(`tar-thing-${i}`, 'Archive helpers'));
    const withCaps = withCatalogKnowledge([...FILLER, tar, ...caps, ...tarNamers]);
    expect(withCaps.find((d) => d.id === tar.id)!.mentions).toBe(caps.length + tarNamers.length);
  });

  it('gives an SDK named after a web service the topics of its API manifest', () => {
    expect(serviceKeyOf('@slack/web-api')).toBe('slack');
    expect(serviceKeyOf('slack-sdk')).toBe('slack');
    expect(serviceKeyOf('stripe-python')).toBe('stripe');
    expect(serviceKeyOf('py-stripe')).toBe('stripe');
    const services = serviceTopics([
      { service_name: 'paymo_api', category: 'payments', tags: ['payments', 'billing', 'invoices'] },
      { service_name: 'bigcloud_storage_v1_api', category: 'cloud', tags: ['cloud', 'storage'] },
    ]);
    expect(services.get('paymo')).toEqual(['payments', 'billing', 'invoices']);
    // The resources its operations act on join the topics; verbs, ids, versions and the service's own name do not.
    const withOps = serviceTopics([
      {
        service_name: 'paymo_api',
        category: 'payments',
        tags: ['payments'],
        manifest: {
          intents: [
            { id: 'post_v1_invoices' },
            { id: 'get_invoices_invoice_id' },
            { id: 'list_customers' },
            { id: 'delete_customers_id' },
            { id: 'get_paymo_status' },
          ],
        },
      },
    ]);
    expect(withOps.get('paymo')).toEqual(['payments', 'customers', 'invoices', 'invoice', 'status']);
    const sdk = tool('paymo', 'API wrapper', { popularity: 0.9 });
    const other = tool('charge-helper', 'Helpers for payments forms', { popularity: 0.9 });
    const without = createSearchIndex([...FILLER, sdk, other]).engine;
    expect(ids(without.search('billing invoices'))).not.toContain(sdk.id);
    const engine = createSearchIndex([...FILLER, sdk, other], { services }).engine;
    expect(engine.search('billing invoices')[0]!.id).toBe(sdk.id);
  });
});

describe('maturity', () => {
  it('ranks a 0.0.x release below a mature one for the same match, and leaves unknown versions alone', () => {
    expect(maturityFactor('2.3.1')).toBe(1);
    expect(maturityFactor('2024.1.0')).toBe(1);
    expect(maturityFactor('0.12.0')).toBe(1);
    expect(maturityFactor(null)).toBe(1);
    expect(maturityFactor('nightly')).toBe(1);
    expect(maturityFactor('0.0.3')).toBeLessThan(maturityFactor('0.5.0'));
    expect(maturityFactor('0.5.0')).toBeLessThan(1);
    const young = { ...tool('yaml-young', 'YAML parser', { prior: 0.9 }), version: '0.0.2' };
    const mature = { ...tool('yaml-mature', 'YAML parser', { prior: 0.9 }), version: '3.1.0' };
    const engine = createSearchIndex([...FILLER, young, mature]).engine;
    expect(ids(engine.search('yaml parser').slice(0, 2))).toEqual([mature.id, young.id]);
  });
});

describe('type stubs and machine-named builds', () => {
  it('tells declaration-only and hash-named packages from tools', () => {
    for (const n of ['@types/react', 'types-requests', 'boto3-stubs', 'mypy-boto3-s3', 'types-aiobotocore-sqs'])
      expect(isStubName(n), n).toBe(true);
    expect(isStubName('@codingame/monaco-vscode-34f8ce27-c826-53e1-8ee1-588f6e115bd7-common')).toBe(true);
    for (const n of ['react', 'typescript', 'type-fest', 'prop-types', 'sha256', 'deadbeefcafe', 'base64-js', 'md5'])
      expect(isStubName(n), n).toBe(false);
  });

  it('ranks a type-declaration package below the tool it declares for the same words', () => {
    // Names that do not mention each other (a stub naming its package would raise the package's centrality).
    const stub = tool('@types/toasty', 'Show toast notifications', { prior: 0.97 });
    const real = tool('snackbar', 'Show toast notifications', { prior: 0.9 });
    const engine = createSearchIndex([...FILLER, stub, real]).engine;
    expect(ids(engine.search('toast notifications').slice(0, 2))).toEqual([real.id, stub.id]);
  });
});
