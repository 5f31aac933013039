// Figures of an agent run: success at the first answer and within three, per category, the failures by kind,
// and every failing need with what each answer did.
import { FAILURE_KINDS, type FailureKind, type TaskOutcome } from './agent.ts';

export interface Rate {
  met: number;
  of: number;
  rate: number;
}
export interface AgentSummary {
  tasks: number;
  ran: number;
  notRun: { id: string; need: string; reason: string }[];
  first: Rate;
  withinThree: Rate;
  byCategory: Record<string, { first: Rate; withinThree: Rate }>;
  /** Why the first answer failed / why none of three met the need. */
  firstFailures: Record<FailureKind, number>;
  failures: Record<FailureKind, number>;
  mcp?: { compared: number; sameTop: number };
}

const rate = (met: number, of: number): Rate => ({ met, of, rate: of ? met / of : 0 });
const zero = () => Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>;

export function summarise(outcomes: TaskOutcome[]): AgentSummary {
  const ran = outcomes.filter((o) => o.ran);
  const firstFailures = zero();
  const failures = zero();
  for (const o of ran) {
    if (o.firstFailure) firstFailures[o.firstFailure]++;
    if (o.failure) failures[o.failure]++;
  }
  const byCategory: AgentSummary['byCategory'] = {};
  for (const c of [...new Set(ran.map((o) => o.category))].sort()) {
    const inC = ran.filter((o) => o.category === c);
    byCategory[c] = {
      first: rate(inC.filter((o) => o.successRank === 1).length, inC.length),
      withinThree: rate(inC.filter((o) => o.successRank !== null).length, inC.length),
    };
  }
  const compared = outcomes.filter((o) => o.mcpSameTop !== undefined);
  return {
    tasks: outcomes.length,
    ran: ran.length,
    notRun: outcomes
      .filter((o) => !o.ran)
      .map((o) => ({
        id: o.id,
        need: o.need,
        reason: o.attempts.map((a) => a.reason).join('; '),
      })),
    first: rate(ran.filter((o) => o.successRank === 1).length, ran.length),
    withinThree: rate(ran.filter((o) => o.successRank !== null).length, ran.length),
    byCategory,
    firstFailures,
    failures,
    ...(compared.length
      ? { mcp: { compared: compared.length, sameTop: compared.filter((o) => o.mcpSameTop).length } }
      : {}),
  };
}

const pct = (r: Rate) => `${r.met}/${r.of} (${(r.rate * 100).toFixed(0)}%)`;

/** The report as text: the figures, then each need that failed at the first answer with every attempt. */
export function formatReport(
  name: string,
  summary: AgentSummary,
  outcomes: TaskOutcome[],
  metLabel = 'met the need',
): string {
  const lines = [`== ${name}: ${summary.tasks} needs, ${summary.ran} run, ${summary.notRun.length} not run ==`];
  lines.push(`first answer ${metLabel}: ${pct(summary.first)}; within three: ${pct(summary.withinThree)}`);
  if (summary.mcp)
    lines.push(`MCP search_tools gave the same first three as REST for ${summary.mcp.sameTop}/${summary.mcp.compared}`);
  lines.push('', 'category          first        within three');
  for (const [c, r] of Object.entries(summary.byCategory))
    lines.push(`${c.padEnd(17)} ${pct(r.first).padEnd(12)} ${pct(r.withinThree)}`);
  lines.push('', 'failure kind              at first answer  within three');
  for (const k of FAILURE_KINDS) {
    lines.push(`${k.padEnd(25)} ${String(summary.firstFailures[k]).padEnd(16)} ${summary.failures[k]}`);
  }
  const failed = outcomes.filter((o) => o.ran && o.successRank !== 1);
  if (failed.length) lines.push('', 'needs not met by the first answer:');
  for (const o of failed) {
    lines.push(`- ${o.id} [${o.firstFailure}${o.successRank ? `; met by answer ${o.successRank}` : ''}] ${o.need}`);
    for (const a of o.attempts)
      lines.push(
        `    ${a.rank}. ${a.aid}: ${a.kind}${a.reason ? ` (${a.reason.replace(/\s+/g, ' ').slice(0, 160)})` : ''}`,
      );
  }
  if (summary.notRun.length) lines.push('', 'not run (no answer installable here):');
  for (const n of summary.notRun) lines.push(`- ${n.id} ${n.need}: ${n.reason.slice(0, 160)}`);
  return lines.join('\n');
}
