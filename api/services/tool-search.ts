// Ranking for the API, behind one seam: every route that ranks tools or API manifests calls this file.
// It delegates to build/search's engine (BM25F over name/task/tags/commands/types, expansions learned
// from the catalog itself, reliability baked in as a prior, the same scores as the static search), so
// the dynamic and static searches agree. Routes never import build/search directly.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ContractKind, Platform, ToolContract } from '../../build/model/contract.ts';
import {
  type HeldInputRole,
  heldFiles,
  inputsFit,
  placeholderRoles,
  requiredFiles,
} from '../../build/model/input-roles.ts';
import { runsOffline } from '../../build/model/offline.ts';
import { type ApiManifestLike, documentFromApiManifest, documentFromContract } from '../../build/search/documents.ts';
import { createSearchIndex } from '../../build/search/engine.ts';
import { RANK } from '../../build/search/rank.ts';
import { readExpansions } from '../../build/search/expand.ts';
import { declaredReads, formatTerms, isBinaryFormat, readsHeld, readsOnlyBinary } from '../../build/search/reads.ts';
import { serviceTopics } from '../../build/search/knowledge.ts';
import type { Expansions } from '../../build/search/plan.ts';
import type { Snapshot } from '../../build/catalog/snapshot.ts';
import { isListable } from '../../build/model/views.ts';

export interface ToolSearch {
  /**
   * Empty query: the top tools by reliability. Otherwise relevance combined with reliability. `inputs`: only
   * tools whose command has a placeholder for each of these held inputs (build/model/input-roles.ts);
   * `offline`: only tools that need neither the internet nor credentials (build/model/offline.ts).
   */
  search(q: string, options: ToolSearchOptions): ToolContract[];
  upsert(contract: ToolContract): void;
  remove(aid: string): void;
}

export interface ToolSearchOptions {
  platform?: Platform | '';
  limit: number;
  kind?: ContractKind;
  inputs?: readonly HeldInputRole[];
  /** Formats (or extensions) of the files the caller holds: a tool declaring only other read formats ranks lower. */
  formats?: readonly string[];
  offline?: boolean;
}

export interface ApiSearch {
  /** Ids (service names) best first; empty query: the top by reliability. */
  search(q: string, limit: number): string[];
  upsert(manifest: ApiManifestLike): void;
  remove(id: string): void;
}

export { isListable } from '../../build/model/views.ts';

/** What search learns from a web-API manifest about the SDKs named after its service. */
export type ApiTopics = { service_name: string; category?: string; tags?: string | string[] };

/**
 * The expansion table the static build learned (dist/search/expansions.json): loading it skips a pass
 * over the catalog at start-up and keeps the API's expansions identical to the static search's.
 */
export function builtExpansions(distDir: string): Expansions | undefined {
  const file = path.join(distDir, 'search', 'expansions.json');
  if (!existsSync(file)) return undefined;
  try {
    return readExpansions(file);
  } catch {
    return undefined;
  }
}

export function createToolSearch(
  snapshot: Snapshot,
  options: { expansions?: Expansions; apis?: readonly ApiTopics[] } = {},
): ToolSearch {
  const listed = snapshot.tools.filter(isListable);
  const byAid = new Map(listed.map((c) => [c.identity.aid, c]));
  // The topics of each web API ("stripe" -> payments …) tell search what an SDK named after it is for; the
  // static build adds the same (build/pipeline/build.ts), so both searches rank alike.
  const services = serviceTopics(
    (options.apis ?? []).map((a) => ({ ...a, tags: typeof a.tags === 'string' ? [a.tags] : a.tags })),
  );
  // The empty query (the default listing) is cached by the engine until its next write.
  const { engine } = createSearchIndex(listed.map(documentFromContract), {
    ...(options.expansions ? { expansions: options.expansions } : {}),
    services,
  });
  // Placeholder roles and required files per tool, computed when the tool is added (a filter and a weight run on
  // every scored candidate).
  const placesOf = (c: ToolContract) => {
    const roles = placeholderRoles(c);
    const reads = declaredReads(c);
    return { roles, files: requiredFiles(c, roles), binary: readsOnlyBinary(reads), reads };
  };
  const placesByAid = new Map<string, ReturnType<typeof placesOf>>(listed.map((c) => [c.identity.aid, placesOf(c)]));
  const needsOutside = new Set(listed.filter((c) => !runsOffline(c)).map((c) => c.identity.aid));
  const forget = (aid: string) => {
    byAid.delete(aid);
    placesByAid.delete(aid);
    needsOutside.delete(aid);
    engine.remove(aid);
  };
  return {
    search: (q, { platform, limit, kind, inputs = [], formats: heldFormats = [], offline = false }) => {
      // An absent identity.kind is a tool.
      const kindOk = (id: string) => !kind || (byAid.get(id)?.identity.kind ?? 'tool') === kind;
      // The filter and the weight both ask for a candidate's fit: worked out once per candidate.
      const fits = new Map<string, ReturnType<typeof inputsFit>>();
      const fitOf = (id: string) => {
        let fit = fits.get(id);
        if (fit === undefined) fits.set(id, (fit = inputsFit(placesByAid.get(id)?.roles ?? [], inputs)));
        return fit;
      };
      const offlineOk = (id: string) => !offline || !needsOutside.has(id);
      const filtered = kind || inputs.length > 0 || offline;
      // A tool that takes a held text file only as its text ranks below one that reads it as a file: commands
      // taking any {text} match many needs by their words alone. One that must read more files than the agent
      // holds ranks below too: the agent cannot fill it.
      const byContent = inputs.includes('text_file');
      const files = heldFiles(inputs);
      const formats = heldFormats.flatMap(formatTerms);
      // A file the caller calls text but names as a binary format (a small uncompressed PDF is ASCII) is that format.
      const textOnly = byContent && !inputs.includes('input_file') && !formats.some(isBinaryFormat);
      const weight = (id: string) => {
        const places = placesByAid.get(id);
        return (
          (byContent && fitOf(id) === 'content' ? RANK.contentFit : 1) *
          ((places?.files ?? 0) > files ? RANK.missingFile : 1) *
          (textOnly && places?.binary ? RANK.binaryForText : 1) *
          (places && !readsHeld(places.reads, formats) ? RANK.formatMismatch : 1)
        );
      };
      return engine
        .search(q, {
          limit,
          ...(platform ? { platform } : {}),
          ...(inputs.length > 0 ? { saysInputs: true } : {}),
          ...(filtered ? { filter: (id: string) => kindOk(id) && offlineOk(id) && fitOf(id) !== null } : {}),
          ...(inputs.length > 0 || formats.length > 0 ? { weight } : {}),
        })
        .map((h) => byAid.get(h.id))
        .filter((c): c is ToolContract => c !== undefined);
    },
    upsert(c) {
      if (!isListable(c)) {
        forget(c.identity.aid);
        return;
      }
      byAid.set(c.identity.aid, c);
      placesByAid.set(c.identity.aid, placesOf(c));
      if (runsOffline(c)) needsOutside.delete(c.identity.aid);
      else needsOutside.add(c.identity.aid);
      engine.upsert(documentFromContract(c));
    },
    remove: forget,
  };
}

export function createApiSearch(manifests: ApiManifestLike[]): ApiSearch {
  const { engine } = createSearchIndex(manifests.map(documentFromApiManifest));
  return {
    search: (q, limit) => engine.search(q, { limit, kind: 'api' }).map((h) => h.id),
    upsert: (m) => engine.upsert(documentFromApiManifest(m)),
    remove: (id) => {
      engine.remove(id);
    },
  };
}
