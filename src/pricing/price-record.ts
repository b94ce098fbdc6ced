import { z } from "zod/mini";
import { dexNames } from "../venues/pool-kinds";
import { priceReceiptSchema } from "./price-receipt-schema";

/** Venue path words of the price API; the kinds each one routes to are in the venue list (venues/venue-list.ts). */
export type { VenueId } from "../venues/pool-kinds";

const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));
const quotePriceSourcePattern = /^(fixed-usd|sol-usd:(pyth|pool)|(stake-pool|pool):[1-9A-HJ-NP-Za-km-z]{32,44})$/;

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
  /** The mint the chosen pool quotes the token in (wSOL, USDC, USDT, or any token with a price of its own). */
  quoteMint: z.string(),
  /**
   * How that quote's USD value was found: `fixed-usd` (USDC, USDT: $1 by definition), `sol-usd:pyth` / `sol-usd:pool`
   * (SOL, from the oracle or the deepest SOL/USD-stable pool), `stake-pool:<account>` (a liquid-staking token at its
   * stake pool's exchange rate × SOL/USD) or `pool:<address>` (any other token, at its own deepest SOL- or USD-quoted
   * pool: one hop, never more).
   */
  quotePriceSource: z.string().check(z.regex(quotePriceSourcePattern)),
  slot: z.number(),
  updatedAt: z.number(),
  curveProgress: z.optional(decimalString),
  graduated: z.optional(z.boolean()),
  stale: z.optional(z.boolean()),
  /** Only on a pool named with `poolId` whose liquidity is under the floor automatic routing uses (`limits.minPoolLiquidityUsd`). */
  belowLiquidityFloor: z.optional(z.boolean()),
  /** Only with `receipt=true`: where the price came from, to check it against the chain (docs/api.md, Receipts). */
  receipt: z.optional(priceReceiptSchema),
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
