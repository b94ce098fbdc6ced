/**
 * Per-mint buckets (one minute, one hour) of a set of trades, as rows the store adds to D1. Buckets are additive, so a
 * batch of blocks is summed in memory and written once; open/close go by the order key, so batches may land in any
 * order (parallel queue consumers) and still give the same candle.
 */
import type { Trade, TradePosition } from "./trade";
import { uiAmount } from "./trade-pricing";

/** Total order of trades: slot, then transaction, then swap. Exact in a double while slot < 2^33. */
export function orderKey(p: TradePosition): number {
  return p.slot * 1_048_576 + Math.min(p.txIndex, 16_383) * 64 + Math.min(p.ordinal, 63);
}

export interface BucketRow {
  mint: string;
  bucket: number;
  buys: number;
  sells: number;
  buyUsd: number;
  sellUsd: number;
  buySol: number;
  sellSol: number;
  buyBase: number;
  sellBase: number;
  firstKey: number;
  lastKey: number;
  openUsd: number | null;
  highUsd: number | null;
  lowUsd: number | null;
  closeUsd: number | null;
  openSol: number | null;
  highSol: number | null;
  lowSol: number | null;
  closeSol: number | null;
}

/** Trades without a block time cannot be placed in time: they are stored but not bucketed. */
export function bucketRows(trades: readonly Trade[], seconds: 60 | 3600): BucketRow[] {
  const rows = new Map<string, BucketRow & { usdKeys: [number, number]; solKeys: [number, number] }>();
  for (const t of trades) {
    if (t.blockTime === null) continue;
    const bucket = Math.floor(t.blockTime / seconds);
    const id = `${t.baseMint}:${bucket}`;
    let row = rows.get(id);
    const key = orderKey(t);
    if (!row) {
      row = {
        mint: t.baseMint, bucket, buys: 0, sells: 0, buyUsd: 0, sellUsd: 0, buySol: 0, sellSol: 0, buyBase: 0, sellBase: 0,
        firstKey: key, lastKey: key, openUsd: null, highUsd: null, lowUsd: null, closeUsd: null, openSol: null, highSol: null, lowSol: null, closeSol: null,
        usdKeys: [Infinity, -Infinity], solKeys: [Infinity, -Infinity],
      };
      rows.set(id, row);
    }
    const base = uiAmount(t.baseAmount, t.baseDecimals);
    const sol = t.priceSol === null ? 0 : t.priceSol * base;
    if (t.side === "buy") {
      row.buys++;
      row.buyUsd += t.valueUsd ?? 0;
      row.buySol += sol;
      row.buyBase += base;
    } else {
      row.sells++;
      row.sellUsd += t.valueUsd ?? 0;
      row.sellSol += sol;
      row.sellBase += base;
    }
    row.firstKey = Math.min(row.firstKey, key);
    row.lastKey = Math.max(row.lastKey, key);
    if (t.priceUsd !== null) {
      if (key < row.usdKeys[0]) (row.usdKeys[0] = key), (row.openUsd = t.priceUsd);
      if (key > row.usdKeys[1]) (row.usdKeys[1] = key), (row.closeUsd = t.priceUsd);
      row.highUsd = row.highUsd === null ? t.priceUsd : Math.max(row.highUsd, t.priceUsd);
      row.lowUsd = row.lowUsd === null ? t.priceUsd : Math.min(row.lowUsd, t.priceUsd);
    }
    if (t.priceSol !== null) {
      if (key < row.solKeys[0]) (row.solKeys[0] = key), (row.openSol = t.priceSol);
      if (key > row.solKeys[1]) (row.solKeys[1] = key), (row.closeSol = t.priceSol);
      row.highSol = row.highSol === null ? t.priceSol : Math.max(row.highSol, t.priceSol);
      row.lowSol = row.lowSol === null ? t.priceSol : Math.min(row.lowSol, t.priceSol);
    }
  }
  return [...rows.values()].map(({ usdKeys: _u, solKeys: _s, ...row }) => row);
}

/** One row per distinct (mint, minute, side, wallet) of `trades` (those with a block time): who traded in each minute. */
export function walletMinuteRows(trades: readonly Trade[]): [mint: string, minute: number, side: string, wallet: string][] {
  const rows = new Map<string, [string, number, string, string]>();
  for (const t of trades) {
    if (t.blockTime === null) continue;
    const minute = Math.floor(t.blockTime / 60);
    rows.set(`${t.baseMint}:${minute}:${t.side}:${t.wallet}`, [t.baseMint, minute, t.side, t.wallet]);
  }
  return [...rows.values()];
}
