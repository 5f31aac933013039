// Question forms that name an operation. "how many files are there in this zip archive" asks to count them, but read
// word by word it holds no verb: "many" (stemmed `mani`) became a concept that no tool's summary uses, and the
// archive's words alone answered an archive maker first. "how many" reads as "count", the word tools use for it
// ("Count business days", "Count the lines of code"). Queries only (plan.ts): summaries state what a tool does.
//   readQuestions(text) -> normalised query text with each question form written as its operation

const FORMS: readonly (readonly [RegExp, string])[] = [[/\bhow many\b/gu, 'count']];

export function readQuestions(text: string): string {
  let out = text;
  for (const [pattern, words] of FORMS) out = out.replace(pattern, words);
  return out;
}
