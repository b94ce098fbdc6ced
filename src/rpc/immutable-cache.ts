import { limits } from "../limits";
import { canonicalJson } from "./canonical-json";
import { wrappedConfig } from "./method-schemas";
import type { ValidatedCall } from "./methods";

/**
 * Results that can never change, kept in the Cache API and served byte-for-byte as the node wrote them.
 *
 * Only these, and only non-null results (null means "not yet", "skipped" or "pruned": never final):
 * - getBlock with commitment finalized (the default): a finalized block is final by definition;
 * - getBlockTime(slot) once slot ≤ the finalized slot;
 * - getBlocks(start, end) with an explicit end once end ≤ the finalized slot;
 * - getBlocksWithLimit(start, limit) when it returned `limit` slots and the last one ≤ the finalized slot
 *   (fewer than `limit` means later blocks may still join the answer).
 * Errors are never cached. Everything else is never cached.
 *
 * Keys: request origin + cluster (a SHA-256 digest of the upstream URL list: URLs may carry credentials and must not
 * appear in a key) + method + canonical params (sorted keys, nulls dropped: null means "default" in Agave's configs;
 * unknown config keys are not part of validated params), so different encodings or details never share an entry.
 */

/** When an answer is final: at once, or once the finalized slot reaches a slot. */
type Finality = "final" | { finalizedAtLeast: number } | "never";

/** A request whose answer may be served from / stored in the cache. */
export interface CacheCandidate {
  key: string;
  finality(resultText: string): Finality;
}

function finalityOf(call: ValidatedCall): ((resultText: string) => Finality) | undefined {
  switch (call.method) {
    case "getBlock": {
      const commitment = wrappedConfig(call.params[1])?.commitment ?? "finalized";
      return commitment === "finalized" ? () => "final" : undefined;
    }
    case "getBlockTime": {
      const [slot] = call.params;
      return () => ({ finalizedAtLeast: slot });
    }
    case "getBlocks": {
      const end = call.params[1];
      return typeof end === "number" ? () => ({ finalizedAtLeast: end }) : undefined;
    }
    case "getBlocksWithLimit": {
      const limit = call.params[1];
      if (limit === 0) return undefined;
      return (resultText) => {
        const slots = JSON.parse(resultText) as number[];
        return slots.length === limit ? { finalizedAtLeast: slots[slots.length - 1]! } : "never";
      };
    }
    default:
      return undefined;
  }
}

/** The cache entry a call would use, or undefined when its answers are never cached. */
export function cacheCandidate(call: ValidatedCall, origin: string, clusterKey: string): CacheCandidate | undefined {
  const finality = finalityOf(call);
  if (!finality) return undefined;
  const params = canonicalJson(call.params);
  // A number only the caller's text holds exactly (past 2^53, a fraction): its answer is not shared.
  if (params === undefined) return undefined;
  const key = `${origin}/__rpc-cache/v1/${encodeURIComponent(clusterKey)}/${call.method}?params=${encodeURIComponent(params)}`;
  return { key, finality };
}

/** The cached result text, if any. */
export async function cachedResult(cache: Cache, candidate: CacheCandidate): Promise<string | undefined> {
  const hit = await cache.match(candidate.key);
  return hit ? hit.text() : undefined;
}

/**
 * Stores `resultText` if it is final. `finalizedSlot` is asked only when finality depends on it; a failure to
 * learn it means "not now" (the next request will try again).
 */
export async function storeIfFinal(cache: Cache, candidate: CacheCandidate, resultText: string, finalizedSlot: () => Promise<number>): Promise<boolean> {
  if (resultText === "null") return false;
  const finality = candidate.finality(resultText);
  if (finality === "never") return false;
  if (finality !== "final") {
    const finalized = await finalizedSlot().catch(() => -1);
    if (finality.finalizedAtLeast > finalized) return false;
  }
  const headers = { "content-type": "application/json", "cache-control": `public, max-age=${limits.immutableRpcCacheSeconds}, immutable` };
  await cache.put(candidate.key, new Response(resultText, { headers }));
  return true;
}
