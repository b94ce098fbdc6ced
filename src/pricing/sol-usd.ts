/**
 * SOL/USD, never a constant: the Pyth sponsored push feed (7UVimffx…, shard 0) when fresh — only fully verified updates
 * of the SOL/USD feed with a positive price — else the deepest SOL/USDC (or USDT) pool.
 */
import { limits } from "../limits";
import { PYTH_SOL_USD_FEED_ID, WSOL_MINT } from "../solana/well-known";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodePriceUpdateV2 } from "../solana/accounts/pyth-price-update";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { fromPow10, mul, ratio, type Ratio } from "../math/fixed-point";
import { poolAdapters } from "../venues/pool-adapters";
import { derivedCandidates, registryCandidates } from "./pool-candidates";
import { pickBest, quoteUsd } from "./pool-choice";
import { readAndEvaluate } from "./pool-evaluation";
import type { PriceDeps } from "./price-query";
import { capturePoolRead, type PoolRead } from "./price-receipt";

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

/** Decodes the SOL/USD PriceUpdateV2 account; throws `AccountDecodeError` for any other feed or an unusable update. */
export function decodeSolUsdPriceUpdate(account: AccountBytes): SolUsdPrice {
  const update = decodePriceUpdateV2(account);
  if (update.feedId !== PYTH_SOL_USD_FEED_ID) {
    throw new AccountDecodeError("PriceUpdateV2", "mismatch", `feed ${update.feedId} is not SOL/USD`);
  }
  if (update.verificationLevel.kind !== "full") {
    throw new AccountDecodeError("PriceUpdateV2", "value", "update is only partially verified");
  }
  if (update.price <= 0n) throw new AccountDecodeError("PriceUpdateV2", "value", `non-positive price ${update.price}`);
  const scale = fromPow10(update.exponent);
  return {
    price: mul(ratio(update.price), scale),
    confidence: mul(ratio(update.conf), scale),
    publishTime: update.publishTime,
    postedSlot: update.postedSlot,
  };
}

export interface SolUsd {
  price: Ratio;
  source: "pyth" | "pool";
  publishTime?: number;
  /** the pool it came from (source "pool"), with the accounts read, for receipts */
  read?: PoolRead;
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

let poolSolUsd: { value: SolUsd; until: number } | undefined;

/** SOL/USD from the deepest SOL/USDC (or USDT) pool, when the oracle is stale. Remembered `limits.solUsdFromPoolsMemoMs`. */
export async function solUsdFromPools(deps: PriceDeps, now: number): Promise<SolUsd | undefined> {
  if (poolSolUsd && poolSolUsd.until > now && deps.commitment === undefined) return poolSolUsd.value;
  const registered = await registryCandidates(deps.db, [WSOL_MINT], now);
  const candidates = [...(await derivedCandidates(WSOL_MINT, deps)), ...(registered.get(WSOL_MINT) ?? [])];
  const { evaluations, lookup, slotOf } = await readAndEvaluate(deps, [WSOL_MINT], new Map([[WSOL_MINT, candidates]]), poolAdapters, []);
  const usdQuoted = (evaluations[0]?.priced ?? []).filter((p) => quoteUsd(p.price.quoteMint, ratio(1n)) && p.price.quoteMint !== WSOL_MINT);
  // The SOL price passed in only orders pools by their USD depth, which for USD-quoted pools does not depend on it.
  const { best } = pickBest(usdQuoted, ratio(1n), 9);
  if (!best) return undefined;
  // The accounts behind it are kept with it (a pool and two vaults, bytes already read): a receipt shows them.
  const value: SolUsd = { price: best.priceUsd, source: "pool", read: capturePoolRead(best, WSOL_MINT, evaluations[0]?.mintInfo, lookup, slotOf) };
  // a processed read is not remembered for the confirmed readers
  if (deps.commitment === undefined) poolSolUsd = { value, until: now + limits.solUsdFromPoolsMemoMs };
  return value;
}
