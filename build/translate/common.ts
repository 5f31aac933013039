// What every source adapter shares: the draft it produces, and the clean-ups that keep upstream text
// inside the contract's limits. A value the source does not show stays null: a guessed install command
// is worse than none (the micro_task flow asks agents for the missing one).
import parseSpdx from 'spdx-expression-parse';
import type { ContractKind, Logic, McpServer, Platform, Requires, Trust } from '../model/contract.ts';
import { slugForAid } from '../model/aid.ts';
import { cleanText } from '../model/clean-text.ts';
import type { Popularity } from './npm-popularity.ts';
import type { UpstreamConfig } from './upstream-fetch.ts';

/** What an adapter derives from its source; the translator turns it into a contract. */
export interface Draft {
  aid: string;
  name: string;
  version: string | null;
  task: string | null;
  tags: string[];
  platform: Platform;
  license: string | null;
  source_url: string;
  install_cmd: string | null;
  execute_cmd: string | null;
  /** Only a peer catalog has these; other sources leave the defaults (or the existing contract's). */
  logic?: Logic;
  trust?: Trust;
  /** trust.popularity with its source, when the registry gives a download figure. */
  popularity?: Popularity | null;
  /** mcp_server for an MCP server (a registry entry, or a package that is one); absent for a tool. */
  kind?: ContractKind;
  /** How to reach the MCP server; its tools stay empty (tools_read_at null) until verification reads them. */
  mcp?: McpServer;
  /** Runtime minimums (npm engines.node, PyPI requires_python) and credentials (required env vars). */
  requires?: Requires;
  /** The registry marks the package deprecated (npm `deprecated`, PyPI "Development Status :: 7 - Inactive"). */
  deprecated?: boolean;
}

export interface SourceRef {
  kind: 'github' | 'pypi' | 'npm' | 'peer' | 'mcp-registry';
  /** The canonical public page of the source (becomes action.source_url). */
  sourceUrl: string;
  fetch(cfg: UpstreamConfig): Promise<Draft>;
}

export const aidOf = (platform: string, name: string) => `${platform}-${slugForAid(name).slice(0, 120)}-v1`;

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** One line of text or null. */
export function line(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const s = cleanText(value);
  return s ? clip(s, max) : null;
}

export function tagsOf(values: unknown): string[] {
  const raw = Array.isArray(values) ? values : typeof values === 'string' ? values.split(/[,;]|\s+/) : [];
  const out = new Set<string>();
  for (const v of raw) {
    if (typeof v !== 'string') continue;
    const t = cleanText(v).toLowerCase().replace(/\s+/g, '-').slice(0, 50);
    if (t) out.add(t);
    if (out.size === 30) break;
  }
  return [...out];
}

// Licence names seen in registries that mean exactly one SPDX id. Anything else stays null.
const NAMED: Record<string, string> = {
  'mit license': 'MIT',
  'the mit license': 'MIT',
  'isc license': 'ISC',
  'isc license (iscl)': 'ISC',
  'apache 2.0': 'Apache-2.0',
  'apache-2': 'Apache-2.0',
  'apache license 2.0': 'Apache-2.0',
  'apache license, version 2.0': 'Apache-2.0',
  'apache software license 2.0': 'Apache-2.0',
  'bsd 3-clause': 'BSD-3-Clause',
  'bsd-3-clause license': 'BSD-3-Clause',
  'bsd 2-clause': 'BSD-2-Clause',
  'mpl 2.0': 'MPL-2.0',
  'mozilla public license 2.0 (mpl 2.0)': 'MPL-2.0',
  'the unlicense': 'Unlicense',
  'the unlicense (unlicense)': 'Unlicense',
};

/** An SPDX expression, or null when the text is not one (and is not an unambiguous licence name). */
export function spdxOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (!s || s.length > 200 || /^(noassertion|unknown|other|none|unlicensed)$/i.test(s)) return null;
  try {
    parseSpdx(s);
    return s;
  } catch {
    return NAMED[s.toLowerCase()] ?? null;
  }
}

const INSTALL =
  /^(sudo\s+)?(pip3?|pipx|uv|poetry|conda|mamba|npm|pnpm|yarn|bun|cargo|go|brew|gem|apt(-get)?|dnf|yum|pacman|snap|choco|scoop|winget|docker|helm|composer|dotnet|nix-env|deno)\s+(.*\s)?(install|add|i|get|pull)(\s|$)/;

export const isInstallCommand = (cmd: string) => INSTALL.test(cmd);
