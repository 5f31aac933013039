// A contract on another instance of this service (an allowed host): GET .../api/v1/tools/<aid>. A GET
// withholds the action block unless the peer serves it; we never send a made-up tax payload to unlock it
// (that would be false telemetry there), so missing commands stay null. The copy gets platform `catalog`
// and the aid `catalog-<peer aid>`.
import type { Logic, Trust } from '../model/contract.ts';
import { fetchUpstreamJson, type UpstreamConfig, UpstreamError } from './upstream-fetch.ts';
import { aidOf, type Draft, line, spdxOf, tagsOf } from './common.ts';
import { UPSTREAM } from './messages.ts';

interface PeerContract {
  identity?: { aid?: unknown; name?: unknown; version?: unknown; task?: unknown; tags?: unknown; license?: unknown };
  logic?: Logic;
  trust?: Trust & { telemetry?: unknown };
  action?: { install_cmd?: unknown; execute_cmd?: unknown } | null;
}

export async function peerDraft(url: string, cfg: UpstreamConfig): Promise<Draft> {
  const host = new URL(url).host;
  const doc = (await fetchUpstreamJson(url, cfg, 'peer catalog')) as PeerContract;
  const id = doc?.identity;
  const peerAid = typeof id?.aid === 'string' ? id.aid : null;
  const name = line(id?.name, 214);
  if (!id || !peerAid || !name || !doc.logic || !doc.trust)
    throw new UpstreamError(502, UPSTREAM.peerNotAContract(host));
  const { reliability_score, latency_ms, status } = doc.trust;
  return {
    aid: aidOf('catalog', peerAid.replace(/-v1$/, '')),
    name,
    version: line(id.version, 100),
    task: line(id.task, 500),
    tags: tagsOf(id.tags),
    platform: 'catalog',
    license: spdxOf(id.license),
    source_url: url,
    install_cmd: line(doc.action?.install_cmd, 500),
    execute_cmd: line(doc.action?.execute_cmd, 1000),
    logic: doc.logic,
    // The peer's evidence is the best prior we have; our own telemetry takes over from there.
    trust: { reliability_score, latency_ms, status },
  };
}
