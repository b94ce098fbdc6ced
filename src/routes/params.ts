import type { Address } from "@solana/kit";
import { isBase58Address } from "../solana/base58";
import { ApiError } from "../errors/api-error";
import { ADDRESS_BYTES, BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";

/** One item of a `ca` list, in request order: an address, or why it is not one (answered as a failed item). */
export type CaItem = { ca: string; mint: Address; error?: undefined } | { ca: string; mint?: undefined; error: ApiError };

/**
 * `ca` as the spec gives it: one mint, or a comma list. Spaces around items are ignored, duplicates are kept
 * in place (the response mirrors the request order) — callers dedupe the work, not the answer. A malformed item
 * fails alone; the request fails (400) only when it has no well-formed item at all, or more than `max` items.
 */
export function parseMintList(raw: string | undefined, max: number = limits.maxMintsPerPriceRequest): CaItem[] {
  if (raw === undefined || raw.trim() === "") throw new ApiError("BAD_REQUEST", "Missing required query parameter: ca");
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) throw new ApiError("BAD_REQUEST", "Missing required query parameter: ca");
  if (items.length > max) throw new ApiError("BAD_REQUEST", `Too many mints in ca: ${items.length} (at most ${max})`);
  const parsed = items.map((ca): CaItem => {
    const error = addressError(ca, "ca");
    return error ? { ca, error } : { ca, mint: ca as Address };
  });
  if (!parsed.some((item) => item.mint !== undefined)) throw parsed[0]!.error!;
  return parsed;
}

// Addresses already validated in this isolate (hot mints repeat): a lookup instead of a base58 decode.
const validated = new BoundedCache<string, true>("validated-addresses", limits.isolateCacheBudgets.validatedAddresses, () => ADDRESS_BYTES);

export function parseAddress(item: string, param: string): Address {
  const error = addressError(item, param);
  if (error) throw error;
  return item as Address;
}

/** Why `item` is not a base58 address (a 400 quoting it), or undefined when it is one. */
function addressError(item: string, param: string): ApiError | undefined {
  if (validated.has(item)) return undefined;
  if (!isBase58Address(item)) {
    const shown = item.length > 64 ? `${item.slice(0, 64)}…` : item;
    return new ApiError("BAD_REQUEST", `Invalid base58 address in ${param}: ${JSON.stringify(shown)}`);
  }
  validated.set(item, true);
  return undefined;
}

export function parseSingleMint(raw: string | undefined): Address {
  if (raw !== undefined && raw.includes(",")) throw new ApiError("BAD_REQUEST", "ca takes one mint address on this endpoint");
  const [item] = parseMintList(raw, 1);
  return item!.mint!;
}
