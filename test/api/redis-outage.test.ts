// A Redis outage under a running API server: reads keep answering, a telemetry report answers 503 (never a
// 200 for something not stored), and the server recovers on its own once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../api/server.ts';
import { loadConfig } from '../../build/config.ts';
import { prepareSite, type RedisProcess, type SiteRoot, startRedis } from '../helpers/redis.ts';

describe('Redis outage', () => {
  let redis: RedisProcess;
  let site: SiteRoot;
  let server: RunningServer;
  const report = () =>
    fetch(`${server.url}/api/v1/tools/npm-axios-v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ execution_feedback: 200, trend_keyword: 'outage test' }),
    });

  beforeAll(async () => {
    // One after the other: if the second fails, afterAll still stops the first.
    redis = await startRedis({ args: ['--appendonly', 'yes', '--appendfsync', 'always'] });
    site = await prepareSite();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      ...site.env({ STORAGE_URL: redis.url, DATA_DIR: site.dataDir(0) }),
    });
    server = await startServer(config, { telemetryRatePerMin: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await redis?.stop();
    await site?.cleanup();
  });

  const axiosInListing = async () => {
    const res = await fetch(`${server.url}/api/v1/tools?q=axios`);
    expect(res.status).toBe(200);
    return (await res.json()).results.find((r: { identity: { aid: string } }) => r.identity.aid === 'npm-axios-v1');
  };

  it('answers lookups and listings (last known counters), refuses reports with 503 + Retry-After while Redis is down, and recovers', async () => {
    expect((await report()).status).toBe(200);
    expect((await axiosInListing()).trust.telemetry.requests).toBe(1);
    await redis.kill9();
    const started = Date.now();
    const lookup = await fetch(`${server.url}/api/v1/tools/npm-axios-v1`);
    expect(lookup.status).toBe(200);
    expect((await lookup.json()).trust.telemetry.requests).toBe(1);
    expect((await axiosInListing()).trust.telemetry.requests).toBe(1);
    const down = await report();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeTruthy();
    expect((await down.json()).detail).toMatch(/could not be stored/);
    // Failing fast matters: a dead Redis must not hold requests for long.
    expect(Date.now() - started).toBeLessThan(15_000);
    await redis.restart();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await report()).status;
    }
    expect(status).toBe(200);
    // The report acknowledged before the outage survived it (AOF, fsync always); the refused one is absent.
    const body = await (await fetch(`${server.url}/api/v1/tools/npm-axios-v1`)).json();
    expect(body.trust.telemetry.requests).toBe(2);
  });
});
