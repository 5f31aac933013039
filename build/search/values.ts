// How many values a need holds and how many its answer's command takes. "How many days are there from 2023-12-25
// to 2024-02-14" holds two dates: a date library whose command takes one date cannot answer it, one that takes
// two can, and their words alone tie them (an agent that says what it holds, `inputs=text,text`, gets the API's
// filter; one that sends only words gets this). A contract's command says how many values it takes (its text,
// URL and JSON placeholders); documents index that as the terms `#1` and `#2` (two or more). A need holding k
// values (dates, times, URLs, addresses, versions, quoted phrases: literals.ts) gets `#k` as one more concept
// (plan.ts), so a command that cannot take them covers less of the need; in a catalog whose entries have no
// commands (the corpus, web APIs) nobody holds the term and it weighs nothing (rank.ts conceptWeights). Both
// engines share it through documents.ts and plan.ts, so their orders stay identical.
//   takesTerms(contract) -> ['#1', '#2'] for a command with two or more value placeholders
//   heldValues(text)     -> how many data values a need's text holds
import type { ToolContract } from '../model/contract.ts';
import { placeholderRoles } from '../model/input-roles.ts';
import { countLiterals } from './literals.ts';

// One value or several: the count a command takes says little past two (a list of versions is one value to it).
export const MAX_VALUES = 2;

export const valuesTerm = (n: number): string => `#${Math.min(MAX_VALUES, n)}`;

const VALUE_ROLES = new Set(['text', 'url', 'json']);

export function takesTerms(c: ToolContract): string[] {
  const n = Math.min(MAX_VALUES, placeholderRoles(c).filter((r) => VALUE_ROLES.has(r)).length);
  return Array.from({ length: n }, (_, i) => valuesTerm(i + 1));
}

// A quoted phrase is a value the agent holds ("turn 'next Friday' into a date"); an apostrophe inside a word
// ("what's", "photo's") opens none.
const QUOTED = /(?<![\w'"‘“])['"‘“][^'"‘’“”\n]{1,80}['"’”](?![\w'"’”])/gu;

export function heldValues(text: string): number {
  const quoted = text.match(QUOTED) ?? [];
  return countLiterals(text.replace(QUOTED, ' ')) + quoted.length;
}
