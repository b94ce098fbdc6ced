import { describe, expect, it } from "vitest";
import { bucketRows, orderKey } from "../../../src/trades/trade-buckets";
import type { Trade } from "../../../src/trades/trade";
import { WSOL_MINT } from "../../../src/solana/well-known";

const MINT = "7nYhDYAxQdFn2DRPcjBFPQQz5qb8HeFiJv9o9w6fpump";

function trade(slot: number, txIndex: number, side: "buy" | "sell", priceUsd: number, blockTime: number, over: Partial<Trade> = {}): Trade {
  return {
    slot, txIndex, ordinal: 0, signature: `s${slot}.${txIndex}`, blockTime, pool: "p", kind: "pumpswap", baseMint: MINT, quoteMint: WSOL_MINT, side,
    baseAmount: 2_000_000n, quoteAmount: 1n, baseDecimals: 6, quoteDecimals: 9, wallet: "w",
    priceQuote: priceUsd / 100, priceSol: priceUsd / 100, priceUsd, valueUsd: priceUsd * 2, ...over,
  };
}

describe("bucket rows of trades", () => {
  it("sums volumes per side and takes open/close by chain order, not by the order trades arrive in", () => {
    // Given three trades in one minute, listed out of chain order
    const rows = bucketRows([trade(12, 0, "sell", 3, 120), trade(10, 5, "buy", 1, 121), trade(11, 0, "buy", 5, 125)], 60);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    // Then open is the earliest trade's price, close the latest's, and the extremes the max/min
    expect(row).toMatchObject({ mint: MINT, bucket: 2, buys: 2, sells: 1, buyUsd: 12, sellUsd: 6, buyBase: 4, sellBase: 2 });
    expect(row).toMatchObject({ openUsd: 1, closeUsd: 3, highUsd: 5, lowUsd: 1, openSol: 0.01, closeSol: 0.03 });
    expect(row!.buySol).toBeCloseTo(0.12, 12);
    expect(row!.firstKey).toBe(orderKey({ slot: 10, txIndex: 5, ordinal: 0 }));
    expect(row!.lastKey).toBe(orderKey({ slot: 12, txIndex: 0, ordinal: 0 }));
  });

  it("splits by minute and by hour, and leaves out trades without a block time", () => {
    const trades = [trade(1, 0, "buy", 1, 59), trade(2, 0, "buy", 1, 60), trade(3, 0, "buy", 1, 3600), trade(4, 0, "buy", 1, 0, { blockTime: null })];
    expect(bucketRows(trades, 60).map((r) => r.bucket)).toEqual([0, 1, 60]);
    expect(bucketRows(trades, 3600).map((r) => [r.bucket, r.buys])).toEqual([[0, 2], [1, 1]]);
  });

  it("orders by slot, then transaction, then swap, exactly for mainnet-sized slots", () => {
    const a = orderKey({ slot: 400_000_000, txIndex: 16_383, ordinal: 63 });
    const b = orderKey({ slot: 400_000_001, txIndex: 0, ordinal: 0 });
    expect(a).toBeLessThan(b);
    expect(Number.isSafeInteger(b)).toBe(true);
  });
});
