// GET /health: status, live catalog counts, telemetry totals, first answers in the field (search outcomes), the
// time of the build being served and memory.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { H3 } from 'h3';
import { BUILD_INFO } from '../../build/pipeline/dist-swap.ts';
import type { AppContext } from '../context.ts';
import { withShares } from '../state/search-outcomes/shares.ts';

async function buildInfo(distDir: string): Promise<Record<string, unknown> | null> {
  const text = await fsp.readFile(path.join(distDir, BUILD_INFO), 'utf8').catch(() => null);
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function healthRoutes(app: H3, ctx: AppContext) {
  app.get('/health', async () => {
    const build = await buildInfo(ctx.config.distDir);
    return {
      status: 'ok',
      tools_count: ctx.snapshot.tools.length,
      apis_count: ctx.apis.count,
      telemetry: await ctx.telemetry.totals(),
      search_outcomes: withShares(await ctx.searchOutcomes.totals()),
      build: build
        ? { generated_at: build.generated_at, tools_count: build.tools_count, build_ms: build.build_ms }
        : null,
      started_at: ctx.startedAt.toISOString(),
      uptime_s: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
      // Bytes; `npm run loadtest -- --soak` samples heap_used to spot growth under sustained load.
      memory: { heap_used: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss() },
    };
  });
}
