// Resource limits against hostile clients: a chunked body that never ends gets its 413 without the server
// reading (or buffering) the rest, and the connection is closed; a client sending headers or a body slowly
// is cut off by the header and request timeouts while other clients are served.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('limits against hostile clients', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  it('a never-ending chunked body: 413 early, the rest is never read, the connection is closed', async () => {
    const { port } = new URL(s.url);
    const outcome = await new Promise<{ status: number; sentAtAnswer: number; sent: number; closedAfterMs: number }>(
      (resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/tools/npm-axios-v1',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        let stop = false;
        let status = 0;
        let sentAtAnswer = 0;
        let answeredAt = 0;
        // Write as fast as the server takes it: a server that keeps reading would keep this going.
        const pump = () => {
          while (!stop) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
        };
        const finish = () => {
          if (stop) return;
          stop = true;
          clearTimeout(timer);
          if (!status) reject(new Error(`no answer after ${sent} bytes`));
          else resolve({ status, sentAtAnswer, sent, closedAfterMs: Date.now() - answeredAt });
        };
        req.on('response', (res) => {
          status = res.statusCode ?? 0;
          sentAtAnswer = sent;
          answeredAt = Date.now();
          res.resume();
        });
        req.on('error', finish);
        req.on('close', finish);
        const timer = setTimeout(() => {
          req.destroy();
          finish();
        }, 8_000);
        req.write('{"micro_translation":"');
        pump();
      },
    );
    expect(outcome.status).toBe(413);
    // 64 KB is the limit; what was written beyond it sits in socket buffers, never in the server.
    expect(outcome.sent).toBeLessThan(32 * 1024 * 1024);
    expect(outcome.closedAfterMs).toBeLessThan(5_000);
    // The server is fine and answers the next client.
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
  });

  /** Opens a raw connection, sends `first`, then `drip` every 200 ms; resolves when the server closes it. */
  function dripUntilClosed(first: string, drip: string): Promise<{ ms: number; answer: string }> {
    const { port } = new URL(s.url);
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(first));
      let answer = '';
      const timer = setInterval(() => {
        if (!socket.destroyed) socket.write(drip);
      }, 200);
      const guard = setTimeout(() => {
        socket.destroy();
        reject(new Error('the server never cut the slow client off'));
      }, 10_000);
      socket.on('data', (d) => {
        answer += d.toString();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(guard);
        resolve({ ms: Date.now() - started, answer });
      });
    });
  }

  it('a client sending its headers slowly is cut off by the header timeout; others are served meanwhile', async () => {
    const slow = dripUntilClosed('GET /health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n');
    await new Promise((r) => setTimeout(r, 300));
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    const { ms, answer } = await slow;
    expect(ms).toBeLessThan(4_000);
    expect(answer).not.toMatch(/^HTTP\/1\.1 200/);
  });

  it('keeps an idle connection longer than clients keep theirs, and says so', async () => {
    // undici reuses a socket until the hinted timeout less 1 s: 64 s here, never a socket the server is closing.
    const res = await fetch(`${s.url}/health`);
    await res.arrayBuffer();
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('a client sending its body slowly is cut off by the request timeout', async () => {
    const { ms, answer } = await dripUntilClosed(
      'POST /api/v1/tools/npm-axios-v1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"',
      'x',
    );
    expect(ms).toBeGreaterThanOrEqual(1_500);
    expect(ms).toBeLessThan(5_000);
    expect(answer).not.toMatch(/^HTTP\/1\.1 200/);
  });
});
