// Translating a public package or repository (GitHub, PyPI, npm, an MCP registry server, a peer catalog) into
// a contract and storing it like an ingest. The translation itself is build/translate/ (the importer, npm run
// import, uses the same); upstreams are fetched only through its upstream-fetch.ts (configured hosts, public
// addresses, 10 s, 5 MB), and their failures become `upstream` or `not_found` errors here.
import { contractFrom, existingFor, sourceOf } from '../../build/translate/index.ts';
import type { UpstreamConfig } from '../../build/translate/upstream-fetch.ts';
import type { AppContext } from '../context.ts';
import { TRANSLATE } from '../messages.ts';
import { putContract } from '../writes/catalog-writes.ts';
import { ContractInvalidError, DomainError, fromUpstream, invalid } from './errors.ts';
import { queueWritten } from './verify.ts';

export async function translateAndStore(ctx: AppContext, url: string, cfg: UpstreamConfig) {
  const source = sourceOf(url.trim(), cfg);
  if (!source) throw invalid('body', 'url', TRANSLATE.unsupportedUrl, 'value_error');
  const draft = await source.fetch(cfg).catch((error) => {
    throw fromUpstream(error);
  });
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
