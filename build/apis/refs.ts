// Lazy `$ref` resolution. The compiler reads only the ~20 chosen operations, so it follows references on
// demand through swagger-parser's `$Refs` instead of dereferencing whole definitions: a full dereference of
// the directory costs ~50 CPU-seconds (13 s for Microsoft Graph beta alone) and cyclic schemas make
// dereferenced trees unsafe to walk. Only local references are followed; external ones (none remain in
// the bundled directory) are never fetched, so compiling stays offline.
import SwaggerParser from '@apidevtools/swagger-parser';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Resolver {
  /** Follows `$ref` chains (at most 20 hops, so a cycle of pure references ends); undefined when broken. */
  deref(value: unknown): Json | undefined;
  /** The name a `$ref` points at (`#/components/schemas/Customer` → `Customer`), before following it. */
  refName(value: unknown): string | undefined;
}

const MAX_HOPS = 20;

/** Parses the definition (swagger-parser checks it is OpenAPI 2.0/3.x) and indexes its references. */
export async function createResolver(definition: Json): Promise<Resolver> {
  const options = { resolve: { external: false } } as unknown as SwaggerParser.Options;
  const $refs = await SwaggerParser.resolve(definition as never, options);
  const cache = new Map<string, unknown>();
  const lookup = (ref: string): unknown => {
    if (!cache.has(ref)) {
      let target: unknown;
      try {
        target = ref.startsWith('#') ? $refs.get(ref) : undefined;
      } catch {
        target = undefined; // a reference to nothing: treat as absent, never fail the whole definition
      }
      cache.set(ref, target);
    }
    return cache.get(ref);
  };
  return {
    deref(value) {
      let current = value;
      for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
        if (hops >= MAX_HOPS) return undefined;
        current = lookup(current.$ref);
      }
      return isObject(current) ? current : undefined;
    },
    refName(value) {
      if (!isObject(value) || typeof value.$ref !== 'string') return undefined;
      const last = value.$ref.split('/').pop();
      if (!last) return undefined;
      const unescaped = last.replace(/~1/g, '/').replace(/~0/g, '~');
      try {
        return decodeURIComponent(unescaped);
      } catch {
        return unescaped;
      }
    },
  };
}
