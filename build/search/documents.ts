// What the search engines index: a SearchDocument is a flat, source-neutral view of one catalog
// entry (a tool contract today, a web-API manifest in a second engine instance later), with the
// fields that carry meaning for search, a prior in [0,1] and the few fields a result list shows.
// Exports:
//   documentFromContract(contract)      ToolContract -> SearchDocument (kind 'tool')
//   documentFromApiManifest(manifest)   ApiManifestLike -> SearchDocument (kind 'api')
//   analyzeDocument(doc)                -> AnalyzedDocument (term frequencies per field, field lengths)
//   averageLengths(analyzed[])          -> per-field average lengths (BM25 length normalisation)
//   termWeights(analyzed, avgLens)      -> [term, integer weight][]: the postings of one document
import type { ToolContract } from '../model/contract.ts';
import { absenceTerms } from './absence.ts';
import { directionPairs } from './direction.ts';
import { readTerms } from './reads.ts';
import { takesTerms } from './values.ts';
import { readsFileTerms } from './file-mentions.ts';
import { writesFolderTerms } from './output-folder.ts';
import { documentFactor, FIELD_NAMES, type FieldName, fieldTf, isStubName, postingWeight } from './rank.ts';
import { analyzeProse } from './phrasal.ts';
import { analyze, nameKey } from './tokenize.ts';
import { rankingPrior } from '../model/views.ts';

export type SearchKind = 'tool' | 'api';

export interface SearchDocument {
  /** The aid for tools, the manifest id for APIs; unique within one engine. */
  id: string;
  kind: SearchKind;
  /** Registry for tools (npm, pypi, github, catalog), category-free "api" or similar for APIs. */
  platform: string;
  /** Reliability in [0,1] (trust.reliability_score for tools): a ranking factor and the empty-query order. */
  prior: number;
  /** Download percentile within its platform in [0,1] (trust.popularity), null or absent when unknown. */
  popularity?: number | null;
  /** The contract passed verification (record.verification.status): it was installed and ran or loaded here. */
  verified?: boolean;
  /** How many other entries name this one (knowledge.ts); 0 or absent when none. */
  mentions?: number;
  /** Released version (identity.version), null or absent when unknown: its maturity is a ranking factor. */
  version?: string | null;
  fields: {
    name: string;
    /** Other names the entry answers to (API intent ids, former names). Indexed like the name. */
    aliases?: string[];
    /** One sentence of what it does (contract identity.task, API description). */
    task?: string;
    tags?: string[];
    /** Install/execute commands; only their non-boilerplate words are indexed. */
    commands?: string[];
    /** Input/output schema types, API return types. */
    types?: string[];
    /** Formats the command reads, as read terms (`<markdown`, reads.ts); indexed verbatim with the types. */
    reads?: string[];
    /** How many values the command takes, as the terms `#1` … `#n` (values.ts), `#file` if it reads a file
     * (file-mentions.ts) and `#dir` if it writes into a folder (output-folder.ts); indexed verbatim in the key field. */
    takes?: string[];
    /** Analysed terms other entries contribute (knowledge.ts withCatalogKnowledge); indexed verbatim. */
    about?: string[];
    /** Words glued in the name ("prettyjson": pretty, json; name-parts.ts), indexed like the name. */
    nameParts?: string[];
  };
  /** What a result list shows; shipped in the static doc-store shards. */
  display: { name: string; task: string; platform: string; reliability: number };
}

/** Descriptions are instructions for a model and can run to pages: the first sentence says what the tool does. */
const MCP_DESCRIPTION_CHARS = 200;
const firstSentence = (text: string) => clip(text.split(/(?<=[.!?])\s|\n/)[0] ?? '', MCP_DESCRIPTION_CHARS);

/**
 * An MCP server's listed tools, indexed the way an API's operations are: tool names as aliases (`read_file`
 * as "read file"), the first sentence of each description appended to the task.
 */
function mcpToolText(c: ToolContract): { aliases: string[]; task: string[] } {
  const tools = c.logic.mcp?.tools ?? [];
  return {
    aliases: tools.map((t) => t.name.replace(/[_.\-/]+/g, ' ')),
    task: tools.map((t) => firstSentence(t.description ?? t.title ?? '')).filter(Boolean),
  };
}

// The version range an install pins (`sharp@0.33`, `yaml==2.*`, `x~=1.4`): it says which release, not what the tool
// does, and its digits would meet the numbers of a need ("the next 5 times").
const VERSION_SPEC = /(?:@|==|~=|>=)[~^]?\d[\w.*+-]*/g;

export function documentFromContract(c: ToolContract): SearchDocument {
  const id = c.identity;
  const types = [c.logic.input_schema.type, c.logic.output_schema.type].filter((t) => t !== 'any');
  const install = c.action.install_cmd?.replace(VERSION_SPEC, '') ?? null;
  const commands = [install, c.action.execute_cmd].filter((x): x is string => typeof x === 'string');
  const mcp = mcpToolText(c);
  const task = [id.task ?? '', ...mcp.task].filter(Boolean).join('. ');
  const reads = readTerms(c);
  const takes = [...takesTerms(c), ...readsFileTerms(c), ...writesFolderTerms(c)];
  return {
    id: id.aid,
    kind: 'tool',
    platform: id.platform,
    prior: rankingPrior(c),
    popularity: c.trust.popularity ?? null,
    verified: c.record?.verification?.status === 'passed',
    version: id.version ?? null,
    fields: {
      name: id.name,
      ...(mcp.aliases.length ? { aliases: mcp.aliases } : {}),
      task,
      tags: id.tags ?? [],
      commands,
      types,
      ...(reads.length ? { reads } : {}),
      ...(takes.length ? { takes } : {}),
    },
    display: {
      name: id.name,
      task: clip(id.task ?? '', 160),
      platform: id.platform,
      reliability: c.trust.reliability_score,
    },
  };
}

/** The parts of an API manifest search needs; structural so the manifest module can evolve freely. */
export interface ApiManifestLike {
  id: string;
  name: string;
  description?: string;
  category?: string;
  tags?: string[];
  intents?: { id: string; summary?: string; returns?: string }[];
  reliability?: number;
}

export function documentFromApiManifest(m: ApiManifestLike): SearchDocument {
  const intents = m.intents ?? [];
  const summaries = intents.map((i) => i.summary ?? '').filter(Boolean);
  const task = [m.description ?? '', ...summaries].filter(Boolean).join('. ');
  const prior = typeof m.reliability === 'number' ? m.reliability : 0.5;
  return {
    id: m.id,
    kind: 'api',
    platform: 'api',
    prior,
    fields: {
      name: m.name,
      aliases: intents.map((i) => i.id.replace(/[_.]+/g, ' ')),
      task,
      tags: [m.category ?? '', ...(m.tags ?? [])].filter(Boolean),
      types: intents.map((i) => i.returns ?? '').filter(Boolean),
    },
    display: { name: m.name, task: clip(m.description ?? task, 160), platform: 'api', reliability: prior },
  };
}

function clip(s: string, n: number): string {
  const t = s.trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
}

// Command words say how to install, not what the tool does; indexing them would put every
// document in the posting lists of "npm" and "install".
const COMMAND_WORDS = new Set([
  'npm',
  'npx',
  'pip',
  'pip3',
  'instal',
  'install',
  'run',
  'python',
  'python3',
  'node',
  'uv',
  'uvx',
  'pipx',
  'yarn',
  'pnpm',
  'add',
  'global',
  'exec',
  'bin',
  'bun',
  'bunx',
  'deno',
  'cargo',
  'go',
  'docker',
  'save',
  'dev',
  'upgrad',
  'user',
  'tool',
]);

export interface AnalyzedDocument {
  id: string;
  prior: number;
  popularity: number | null;
  verified: boolean;
  mentions: number;
  version: string | null;
  stub: boolean;
  platform: string;
  /** Distinct terms, in first-seen order. */
  terms: string[];
  /** Per term: its tf in each field, FIELD_BITS bits per field in FIELD_NAMES order (saturating). */
  packed: number[];
  /** Field lengths in terms, FIELD_NAMES order. */
  lens: number[];
  /** The knowledge it was analysed with (about terms, name parts), joined (to tell when knowledge changed). */
  about: string;
}

// Packed per-field counts keep analysis to two arrays per document: 100k documents otherwise
// spend more time collecting garbage than tokenizing. 7 fields x 4 bits fit a 32-bit integer.
const FIELD_BITS = 4;
const FIELD_MAX = (1 << FIELD_BITS) - 1;

/** tf of field `i` (FIELD_NAMES index) from a packed value. */
export function fieldCount(packed: number, i: number): number {
  return (packed >>> (FIELD_BITS * i)) & FIELD_MAX;
}

export function analyzeDocument(doc: SearchDocument): AnalyzedDocument {
  const f = doc.fields;
  const perField: Record<FieldName, string[]> = {
    name: [f.name, ...(f.aliases ?? []), ...(f.nameParts ?? [])].flatMap((s) => analyze(s, { name: true })),
    key: [f.name]
      .map(nameKey)
      .filter(Boolean)
      .map((k) => `=${k}`)
      // The field has no length normalisation (b = 0): these terms leave every other weight as it was. Also what
      // the task says is absent (absence.ts).
      .concat(f.takes ?? [], absenceTerms(f.task ?? '')),
    // The task's words, then the conversion directions it states (direction.ts: "markdown>html").
    task: [...analyzeProse(f.task ?? ''), ...directionPairs(f.task ?? '')],
    tags: (f.tags ?? []).flatMap((t) => analyze(t)),
    commands: (f.commands ?? []).flatMap((c) => analyze(c, { name: true })).filter((t) => !COMMAND_WORDS.has(t)),
    types: [...(f.types ?? []).flatMap((t) => analyze(t)), ...(f.reads ?? [])],
    about: f.about ?? [],
  };
  const index = new Map<string, number>();
  const terms: string[] = [];
  const packed: number[] = [];
  const lens: number[] = [];
  FIELD_NAMES.forEach((field, i) => {
    const list = perField[field];
    lens.push(list.length);
    const shift = FIELD_BITS * i;
    for (const t of list) {
      let k = index.get(t);
      if (k === undefined) {
        k = terms.length;
        index.set(t, k);
        terms.push(t);
        packed.push(0);
      }
      const v = packed[k]!;
      if (((v >>> shift) & FIELD_MAX) < FIELD_MAX) packed[k] = v + (1 << shift);
    }
  });
  const about = knowledgeSignature(doc);
  const { id, prior, platform } = doc;
  return {
    id,
    prior,
    popularity: doc.popularity ?? null,
    verified: doc.verified === true,
    mentions: doc.mentions ?? 0,
    version: doc.version ?? null,
    stub: doc.kind === 'tool' && isStubName(doc.fields.name),
    platform,
    terms,
    packed,
    lens,
    about,
  };
}

/** The catalog knowledge a document carries (about terms, name parts), as one string to compare analyses by. */
export function knowledgeSignature(doc: SearchDocument): string {
  return [...(doc.fields.about ?? []), '|', ...(doc.fields.nameParts ?? [])].join(' ');
}

export function averageLengths(docs: Iterable<AnalyzedDocument>): number[] {
  const sum = new Array<number>(FIELD_NAMES.length).fill(0);
  let n = 0;
  for (const d of docs) {
    n++;
    d.lens.forEach((l, i) => {
      sum[i] = (sum[i] ?? 0) + l;
    });
  }
  return sum.map((s) => (n ? s / n : 0));
}

/** Fields holding program text rather than a description (FIELD_NAMES indexes): see RANK.codeCover. */
const CODE_FIELDS = new Set([FIELD_NAMES.indexOf('commands'), FIELD_NAMES.indexOf('types')]);

/** The document's postings: each distinct term with its integer BM25F-times-document-factor weight. */
export function termWeights(a: AnalyzedDocument, avgLens: readonly number[]): [string, number][] {
  const out: [string, number][] = [];
  const nf = FIELD_NAMES.length;
  const docFactor = documentFactor(a);
  for (let k = 0; k < a.terms.length; k++) {
    const p = a.packed[k]!;
    let tfw = 0;
    let codeOnly = true;
    for (let i = 0; i < nf; i++) {
      const tf = fieldCount(p, i);
      if (tf === 0) continue;
      tfw += fieldTf(FIELD_NAMES[i]!, tf, a.lens[i] ?? 0, avgLens[i] ?? 0);
      if (!CODE_FIELDS.has(i)) codeOnly = false;
    }
    out.push([a.terms[k]!, postingWeight(tfw, docFactor, codeOnly)]);
  }
  return out;
}
