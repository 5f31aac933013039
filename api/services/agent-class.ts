// A coarse class of the user agent, kept with telemetry instead of the raw header (which can identify people).
export const AGENT_CLASSES = ['coding_agent', 'ai_crawler', 'crawler', 'http_client', 'browser', 'unknown'] as const;
export type AgentClass = (typeof AGENT_CLASSES)[number];

// Checked in order; the first class whose pattern matches wins (coding agents often embed "curl" or "node").
const RULES: [AgentClass, RegExp][] = [
  [
    'coding_agent',
    /github-copilot|cursor[\s/]|claude-code|claude-cli|windsurf|aider[\s/]|vscode-agent|openai-agent|codex|deepseek-agent|cline|continue-dev|mcp/,
  ],
  [
    'ai_crawler',
    /gptbot|chatgpt-user|oai-searchbot|perplexity|claudebot|anthropic-ai|claude-web|claude-user|cohere-ai|gemini|google-extended|ccbot|youbot|meta-?externalagent|diffbot|bytespider|amazonbot|applebot-extended/,
  ],
  ['crawler', /bot\b|bot\/|spider|crawler|slurp|ia_archiver|scrapy|facebookexternalhit/],
  [
    'http_client',
    /^curl\/|wget|python-requests|python-httpx|aiohttp|python-urllib|go-http-client|axios\/|node-fetch|undici|^node$|okhttp|java\/|libwww|httpie|postman/,
  ],
  ['browser', /mozilla\/5\.0.*(chrome|firefox|safari|edg|opera)/],
];

export function agentClass(userAgent: string | null | undefined): AgentClass {
  const ua = (userAgent ?? '').toLowerCase().slice(0, 512);
  if (!ua) return 'unknown';
  for (const [cls, re] of RULES) if (re.test(ua)) return cls;
  return 'unknown';
}
