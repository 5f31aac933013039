// Phrasal verbs that software writes as one word: "log in" is login, not logging; "back up" is backup; "set up" is
// setup. Read as two words, the verb alone ("log", "back", "set") becomes the query's concept and a logger answers
// "log in users with oauth". Both sides join them, queries (plan.ts) and summaries (documents.ts), so "Log in with
// Google" and "Google login" meet. A closed list of English compounds, not of tools.
//   joinPhrasalVerbs(text) -> text with each listed "verb particle" pair written as one word
//   analyzeProse(text)     -> the terms of a summary, its phrasal verbs joined (what documents and knowledge index)
import { analyze, normalizeText } from './tokenize.ts';

const COMPOUNDS = new Set([
  'login',
  'logout',
  'signin',
  'signup',
  'signout',
  'setup',
  'backup',
  'lookup',
  'rollback',
  'cleanup',
  'speedup',
  'popup',
  'dropdown',
  'checkout',
  'startup',
  'shutdown',
  'optin',
  'optout',
  'plugin',
]);

const PAIR = /\b([a-z]+)[ -](in|up|out|back|down)\b/gu;

export function joinPhrasalVerbs(text: string): string {
  return text.replace(PAIR, (pair, verb: string, particle: string) =>
    COMPOUNDS.has(verb + particle) ? verb + particle : pair,
  );
}

/** The terms of a summary or task sentence: normalised first, as the pair pattern is lower-case. */
export function analyzeProse(text: string): string[] {
  return analyze(joinPhrasalVerbs(normalizeText(text)));
}
