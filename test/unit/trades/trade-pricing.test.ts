import { describe, expect, it } from "vitest";
import { blockSolUsd, priceSwap, unpricedQuotes, valueThroughQuotes } from "../../../src/trades/trade-pricing";
import type { PoolSwap } from "../../../src/trades/trade";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../../../src/solana/well-known";

const TOKEN = "7nYhDYAxQdFn2DRPcjBFPQQz5qb8HeFiJv9o9w6fpump";
const OTHER = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";

function swap(over: Partial<PoolSwap>): PoolSwap {
  return {
    slot: 1, txIndex: 0, ordinal: 0, signature: "sig", blockTime: 1_700_000_000, pool: "pool", kind: "pumpswap",
    baseMint: TOKEN, quoteMint: WSOL_MINT, side: "buy", baseAmount: 1_000_000n, quoteAmount: 2_000_000_000n, baseDecimals: 6, quoteDecimals: 9,
    wallet: "w", ...over,
  };
}

describe("SOL/USD of a block", () => {
  it("is the USD-weighted median of the block's SOL/stable swaps, so a dust pool's silly price does not move it", () => {
    // Given two deep SOL/USDC swaps near 150 and a dust SOL/USDT swap at 10,000
    const swaps = [
      swap({ baseMint: WSOL_MINT, quoteMint: USDC_MINT, baseAmount: 10n * 10n ** 9n, quoteAmount: 1_500_000_000n, baseDecimals: 9, quoteDecimals: 6 }),
      swap({ baseMint: WSOL_MINT, quoteMint: USDC_MINT, baseAmount: 20n * 10n ** 9n, quoteAmount: 3_020_000_000n, baseDecimals: 9, quoteDecimals: 6 }),
      swap({ baseMint: WSOL_MINT, quoteMint: USDT_MINT, baseAmount: 1_000n, quoteAmount: 10_000n, baseDecimals: 9, quoteDecimals: 6 }),
      swap({}),
    ];
    // Then the block price is the deep pools' (151, the heavier one)
    expect(blockSolUsd(swaps, 99)).toBe(151);
  });

  it("carries the previous block's value when the block has no SOL/stable swap, and is null without either", () => {
    expect(blockSolUsd([swap({})], 142.5)).toBe(142.5);
    expect(blockSolUsd([], null)).toBeNull();
  });
});

describe("pricing a swap", () => {
  it("prices a SOL-quoted swap in SOL, USD and its USD value from the block's SOL/USD", () => {
    // Given 1 token (6 decimals) bought for 2 SOL at 150 USD/SOL
    const t = priceSwap(swap({}), 150);
    expect(t.priceQuote).toBe(2);
    expect(t.priceSol).toBe(2);
    expect(t.priceUsd).toBe(300);
    expect(t.valueUsd).toBe(300);
  });

  it("prices a USDC-quoted swap at face value and in SOL through SOL/USD", () => {
    const t = priceSwap(swap({ quoteMint: USDC_MINT, quoteAmount: 3_000_000n, quoteDecimals: 6 }), 150);
    expect(t.priceUsd).toBe(3);
    expect(t.priceSol).toBe(0.02);
    expect(t.valueUsd).toBe(3);
  });

  it("leaves USD and SOL unknown for a quote with no USD price (a token/token pool)", () => {
    const t = priceSwap(swap({ quoteMint: OTHER, quoteAmount: 5_000_000n, quoteDecimals: 6 }), 150);
    expect(t.priceQuote).toBe(5);
    expect(t.priceUsd).toBeNull();
    expect(t.priceSol).toBeNull();
    expect(t.valueUsd).toBeNull();
  });
});

describe("pricing a swap quoted in another token (an LST, USD1, a memecoin)", () => {
  const JITOSOL = "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn";
  const USD1 = "USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB";

  it("values it through the quote token's own USD price: USD, SOL and the trade's USD value", () => {
    // Given 1 token bought for 4 JitoSOL (9 dp), JitoSOL worth $160.5 and SOL $150
    const t = priceSwap(swap({ quoteMint: JITOSOL, quoteAmount: 4_000_000_000n }), 150, (m) => (m === JITOSOL ? 160.5 : null));
    expect(t.priceQuote).toBe(4);
    expect(t.priceUsd).toBe(642);
    expect(t.priceSol).toBeCloseTo(642 / 150, 12);
    expect(t.valueUsd).toBe(642);
  });

  it("finds the unvalued quote tokens of a page once each, and values only those trades", () => {
    const trades = [
      priceSwap(swap({ quoteMint: USD1, quoteAmount: 2_000_000n, quoteDecimals: 6 }), 150),
      priceSwap(swap({ quoteMint: USD1, quoteAmount: 3_000_000n, quoteDecimals: 6 }), 150),
      priceSwap(swap({ quoteMint: OTHER, quoteAmount: 1_000_000n, quoteDecimals: 6 }), 150),
      priceSwap(swap({}), 150),
      priceSwap(swap({ quoteMint: USDC_MINT, quoteAmount: 3_000_000n, quoteDecimals: 6 }), 150),
    ];
    expect(unpricedQuotes(trades)).toEqual([USD1, OTHER]);
    // When USD1 has a price ($0.9995) and OTHER none
    const valued = valueThroughQuotes(trades, 150, new Map([[USD1, 0.9995]]));
    // Then the USD1 trades are valued through it, the others are unchanged
    expect(valued[0]!.priceUsd).toBeCloseTo(2 * 0.9995, 12);
    expect(valued[1]!.valueUsd).toBeCloseTo(3 * 0.9995, 12);
    expect(valued[2]).toEqual(trades[2]);
    expect(valued[3]).toEqual(trades[3]);
    expect(valued[4]).toEqual(trades[4]);
  });
});
