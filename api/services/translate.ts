// Translating a public package or repository (GitHub, PyPI, npm, a peer catalog) into a contract and storing
// it like an ingest. Upstreams are fetched only through translate/upstream-fetch.ts (configured hosts,
// public addresses, 10 s, 5 MB); their failures are `upstream` or `not_found` errors.
import type { AppContext } from '../context.ts';
import { TRANSLATE } from '../messages.ts';
import { contractFrom, existingFor, sourceOf } from '../translate/index.ts';
import type { UpstreamConfig } from '../translate/upstream-fetch.ts';
import { putContract } from '../writes/catalog-writes.ts';
import { queueWritten } from './verify.ts';
import { ContractInvalidError, DomainError, invalid } from './errors.ts';

export async function translateAndStore(ctx: AppContext, url: string, cfg: UpstreamConfig) {
  const source = sourceOf(url.trim(), cfg);
  if (!source) throw invalid('body', 'url', TRANSLATE.unsupportedUrl, 'value_error');
  const draft = await source.fetch(cfg);
  const contract = contractFrom(draft, existingFor(ctx.snapshot, draft.source_url, draft.aid));
  try {
    const { aid, created } = await putContract(ctx, contract);
    await queueWritten(ctx, [aid], 'admin');
    return { status: 'ok', aid, created, source: source.kind, contract };
  } catch (error) {
    // The source's data, not the caller's request, is what failed.
    if (error instanceof ContractInvalidError) {
      throw new DomainError('upstream', TRANSLATE.notAContract(source.kind, error.message));
    }
    throw error;
  }
}
