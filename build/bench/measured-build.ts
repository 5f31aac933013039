// One full build in a fresh node process, as `npm run build` runs it, reporting its own wall time,
// phases and peak RSS. The benchmarks make their catalog first (100,000 contracts and their JSON text:
// about 1 GB of heap at 100,000), and V8 keeps a thread's freed pages for reuse rather than giving them
// back, so a build in that same process was measured on top of the benchmark's own high-water mark
// (1,834-1,862 MB at 100,000 where the build alone took 1,457-1,730 MB).
//   measureBuild(catalogDir, distDir) -> { secs, files, peakMb, phases }
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from '../pipeline/build.ts';

export interface MeasuredBuild {
  secs: number;
  /** Pages and files the build reports writing (BuildResult.files). */
  files: number;
  /** The build process's peak resident memory (getrusage ru_maxrss), MB. */
  peakMb: number;
  phases: Record<string, number>;
}

const BASE_URL = 'https://catalog.example';
const SCRIPT = fileURLToPath(import.meta.url);

/** Builds `catalogDir` into `distDir` in a child node process; rejects with its error output if it fails. */
export async function measureBuild(catalogDir: string, distDir: string): Promise<MeasuredBuild> {
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, [SCRIPT, catalogDir, distDir], {
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (error) {
    const e = error as Error & { stderr?: string };
    throw new Error(`measured build failed: ${e.stderr?.trim() || e.message}`);
  }
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as MeasuredBuild;
}

if (process.argv[1] === SCRIPT) {
  const [catalogDir, distDir] = process.argv.slice(2);
  if (!catalogDir || !distDir) throw new Error('usage: node measured-build.ts <catalogDir> <distDir>');
  const t = performance.now();
  const r = await build({ catalogDir, distDir, baseUrl: BASE_URL });
  const secs = (performance.now() - t) / 1000;
  const result: MeasuredBuild = {
    secs,
    files: r.files,
    peakMb: process.resourceUsage().maxRSS / 1024,
    phases: r.phases,
  };
  console.log(JSON.stringify(result));
}
