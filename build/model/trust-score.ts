// Reliability from telemetry (`npm run trust`). Evidence is counted per distinct client, not per report:
// each client that reported on a tool weighs exactly 1, split by its own success fraction, so one client
// sending 1,000 failures moves a score exactly as far as one client sending one failure.
//
//   n     = distinct clients with a judged report (2xx = success, 4xx/5xx = failure)
//   s     = Σ over those clients of successes_c / (successes_c + failures_c)
//   L     = Wilson lower bound of s/n at z = 1.96 (95 %): pessimistic while n is small
//   w     = n / (n + K), K = 10: how much the evidence counts against the prior
//   score = round3((1 − w) · prior + w · L)
//
// The prior is the score the tool had before telemetry was first applied (kept in DATA_DIR/trust/
// priors.json), so running the job twice gives the same scores instead of drifting. When the current
// score differs from the one this job last wrote, someone set it by hand: that becomes the new prior.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../catalog/storage/atomic-fs-driver.ts';

export const Z = 1.96;
export const PRIOR_WEIGHT = 10;

export interface Evidence {
  aid: string;
  /** Distinct clients with at least one judged report. */
  clients: number;
  /** Σ of each client's success fraction (0..clients). */
  success_weight: number;
}

export function wilsonLowerBound(successes: number, n: number, z = Z): number {
  if (n <= 0) return 0;
  const p = Math.min(1, Math.max(0, successes / n));
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.max(0, (centre - margin) / (1 + z2 / n));
}

export function blendedScore(prior: number, e: Pick<Evidence, 'clients' | 'success_weight'>, k = PRIOR_WEIGHT): number {
  if (e.clients <= 0) return prior;
  const w = e.clients / (e.clients + k);
  const score = (1 - w) * prior + w * wilsonLowerBound(e.success_weight, e.clients);
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

export interface PriorEntry {
  prior: number;
  score: number;
}
export type Priors = Record<string, PriorEntry>;

export interface PlanInput {
  aid: string;
  reliability_score: number;
}

export interface Plan {
  /** Only the tools whose score changes. */
  scores: { aid: string; reliability_score: number; from: number; clients: number }[];
  priors: Priors;
}

export function planScores(current: PlanInput[], evidence: Evidence[], priors: Priors, k = PRIOR_WEIGHT): Plan {
  const byAid = new Map(current.map((c) => [c.aid, c.reliability_score]));
  const next: Priors = { ...priors };
  const scores: Plan['scores'] = [];
  for (const e of evidence) {
    const now = byAid.get(e.aid);
    if (now === undefined || e.clients <= 0) continue;
    const kept = priors[e.aid];
    const prior = kept && Math.abs(kept.score - now) < 1e-9 ? kept.prior : now;
    const score = blendedScore(prior, e, k);
    next[e.aid] = { prior, score };
    if (Math.abs(score - now) >= 1e-9)
      scores.push({ aid: e.aid, reliability_score: score, from: now, clients: e.clients });
  }
  return { scores, priors: next };
}

export const priorsFile = (dataDir: string) => path.join(dataDir, 'trust', 'priors.json');

export async function readPriors(file: string): Promise<Priors> {
  const text = await fsp.readFile(file, 'utf8').catch(() => null);
  if (!text) return {};
  const parsed = JSON.parse(text) as { tools?: Priors };
  return Object.assign(Object.create(null) as Priors, parsed.tools ?? {});
}

export async function writePriors(file: string, priors: Priors): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify({ version: 1, tools: priors })}\n`);
}
