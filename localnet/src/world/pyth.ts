/**
 * Pyth pull-oracle PriceUpdateV2 for SOL/USD at the mainnet push-feed address (VENUES.md §14): 134 bytes, Full
 * verification, price with exponent −8, publish_time = the block time and posted_slot = the slot of every produced slot.
 */
import type { Pubkey } from "../chain/types.js";
import { FixedWriter, hex } from "./core/bytes.js";
import { PYTH_RECEIVER_PROGRAM, PYTH_SOL_USD_FEED_ID } from "./programs.js";

export const PRICE_UPDATE_V2_SIZE = 134;
const DISC = hex("22f123639d7ef4cd");

export interface PythPrice {
  writeAuthority: Pubkey;
  price: bigint;
  conf: bigint;
  exponent: number;
  publishTime: bigint;
  prevPublishTime: bigint;
  emaPrice: bigint;
  emaConf: bigint;
  postedSlot: bigint;
}

export function encodePriceUpdateV2(p: PythPrice): Uint8Array {
  const o = 41; // Full verification: 1-byte enum, fields start at 41
  return new FixedWriter(PRICE_UPDATE_V2_SIZE)
    .raw(0, DISC)
    .pubkey(8, p.writeAuthority)
    .u8(40, 1)
    .raw(o, hex(PYTH_SOL_USD_FEED_ID))
    .i64(o + 32, p.price)
    .u64(o + 40, p.conf)
    .i32(o + 48, p.exponent)
    .i64(o + 52, p.publishTime)
    .i64(o + 60, p.prevPublishTime)
    .i64(o + 68, p.emaPrice)
    .u64(o + 76, p.emaConf)
    .u64(o + 84, p.postedSlot).bytes;
}

export const PYTH_OWNER = PYTH_RECEIVER_PROGRAM;
