// A folder the need says its results go into. "extract a tar.gz archive into a directory", "unpack a plain .tar
// archive into a folder": an agent that sends only its words tells search nothing else about the folder it wants
// written, and an archive tool whose command only prints or repacks (no folder placeholder) cannot be handed one.
// A need naming one gets the term `#dir` as one more concept (plan.ts, like the held file of file-mentions.ts),
// which commands with an output folder placeholder hold (documents index it in the key field, with `#file`). Only
// "into" or "to" a folder: "the files in this folder" names one the agent holds. An agent that says what it holds
// (`inputs=output_dir`) gets the API's inputs filter instead, so the API leaves the concept out then.
//   mentionsOutputFolder(text) -> whether the need names a folder to write into
//   writesFolderTerms(contract) -> ['#dir'] for a command with an output folder placeholder
import type { ToolContract } from '../model/contract.ts';
import { placeholderRoles } from '../model/input-roles.ts';

export const FOLDER_TERM = '#dir';

const INTO_FOLDER = /\b(?:into|to)\s+(?:[\w.-]+\s+){0,2}(?:folders?|director(?:y|ies)|dirs?)\b/iu;

export function mentionsOutputFolder(text: string): boolean {
  return INTO_FOLDER.test(text);
}

export function writesFolderTerms(c: ToolContract): string[] {
  return placeholderRoles(c).includes('output_dir') ? [FOLDER_TERM] : [];
}
