// Append-only JSON-lines log of telemetry events under DATA_DIR/telemetry, with group commit: events
// arriving while a write is in flight are written together, then one fdatasync covers them all, and only
// then are they applied and their callers released. So every acknowledged event is on disk, and the
// counters are rebuilt exactly by replaying the log on start.
//
// Layout: checkpoint.json ({segment, state}, written by temp + rename) and events-<segment>.jsonl.
// On start a long segment is folded into a new checkpoint and a fresh segment begins, so replay stays short.
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../build/catalog/storage/atomic-fs-driver.ts';
import type { AggregatorState } from './aggregator.ts';
import type { LoggedEvent } from './types.ts';

export interface EventLogOptions {
  dir: string;
  /** Fold the segment into a checkpoint on start once it holds this many events. */
  compactAfter?: number;
}

export interface EventLogHooks {
  restore(state: AggregatorState): void;
  apply(event: LoggedEvent): void;
  snapshot(): AggregatorState;
}

interface Pending {
  line: string;
  /** Null when the caller counted the event already (lookup batches). */
  event: LoggedEvent | null;
  resolve(): void;
  reject(error: unknown): void;
}

const CHECKPOINT = 'checkpoint.json';
const segmentFile = (n: number) => `events-${n}.jsonl`;

/** Replays complete lines; returns the byte length of the complete part (a torn last line is not counted). */
async function replay(
  file: string,
  apply: (e: LoggedEvent) => void,
): Promise<{ good: number; events: number; bad: number }> {
  let good = 0,
    events = 0,
    bad = 0,
    carry = '';
  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const lines = (carry + chunk).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) {
        good += Buffer.byteLength(line) + 1;
        if (!line) continue;
        try {
          apply(JSON.parse(line) as LoggedEvent);
          events++;
        } catch {
          bad++;
        }
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { good, events, bad };
}

export class EventLog {
  private handle: fsp.FileHandle | null = null;
  private size = 0;
  private queue: Pending[] = [];
  private flushing: Promise<void> | null = null;

  private readonly dir: string;
  private readonly hooks: EventLogHooks;

  private constructor(dir: string, hooks: EventLogHooks) {
    this.dir = dir;
    this.hooks = hooks;
  }

  static async open(options: EventLogOptions, hooks: EventLogHooks): Promise<EventLog> {
    const log = new EventLog(options.dir, hooks);
    await log.start(options.compactAfter ?? 100_000);
    return log;
  }

  private async start(compactAfter: number): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    const cpText = await fsp.readFile(path.join(this.dir, CHECKPOINT), 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    // A checkpoint is written atomically; if it does not parse, the disk is damaged: refuse to guess.
    const cp = cpText ? (JSON.parse(cpText) as { segment: number; state: AggregatorState }) : null;
    if (cp) this.hooks.restore(cp.state);
    let segment = cp?.segment ?? 0;
    const file = path.join(this.dir, segmentFile(segment));
    const { good, events, bad } = await replay(file, (e) => this.hooks.apply(e));
    if (bad) console.error(`telemetry: skipped ${bad} unreadable line(s) in ${file}`);
    // A crash mid-append can leave a torn last line; cut it so the next append starts on a fresh line.
    const stat = await fsp.stat(file).catch(() => null);
    if (stat && stat.size > good) await fsp.truncate(file, good);
    this.size = stat ? good : 0;
    if (events >= compactAfter) {
      segment += 1;
      await writeFileAtomic(path.join(this.dir, CHECKPOINT), JSON.stringify({ segment, state: this.hooks.snapshot() }));
      this.size = 0;
    }
    // Segments other than the current one are folded into the checkpoint already (or a crash left them).
    for (const name of await fsp.readdir(this.dir)) {
      const m = /^events-(\d+)\.jsonl$/.exec(name);
      if (m && Number(m[1]) !== segment) await fsp.rm(path.join(this.dir, name), { force: true });
    }
    this.handle = await fsp.open(path.join(this.dir, segmentFile(segment)), 'a');
  }

  /** Resolves once the event is on disk (fdatasync) and applied (unless `applied` says it already was). */
  append(event: LoggedEvent, options: { applied?: boolean } = {}): Promise<void> {
    if (!this.handle) return Promise.reject(new Error('telemetry log is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ line: `${JSON.stringify(event)}\n`, event: options.applied ? null : event, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 && this.handle) {
      const batch = this.queue;
      this.queue = [];
      const data = Buffer.from(batch.map((p) => p.line).join(''));
      try {
        await this.handle.writeFile(data);
        await this.handle.datasync();
        this.size += data.length;
      } catch (error) {
        // Undo a partial write so the log never holds an event nobody was told about.
        await this.handle.truncate(this.size).catch(() => undefined);
        for (const p of batch) p.reject(error);
        continue;
      }
      for (const p of batch) {
        if (p.event) this.hooks.apply(p.event);
        p.resolve();
      }
    }
    this.flushing = null;
  }

  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    await this.handle?.close();
    this.handle = null;
  }
}
