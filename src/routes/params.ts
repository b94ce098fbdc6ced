import type { Address } from "@solana/kit";
import { isBase58Address } from "../solana/base58";
import { ApiError } from "../errors/api-error";
import { ADDRESS_BYTES, BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";

/**
 * `ca` as the spec gives it: one mint, or a comma list. Spaces around items are ignored, duplicates are kept
 * in place (the response mirrors the request order) — callers dedupe the work, not the answer.
 */
export function parseMintList(raw: string | undefined, max: number = limits.maxMintsPerPriceRequest): Address[] {
  if (raw === undefined || raw.trim() === "") throw new ApiError("BAD_REQUEST", "Missing required query parameter: ca");
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (items.length === 0) throw new ApiError("BAD_REQUEST", "Missing required query parameter: ca");
  if (items.length > max) throw new ApiError("BAD_REQUEST", `Too many mints in ca: ${items.length} (at most ${max})`);
  return items.map((item) => parseAddress(item, "ca"));
}

// Addresses already validated in this isolate (hot mints repeat): a lookup instead of a base58 decode.
const validated = new BoundedCache<string, true>("validated-addresses", limits.isolateCacheBudgets.validatedAddresses, () => ADDRESS_BYTES);

export function parseAddress(item: string, param: string): Address {
  if (validated.has(item)) return item as Address;
  if (!isBase58Address(item)) {
    const shown = item.length > 64 ? `${item.slice(0, 64)}…` : item;
    throw new ApiError("BAD_REQUEST", `Invalid base58 address in ${param}: ${JSON.stringify(shown)}`);
  }
  validated.set(item, true);
  return item as Address;
}

export function parseSingleMint(raw: string | undefined): Address {
  if (raw !== undefined && raw.includes(",")) throw new ApiError("BAD_REQUEST", "ca takes one mint address on this endpoint");
  const [mint] = parseMintList(raw, 1);
  return mint as Address;
}
