// Resuming an interrupted import: after each item the outcome is appended to a state file (JSON lines: a
// header naming the run, then one line per finished item). A run with the same source and selection finds
// the file and skips what is done; a finished run removes it. Appends are whole lines, so a kill loses at most
// the item in flight, which the next run simply does again.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export type Outcome = 'new' | 'updated' | 'unchanged' | 'failed';

export interface ItemResult {
  key: string;
  outcome: Outcome;
  aid?: string;
  reason?: string;
}

export interface ImportState {
  /** Items finished by an earlier, interrupted run of the same import. */
  readonly done: ReadonlyMap<string, ItemResult>;
  record(result: ItemResult): Promise<void>;
  /** The run completed: nothing to resume. */
  finish(): Promise<void>;
}

/** Identifies a run by what it imports, so another selection never skips items on the strength of this one. */
export const runKey = (from: string, selection: string) =>
  createHash('sha256').update(`${from}\n${selection}`).digest('hex').slice(0, 16);

export async function openImportState(file: string, key: string): Promise<ImportState> {
  const done = new Map<string, ItemResult>();
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  const [header, ...lines] = text.split('\n');
  let resumable = false;
  try {
    resumable = (JSON.parse(header ?? '') as { run?: unknown }).run === key;
  } catch {
    resumable = false;
  }
  if (resumable) {
    // A torn last line must not swallow the next one.
    if (!text.endsWith('\n')) await fsp.appendFile(file, '\n');
    for (const l of lines) {
      try {
        const r = JSON.parse(l) as ItemResult;
        if (typeof r.key === 'string') done.set(r.key, r);
      } catch {
        // The torn line of a killed run: that item runs again.
      }
    }
  } else {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, `${JSON.stringify({ run: key, started_at: new Date().toISOString() })}\n`);
  }
  // Appends one after another: concurrent items must not interleave their lines.
  let chain = Promise.resolve();
  return {
    done,
    record(result) {
      chain = chain.then(() => fsp.appendFile(file, `${JSON.stringify(result)}\n`));
      return chain;
    },
    async finish() {
      await chain;
      await fsp.rm(file, { force: true });
    },
  };
}
