// The catalog service as the scripted agent sees it: REST search, the tax gate, telemetry reports, and the
// same search through MCP (official SDK client over Streamable HTTP). HTTP only: nothing from api/ is imported.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OutputSchemaObject, SchemaObject, ServedAction } from '../../model/contract.ts';

export interface ListingHit {
  aid: string;
  name: string;
}

/** The parts of a full contract the agent reads. */
export interface FullContract {
  identity: { aid: string; name: string; platform?: string };
  logic: { input_schema: SchemaObject; output_schema: OutputSchemaObject };
  action: ServedAction;
  registry?: { canonical?: string } | null;
}

export interface TaxPayload {
  execution_feedback: number;
  trend_keyword: string;
  validation_vote?: 'yes' | 'no' | 'partial';
}

/** What the agent tells search besides its words: the roles of what it holds, and that it has no network. */
export interface SearchFilters {
  inputs?: readonly string[];
  /** Extensions of the files held (GET /api/v1/tools?formats=…). */
  formats?: readonly string[];
  offline?: boolean;
}

interface ListingItem {
  identity?: { aid?: string; name?: string };
}

const hitsOf = (results: ListingItem[] | undefined): ListingHit[] =>
  (results ?? []).flatMap((r) => (r.identity?.aid ? [{ aid: r.identity.aid, name: r.identity.name ?? '' }] : []));

// A kept-alive connection the server has just closed fails the request before it is sent; try again.
async function send(url: string, init?: RequestInit, tries = 3): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (i >= tries || !(error instanceof TypeError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * i));
    }
  }
}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

export class CatalogClient {
  private mcp: Client | null = null;
  private readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /**
   * `GET /api/v1/tools?q=&category=&kind=tool[&inputs=][&offline=true]`, the top hits in order. The agent needs
   * a command to run, so it asks for tools, not MCP servers (a server answers a client, it does not do the task
   * on a file); `inputs` says what it holds (a file, a text …), so only commands with a place for each come back;
   * `offline` that it runs without network or credentials.
   */
  async search(need: string, category: string, filters: SearchFilters = {}): Promise<ListingHit[]> {
    const { inputs = [], formats = [], offline = false } = filters;
    const q = encodeURIComponent(need);
    const held = inputs.length ? `&inputs=${encodeURIComponent(inputs.join(','))}` : '';
    const named = formats.length ? `&formats=${encodeURIComponent(formats.join(','))}` : '';
    const url = `${this.baseUrl}/api/v1/tools?q=${q}&category=${encodeURIComponent(category)}&kind=tool${held}${named}${offline ? '&offline=true' : ''}`;
    return hitsOf((await json<{ results?: ListingItem[] }>(await send(url), 'search')).results);
  }

  /** `POST /api/v1/tools/{aid}` with a tax payload: the full contract. */
  async fullContract(aid: string, payload: TaxPayload): Promise<FullContract> {
    const res = await send(`${this.baseUrl}/api/v1/tools/${encodeURIComponent(aid)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return json<FullContract>(res, `tax gate for ${aid}`);
  }

  /** The outcome of a use, through the same gate (the telemetry protocol's endpoint). */
  async report(aid: string, payload: TaxPayload): Promise<void> {
    await this.fullContract(aid, payload);
  }

  /** MCP `search_tools`, the top hits in order. */
  async mcpSearch(need: string, category: string, filters: SearchFilters = {}): Promise<ListingHit[]> {
    const { inputs = [], formats = [], offline = false } = filters;
    if (!this.mcp) {
      const client = new Client({ name: 'eval-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${this.baseUrl}/mcp`)));
      this.mcp = client;
    }
    const r = await this.mcp.callTool({
      name: 'search_tools',
      arguments: {
        query: need,
        category,
        kind: 'tool',
        ...(inputs.length ? { inputs: [...inputs] } : {}),
        ...(formats.length ? { formats: [...formats] } : {}),
        ...(offline ? { offline } : {}),
      },
    });
    if (r.isError) throw new Error(`MCP search_tools: ${JSON.stringify(r.content).slice(0, 200)}`);
    return hitsOf((r.structuredContent as { results?: ListingItem[] } | undefined)?.results);
  }

  async close(): Promise<void> {
    await this.mcp?.close();
  }
}
