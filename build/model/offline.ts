// Whether a tool's command can do its job on this machine alone: no internet, no server, no user credentials.
// An agent without network (a sandbox, CI) or without keys asks search for these only
// (GET /api/v1/tools?offline=true, MCP search_tools {offline: true}); a tool that needs either would fail
// for it however well it matches the need.
import type { ToolContract } from './contract.ts';

/** True unless `action.requires` declares the internet (or a server) or credential environment variables. */
export function runsOffline(c: Pick<ToolContract, 'action'>): boolean {
  const requires = c.action.requires;
  return requires?.network !== true && (requires?.env?.length ?? 0) === 0;
}
