// The JSON text of listing items (GET /api/v1/tools, /trending), assembled from pre-serialised parts.
// Everything in an item but the live telemetry counters is fixed while the contract object lives (a write
// replaces the object), so its JSON is made once per contract and the counters are spliced in. Building
// and serialising ten items per request was over a third of the search route's time. The output is
// byte-for-byte JSON.stringify(listingItem(...)) (tested), so the wire format cannot drift.
import type { ToolContract } from '../../build/model/contract.ts';
import {
  listingItem,
  publicBlocks,
  registryBlock,
  toolEndpoint,
  type TrustTelemetry,
} from '../../build/model/views.ts';

/** An item's JSON around its telemetry: `${head}${JSON.stringify(telemetry)}${tail}`. */
interface ItemParts {
  baseUrl: string;
  head: string;
  tail: string;
}

const parts = new WeakMap<ToolContract, ItemParts | null>();

/**
 * The fixed parts of a contract's item, or null when its shape is not the usual one (a trust block that
 * already holds `telemetry`, or a missing block): those few are serialised whole each time.
 */
function partsOf(c: ToolContract, baseUrl: string): ItemParts | null {
  const known = parts.get(c);
  if (known !== undefined && (known === null || known.baseUrl === baseUrl)) return known;
  let made: ItemParts | null = null;
  const { identity, logic, trust } = c;
  const plain = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (plain(identity) && plain(logic) && plain(trust) && !Object.hasOwn(trust, 'telemetry')) {
    // The served trust block (with trust.verification), as listingItem makes it.
    const trustJson = JSON.stringify(publicBlocks(c).trust);
    const trustOpen = trustJson === '{}' ? '{' : `${trustJson.slice(0, -1)},`;
    made = {
      baseUrl,
      head: `{"identity":${JSON.stringify(identity)},"logic":${JSON.stringify(logic)},"trust":${trustOpen}"telemetry":`,
      tail: `},"registry":${JSON.stringify(registryBlock(identity.aid, baseUrl))},"endpoint":${JSON.stringify(toolEndpoint(identity.aid))}}`,
    };
  }
  parts.set(c, made);
  return made;
}

/** JSON.stringify(listingItem(c, baseUrl, telemetry)), without building the item. */
export function listingItemJson(c: ToolContract, baseUrl: string, telemetry: TrustTelemetry): string {
  const p = partsOf(c, baseUrl);
  return p ? `${p.head}${JSON.stringify(telemetry)}${p.tail}` : JSON.stringify(listingItem(c, baseUrl, telemetry));
}

/** A JSON array of already-serialised items. */
export const jsonArray = (items: string[]) => `[${items.join(',')}]`;
