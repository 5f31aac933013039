// `--help` / `-h` on every command: prints its usage and exits 0 before the command does anything.
export function exitOnHelp(usage: string): void {
  if (!process.argv.slice(2).some((a) => a === '--help' || a === '-h')) return;
  console.log(usage.trim());
  process.exit(0);
}
