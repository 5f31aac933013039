// A file the need says it holds. "md5sum of a file", "which images on this page have no alt text?", "how many files
// are there in this zip archive": an agent that sends only its words (no `inputs=`) tells search nothing else about
// the file it holds, and a tool whose command takes no file (a hash of a text, a parser of an HTML string) cannot
// be handed it. A need that names a held file gets the term `#file` as one more concept (plan.ts), which commands
// with a file placeholder hold (documents index it in the key field, with `#1`, `#2`: values.ts). Held, not made:
// "this", "these", "my", "the" … before the file's words, or "of", "in", "from" … before "a file"; "make a PDF
// document" names what is made. An agent that says what it holds gets the API's inputs filter instead, which
// already asks for a file placeholder, so the API leaves the concept out then (engine option `saysInputs`): with
// it, tools that take a held text file as its text lost to file readers (session 12, "Tried on dev").
//   mentionsHeldFile(text) -> whether the need names a file it holds
//   mentionsTwoFiles(text) -> whether it names two ("two files", "these two PDFs"): `#file2`, held by commands with
//     two file placeholders or more (a one-file archiver cannot pack both)
//   readsFileTerms(contract) -> ['#file'] for a command with a file placeholder, and '#file2' with two
import type { ToolContract } from '../model/contract.ts';
import { placeholderRoles } from '../model/input-roles.ts';

export const FILE_TERM = '#file';
/** Held by commands that read two files or more: "merge two JSON files", "pack two files into a .tar.gz archive". */
export const TWO_FILES_TERM = '#file2';

const FILE_WORDS =
  'files?|images?|photos?|pictures?|archives?|documents?|spreadsheets?|pdfs?|zips?|tarballs?|pages?|recordings?|logs?';
const HELD = new RegExp(
  `\\b(?:(?:this|these|that|those|my|our|the|its|their)|(?:of|in|from|inside|within|on)\\s+an?)\\s+(?:[\\w.+-]+\\s+){0,2}(?:${FILE_WORDS})\\b`,
  'u',
);

export function mentionsHeldFile(text: string): boolean {
  return HELD.test(text);
}

const TWO = new RegExp(`\\b(?:two|both|2)\\s+(?:[\\w.+-]+\\s+){0,2}(?:${FILE_WORDS})\\b`, 'iu');

/** Whether the need names two files it holds ("two files", "these two PDFs", "both images"). */
export function mentionsTwoFiles(text: string): boolean {
  return TWO.test(text);
}

export function readsFileTerms(c: ToolContract): string[] {
  const files = placeholderRoles(c).filter((r) => r === 'input_file').length;
  return files >= 2 ? [FILE_TERM, TWO_FILES_TERM] : files === 1 ? [FILE_TERM] : [];
}
