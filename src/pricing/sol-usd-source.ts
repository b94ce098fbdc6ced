import type { AccountBytes } from "../venues/types";
import { limits } from "../limits";
import type { Ratio } from "./fixed-point";
import { decodeSolUsdPriceUpdate } from "./sol-usd";

export interface SolUsd {
  price: Ratio;
  source: "pyth" | "pool";
  publishTime?: number;
}

/**
 * SOL/USD from the Pyth pull-oracle account when its publish time is at most `maxOracleAgeSeconds` old; undefined
 * otherwise (missing, foreign, stale), and the caller falls back to the deepest SOL/USDC pool.
 */
export function solUsdFromOracle(account: AccountBytes | null | undefined, nowMs: number): SolUsd | undefined {
  if (!account) return undefined;
  try {
    const update = decodeSolUsdPriceUpdate(account);
    const age = nowMs / 1000 - Number(update.publishTime);
    if (age > limits.maxOracleAgeSeconds) return undefined;
    return { price: update.price, source: "pyth", publishTime: Number(update.publishTime) };
  } catch {
    return undefined;
  }
}
