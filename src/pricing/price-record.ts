import { z } from "zod/mini";
import { dexNames, type DexName } from "../venues/pool-kinds";

/** Venue path words of the spec → the venue they mean. */
export const venueIds = ["venue-a", "venue-b", "venue-c", "venue-d"] as const;
export type VenueId = (typeof venueIds)[number];

export const venueOfDex: Record<DexName, VenueId> = {
  pumpfun: "venue-a",
  "raydium-amm-v4": "venue-b",
  "raydium-cpmm": "venue-b",
  "raydium-clmm": "venue-b",
  "meteora-dlmm": "venue-c",
  "meteora-damm-v1": "venue-c",
  "meteora-damm-v2": "venue-c",
  "meteora-dbc": "venue-c",
  pumpswap: "venue-d",
};

const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));

/** One price as the API returns it. Decimal strings keep full precision; `updatedAt` is unix ms of the chain read. */
export const priceRecordSchema = z.object({
  ca: z.string(),
  dex: z.enum(dexNames),
  priceInSol: decimalString,
  priceInUsd: decimalString,
  marketCap: decimalString,
  pool: z.string(),
  poolType: z.string(),
  liquidityUsd: decimalString,
  slot: z.number(),
  updatedAt: z.number(),
  curveProgress: z.optional(decimalString),
  graduated: z.optional(z.boolean()),
  stale: z.optional(z.boolean()),
  /** Only on a pool named with `poolId` whose liquidity is under the floor automatic routing uses (`limits.minPoolLiquidityUsd`). */
  belowLiquidityFloor: z.optional(z.boolean()),
});
export type PriceRecord = z.infer<typeof priceRecordSchema>;

/*
 * The one serializer of price answers. A record's JSON is made once (the cache keeps it: the warm path answers with
 * those bytes); a list item is that JSON with `"success":true` appended inside the object — valid because a record is
 * always a non-empty object — so list answers never parse or re-serialise records.
 */

/** A record as the API sends it. */
export function priceRecordJson(record: PriceRecord): string {
  return JSON.stringify(record);
}

/** A list item for a priced mint, from its record's JSON. */
export function pricedItemJson(recordJson: string): string {
  return `${recordJson.slice(0, -1)},"success":true}`;
}

/** A list item for a mint that failed (`ca` as the caller sent it). */
export function failedItemJson(ca: string, error: { status: number; message: string }): string {
  return JSON.stringify({ ca, success: false, error: { code: error.status, message: error.message } });
}

/** A list answer from its items' JSON, in request order. */
export function listJson(items: readonly string[]): string {
  return `[${items.join(",")}]`;
}
