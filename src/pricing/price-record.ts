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
