/**
 * SOL/USD from the Pyth sponsored push feed (7UVimffx…, shard 0). Only fully verified updates of the
 * SOL/USD feed with a positive price are accepted; staleness is judged by the caller from publishTime.
 */
import { PYTH_SOL_USD_FEED_ID } from "../solana/well-known";
import { VenueDecodeError } from "../venues/errors";
import { decodePriceUpdateV2 } from "../venues/pyth-price-update";
import type { AccountBytes } from "../venues/types";
import { fromPow10, mul, ratio, type Ratio } from "./fixed-point";

export interface SolUsdPrice {
  /** USD per SOL, exact: price × 10^exponent */
  readonly price: Ratio;
  /** ± confidence interval in USD, exact */
  readonly confidence: Ratio;
  /** unix seconds of the Pyth publication */
  readonly publishTime: bigint;
  /** slot at which the update was posted on chain */
  readonly postedSlot: bigint;
}

/** Decodes the SOL/USD PriceUpdateV2 account; throws `VenueDecodeError` for any other feed or an unusable update. */
export function decodeSolUsdPriceUpdate(account: AccountBytes): SolUsdPrice {
  const update = decodePriceUpdateV2(account);
  if (update.feedId !== PYTH_SOL_USD_FEED_ID) {
    throw new VenueDecodeError("PriceUpdateV2", "mismatch", `feed ${update.feedId} is not SOL/USD`);
  }
  if (update.verificationLevel.kind !== "full") {
    throw new VenueDecodeError("PriceUpdateV2", "value", "update is only partially verified");
  }
  if (update.price <= 0n) throw new VenueDecodeError("PriceUpdateV2", "value", `non-positive price ${update.price}`);
  const scale = fromPow10(update.exponent);
  return {
    price: mul(ratio(update.price), scale),
    confidence: mul(ratio(update.conf), scale),
    publishTime: update.publishTime,
    postedSlot: update.postedSlot,
  };
}
