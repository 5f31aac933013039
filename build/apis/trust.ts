// trust.reliability_score of a compiled manifest: a documented, deterministic estimate of how usable the
// definition is as-is, from what the definition itself shows (nothing is called or measured):
//   0.80 base
//   +0.05 https base URL, −0.10 plain http           (transport an agent can rely on)
//   −0.10 templated base URL (placeholder host, …)   (the real host must be found elsewhere)
//   +0.03 authentication documented (type ≠ none)     (a complete definition says how to authenticate)
//   +0.02 at least 5 operations, −0.05 fewer than 3  (tiny definitions are often partial)
//   −0.05 unofficial definition (x-unofficialSpec)   (written by a third party, may drift)
// clamped to [0.5, 0.95] and rounded to two decimals.
import type { Auth } from './manifest.ts';
import type { BaseUrl } from './source.ts';

export interface TrustInput {
  baseUrl: BaseUrl;
  auth: Auth;
  operationCount: number;
  unofficial: boolean;
}

export function reliabilityScore({ baseUrl, auth, operationCount, unofficial }: TrustInput): number {
  let score = 0.8;
  score += baseUrl.insecure ? -0.1 : 0.05;
  if (baseUrl.template) score -= 0.1;
  if (auth.type !== 'none') score += 0.03;
  if (operationCount >= 5) score += 0.02;
  else if (operationCount < 3) score -= 0.05;
  if (unofficial) score -= 0.05;
  return Math.round(Math.min(0.95, Math.max(0.5, score)) * 100) / 100;
}
