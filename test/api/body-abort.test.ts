// A client that hangs up in the middle of its request body is not a server error: nothing is logged as a
// 500, nothing is written, and the server goes on answering.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAdminServer, type AdminServer, SECRET } from './admin-helpers.ts';

/** Sends headers announcing 1,000 bytes, then part of the body, then closes the connection. */
function hangUpMidBody(port: number, p: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const sock = net.connect(port, '127.0.0.1', () => {
      sock.write(
        `POST ${p} HTTP/1.1\r\nHost: x\r\nx-admin-secret: ${SECRET}\r\ncontent-type: application/json\r\n` +
          'accept: application/json, text/event-stream\r\ncontent-length: 1000\r\n\r\n{"execution_feedback": 2',
      );
      setTimeout(() => sock.destroy(), 150);
    });
    sock.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    sock.on('error', () => undefined);
    sock.on('close', () => setTimeout(() => resolve(answer), 150));
  });
}

describe('a request body cut off by the client', () => {
  let s: AdminServer;
  beforeAll(async () => {
    s = await startAdminServer({ ip: '10.9.7.1' });
  });
  afterAll(() => s?.cleanup());

  it('is neither answered nor logged as a 500, on public, admin and MCP routes', async () => {
    const logged = vi.spyOn(console, 'error');
    try {
      for (const p of ['/api/v1/tools/npm-axios-v1', '/api/v1/ingest', '/admin/update-trust', '/mcp']) {
        const answer = await hangUpMidBody(s.running.port, p);
        expect(answer, p).not.toMatch(/^HTTP\/1\.1 5/);
      }
      expect(
        logged.mock.calls.map((c) => c.map(String).join(' ')).filter((l) => /aborted|500|Internal/i.test(l)),
      ).toEqual([]);
    } finally {
      logged.mockRestore();
    }
    expect((await s.fetch('/health')).status).toBe(200);
  });
});
