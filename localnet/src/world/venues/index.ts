/**
 * Every venue of the world, one descriptor per pool kind (each venue's file exports its own). The manifest's and the
 * trade index's kind words are derived from this list, and so is everything that needs a venue by kind (the ground
 * truth's reserve accounts, activations): a new kind is its venue file plus one line here.
 */
import { meteoraDammV1 } from "./meteora-damm-v1.js";
import { meteoraDammV2 } from "./meteora-damm-v2.js";
import { meteoraDbc } from "./meteora-dbc.js";
import { meteoraDlmm } from "./meteora-dlmm.js";
import { orcaWhirlpool } from "./orca-whirlpool.js";
import { pumpFunCurve } from "./pumpfun.js";
import { pumpSwap } from "./pumpswap.js";
import { raydiumAmmV4 } from "./raydium-amm-v4.js";
import { raydiumClmm } from "./raydium-clmm.js";
import { raydiumCpmm } from "./raydium-cpmm.js";
import { raydiumLaunchLab } from "./raydium-launchlab.js";
import type { VenueDescriptor } from "./types.js";

export const VENUES = [
  pumpFunCurve,
  pumpSwap,
  raydiumAmmV4,
  raydiumCpmm,
  raydiumClmm,
  meteoraDlmm,
  meteoraDammV1,
  meteoraDammV2,
  meteoraDbc,
  raydiumLaunchLab,
  orcaWhirlpool,
] as const;

/** The manifest's pool kinds (`WorldPool.kind`). */
export type PoolKind = (typeof VENUES)[number]["kind"];
/** The trade index's kinds (`TradeRecord.kind`). */
export type SwapKind = (typeof VENUES)[number]["tradeKind"];

/** A descriptor whose pool type is erased (the caller hands it the pool of its kind). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyVenue = VenueDescriptor<any, PoolKind, SwapKind>;

const byKind = new Map<string, AnyVenue>(VENUES.map((v) => [v.kind, v as AnyVenue]));

/** The venue of a manifest kind; an unknown kind is a world bug. */
export function venueOfKind(kind: string): AnyVenue {
  const v = byKind.get(kind);
  if (!v) throw new Error(`no venue of kind ${kind}`);
  return v;
}
