// What an upstream (registry, GitHub, a peer catalog, an MCP registry, a definition host) did wrong; `name`
// says which. These sentences reach callers of translate and compile (as 404/502 details) and the importer's
// summary, so they are worded for them.

const clip = (s: string, n: number) => s.slice(0, n);

export const UPSTREAM = {
  tooLarge: (name: string, mb: number) => `${name} answered more than ${mb} MB`,
  notPublic: (name: string, host: string) => `${name} (${host}) refused: not a public address`,
  timeout: (name: string, host: string, s: number) => `${name} (${host}) did not answer within ${s} s`,
  unreachable: (name: string, host: string, code: string) => `${name} (${host}) is unreachable (${code})`,
  redirectedAway: (name: string, host: string) => `${name} (${host}) redirected elsewhere; not followed`,
  noSuchEntry: (name: string, host: string, path: string, status: number) =>
    `${name} (${host}) has no such entry: ${clip(path, 200)} answered ${status}`,
  badStatus: (name: string, host: string, status: number) => `${name} (${host}) answered ${status}`,
  notJson: (name: string, host: string) => `${name} (${host}) answered something that is not JSON`,
  peerNotAContract: (host: string) => `peer catalog (${host}) did not answer a contract`,
  mcpNotAServer: (host: string) => `MCP registry (${host}) did not answer a server.json`,
  mcpNothingToRun: (name: string) =>
    `MCP server ${clip(name, 200)} has no npm or PyPI package run over stdio and no http(s) remote`,
} as const;
