// The state changes an operator wants in the log, read off each answered request (route pattern, method,
// status), so every route is covered in one place and none can forget its line. Rebuilds, start-up and
// shutdown are logged where they happen (server.ts, main.ts).
export interface OperatorEvent {
  level: 'info' | 'warn';
  msg: string;
}

/** Successful writes, by `METHOD route`. */
const WRITES: Readonly<Record<string, string>> = {
  'POST /api/v1/ingest': 'contract ingested',
  'POST /api/v1/translate': 'contract translated and ingested',
  'POST /admin/update-trust': 'reliability scores updated',
  'POST /admin/mcp-reviewed': 'mcp tool-list changes marked reviewed',
  'POST /admin/contributions/:id/accept': 'contribution accepted',
  'POST /admin/contributions/:id/reject': 'contribution rejected',
  'POST /admin/apis/compile': 'api manifest compiled',
  'POST /admin/apis/ingest': 'api manifest ingested',
  'POST /api/v1/contribute': 'contribution queued for review',
};

const ADMIN = /^\/(admin\/|api\/v1\/(ingest|translate)$)/;

export function operatorEvent(method: string, route: string, status: number): OperatorEvent | null {
  if (ADMIN.test(route) && (status === 401 || status === 403)) return { level: 'warn', msg: 'admin secret refused' };
  if (ADMIN.test(route) && status === 429) return { level: 'warn', msg: 'admin client locked out' };
  const write = WRITES[`${method} ${route}`];
  if (!write) return null;
  if (status === 200 || status === 201) return { level: 'info', msg: write };
  if (status === 202) return { level: 'info', msg: `${write}: queued for review` };
  return null;
}
