// The API engine's document table: internal document numbers -> id, prior, platform, kind,
// liveness and term ids (needed to retract a document's postings on removal). Typed arrays,
// grown by doubling; compact() renumbers live documents densely, in their original order.
//   docs.add(doc) -> number; docs.kill(n) -> the dead document's term ids; docs.compact() -> remap

import type { SearchDocument } from './documents.ts';

export class DocTable {
  ids: string[] = [];
  priors: number[] = [];
  platformOf = new Uint8Array(1024);
  /** 0 = tool, 1 = api. */
  kindOf = new Uint8Array(1024);
  alive = new Uint8Array(1024);
  /** Term ids of each live document. */
  terms: Int32Array[] = [];
  byId = new Map<string, number>();
  readonly platformCodes = new Map<string, number>();
  live = 0;
  dead = 0;

  /** Slots allocated (documents numbered below this fit the typed arrays). */
  get capacity(): number {
    return this.alive.length;
  }

  add(doc: SearchDocument, terms: Int32Array): number {
    const d = this.ids.length;
    if (d >= this.alive.length) this.grow(d + 1);
    let pc = this.platformCodes.get(doc.platform);
    if (pc === undefined) {
      pc = this.platformCodes.size;
      if (pc > 255) throw new Error('search: more than 256 platforms');
      this.platformCodes.set(doc.platform, pc);
    }
    this.ids.push(doc.id);
    this.priors.push(doc.prior);
    this.platformOf[d] = pc;
    this.kindOf[d] = doc.kind === 'api' ? 1 : 0;
    this.alive[d] = 1;
    this.terms[d] = terms;
    this.byId.set(doc.id, d);
    this.live++;
    return d;
  }

  /** Tombstone document d; returns its term ids (empty if it was already dead). */
  kill(d: number): Int32Array {
    if (!this.alive[d]) return new Int32Array(0);
    const terms = this.terms[d] ?? new Int32Array(0);
    this.alive[d] = 0;
    this.terms[d] = new Int32Array(0);
    this.byId.delete(this.ids[d]!);
    this.live--;
    this.dead++;
    return terms;
  }

  /** Drop tombstones: returns old number -> new number (-1 for dead documents). */
  compact(): Int32Array {
    const remap = new Int32Array(this.ids.length).fill(-1);
    const cap = Math.max(1024, this.live * 2);
    const ids: string[] = [];
    const priors: number[] = [];
    const terms: Int32Array[] = [];
    const platformOf = new Uint8Array(cap);
    const kindOf = new Uint8Array(cap);
    for (let d = 0; d < this.ids.length; d++) {
      if (!this.alive[d]) continue;
      const nd = ids.length;
      remap[d] = nd;
      ids.push(this.ids[d]!);
      priors.push(this.priors[d]!);
      terms.push(this.terms[d]!);
      platformOf[nd] = this.platformOf[d]!;
      kindOf[nd] = this.kindOf[d]!;
    }
    this.ids = ids;
    this.priors = priors;
    this.terms = terms;
    this.platformOf = platformOf;
    this.kindOf = kindOf;
    this.alive = new Uint8Array(cap).fill(1, 0, ids.length);
    this.byId = new Map(ids.map((id, i) => [id, i]));
    this.dead = 0;
    return remap;
  }

  private grow(min: number): void {
    const cap = Math.max(min, this.alive.length * 2);
    const grown = <T extends Uint8Array>(a: T): T => {
      const b = new Uint8Array(cap) as T;
      b.set(a);
      return b;
    };
    this.platformOf = grown(this.platformOf);
    this.kindOf = grown(this.kindOf);
    this.alive = grown(this.alive);
  }
}
