// One compile-apis worker thread: reads, parses, compiles and validates one definition per message and
// answers with the file content or the reason it failed. Failures are answers, never crashes.
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { CompileError, compileApi, manifestFileContent } from './compile.ts';
import { validateManifest } from './manifest.ts';
import type { SpecId } from './naming.ts';
import { operationsFileContent, validateOperationsFile } from './recipe-schema.ts';
import { countTokens } from './tokens.ts';

export interface CompileTask {
  id: number;
  file: string;
  specId: SpecId;
  serviceName: string;
  compiledAt: string;
}

export type CompileResult =
  | {
      id: number;
      ok: true;
      content: string;
      operations: Uint8Array;
      tokens: { definition: number; manifest: number; recipes: number[] };
    }
  | { id: number; ok: false; reason: string };

export async function runTask(task: CompileTask): Promise<CompileResult> {
  try {
    const text = await readFile(task.file, 'utf8');
    let definition: unknown;
    try {
      definition = JSON.parse(text);
    } catch (e) {
      throw new CompileError(`invalid JSON: ${(e as Error).message}`);
    }
    const { manifest, operations } = await compileApi({
      definition,
      text,
      serviceName: task.serviceName,
      compiledAt: task.compiledAt,
      specId: task.specId,
    });
    const errors = validateManifest(manifest);
    if (errors.length > 0)
      throw new CompileError(
        `invalid manifest: ${errors
          .slice(0, 3)
          .map((e) => `${e.path} ${e.message}`)
          .join('; ')}`,
      );
    const opErrors = validateOperationsFile(operations);
    if (opErrors.length > 0)
      throw new CompileError(
        `invalid recipes: ${opErrors
          .slice(0, 3)
          .map((e) => `${e.path} ${e.message}`)
          .join('; ')}`,
      );
    const recipes = operations.operations.map((op) => countTokens(JSON.stringify(op)));
    return {
      id: task.id,
      ok: true,
      content: manifestFileContent(manifest),
      operations: operationsFileContent(operations),
      tokens: { ...manifest.record.tokens, recipes },
    };
  } catch (e) {
    const reason =
      e instanceof CompileError
        ? e.message
        : `${(e as Error).name ?? 'Error'}: ${String((e as Error).message ?? e).split('\n')[0]}`;
    return { id: task.id, ok: false, reason };
  }
}

parentPort?.on('message', (task: CompileTask) => {
  void runTask(task).then((result) => parentPort?.postMessage(result));
});
