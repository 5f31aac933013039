// Question forms that name an operation. "how many files are there in this zip archive" asks to count them, but read
// word by word it holds no verb: "many" (stemmed `mani`) became a concept that no tool's summary uses, and the
// archive's words alone answered an archive maker first. "how many" reads as "count", the word tools use for it
// ("Count business days", "Count the lines of code"). A question that opens with an auxiliary verb ("does the
// commit message … follow the Conventional Commits format?", "is 2024 a leap year") asks yes or no, and the tools
// that answer one say "check" ("Check a commit message against the Conventional Commits rules", "Check whether a
// year is a leap year"); its own words hold no verb that a parser of the same thing lacks. One that offers
// alternatives ("a major, minor or patch update?") asks which, and is left as it is.
// Queries only (plan.ts): summaries state what a tool does.
//   readQuestions(text) -> normalised query text with each question form written as its operation

const FORMS: readonly (readonly [RegExp, string])[] = [[/\bhow many\b/gu, 'count']];
const YES_OR_NO = /^\s*(?:is|are|was|were|does|do|did|can|could|will|would|has|have|should)\b/u;
// "is going from 1.4.2 to 1.6.0 a major, minor or patch update" asks which, not whether ("… or not" still asks whether).
const WHICH = /\bor\b(?!\s+not\b)/u;

export function readQuestions(text: string): string {
  let out = text;
  for (const [pattern, words] of FORMS) out = out.replace(pattern, words);
  return YES_OR_NO.test(out) && !WHICH.test(out) ? `check ${out}` : out;
}
