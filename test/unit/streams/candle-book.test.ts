/**
 * The chain tail's live candles (src/streams/candle-book.ts) block by block, worked out by hand: forming candles once
 * per block that trades the mint, closed with the first block past their end (a quiet one too), partial when the tail
 * began following the mint (or skipped slots) at or after the candle's start, mints no longer wanted forgotten.
 */
import { describe, expect, it } from "vitest";
import { CandleBook, candleTopic } from "../../../src/streams/candle-book";
import type { LiveCandle, StreamEvent } from "../../../src/streams/stream-events";
import type { Trade } from "../../../src/trades/trade";

const MINT = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const OTHER = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
/** a multiple of 3600 */
const H = 1_764_000_000;

function trade(mint: string, slot: number, txIndex: number, side: "buy" | "sell", base: number, priceUsd: number): Trade {
  return {
    slot, txIndex, ordinal: 0, signature: `s${slot}-${txIndex}`, blockTime: null, pool: "pool", kind: "pump-bonding-curve", baseMint: mint,
    quoteMint: "So11111111111111111111111111111111111111112", side, baseAmount: BigInt(base * 1e6), quoteAmount: 1n, baseDecimals: 6, quoteDecimals: 9,
    wallet: "w", priceQuote: priceUsd / 100, priceSol: priceUsd / 100, priceUsd, valueUsd: priceUsd * base,
  };
}

const candles = (events: StreamEvent[]) => events.map((e) => e.data as LiveCandle);
const brief = (c: LiveCandle) => [c.interval, c.time, c.closed, c.partial, c.open, c.high, c.low, c.close, c.buys, c.sells, c.volume];

describe("CandleBook", () => {
  it("folds trades into every interval, sends a forming candle once per block that traded, closes a candle with the first block past its end", () => {
    const book = new CandleBook();
    book.follow(new Set([MINT]));
    // the first block seen (H+10): candles of every interval starting at or before it are partial
    expect(book.block(100, H + 10, [])).toEqual([]);
    // H+11: two trades in one block → one forming candle per interval
    const b1 = book.block(101, H + 11, [trade(MINT, 101, 0, "buy", 2, 1.5), trade(MINT, 101, 1, "sell", 1, 1.25), trade(OTHER, 101, 2, "buy", 1, 9)]);
    expect(b1.every((e) => e.topic === candleTopic(MINT) && e.slot === 101)).toBe(true);
    expect(candles(b1).map(brief)).toEqual([
      ["1s", H + 11, false, false, 1.5, 1.5, 1.25, 1.25, 1, 1, 4.25],
      ["1m", H, false, true, 1.5, 1.5, 1.25, 1.25, 1, 1, 4.25],
      ["5m", H, false, true, 1.5, 1.5, 1.25, 1.25, 1, 1, 4.25],
      ["1h", H, false, true, 1.5, 1.5, 1.25, 1.25, 1, 1, 4.25],
    ]);
    // H+11 again (a second block in the same second): the forming candles move
    const b2 = candles(book.block(102, H + 11, [trade(MINT, 102, 0, "buy", 1, 2)]));
    expect(brief(b2[0]!)).toEqual(["1s", H + 11, false, false, 1.5, 2, 1.25, 2, 2, 1, 6.25]);
    // H+12 with no trade of the mint: the 1s candle closes (its final state), nothing else
    const b3 = candles(book.block(103, H + 12, []));
    expect(b3.map(brief)).toEqual([["1s", H + 11, true, false, 1.5, 2, 1.25, 2, 2, 1, 6.25]]);
    expect(b3[0]!.slot).toBe(103);
    expect(b3[0]!.sol).toEqual({ open: 0.015, high: 0.02, low: 0.0125, close: 0.02, volume: 0.015 * 2 + 0.02 * 1 + 0.0125 * 1 });
    // H+61: a trade after the minute's end → the 1m candle closes first, then the new forming ones
    const b4 = candles(book.block(104, H + 61, [trade(MINT, 104, 0, "sell", 1, 3)]));
    expect(b4.map((c) => [c.interval, c.time, c.closed, c.partial])).toEqual([
      ["1m", H, true, true],
      ["1s", H + 61, false, false],
      ["1m", H + 60, false, false],
      ["5m", H, false, true],
      ["1h", H, false, true],
    ]);
  });

  it("slots skipped: the candles forming, and those the next block opens at or before its time, are partial", () => {
    const book = new CandleBook();
    book.follow(new Set([MINT]));
    book.block(1, H, []);
    expect(candles(book.block(2, H + 120, [trade(MINT, 2, 0, "buy", 1, 1)])).map((c) => [c.interval, c.partial])).toEqual([
      ["1s", false],
      ["1m", false],
      ["5m", true],
      ["1h", true],
    ]);
    book.skipped();
    // the 1s candle at H+120 was forming across the gap; the next block at H+121 opens one that may lack trades too
    const after = candles(book.block(9, H + 121, [trade(MINT, 9, 0, "buy", 1, 1)]));
    expect(after.map((c) => [c.interval, c.time, c.closed, c.partial])).toEqual([
      ["1s", H + 120, true, true],
      ["1s", H + 121, false, true],
      ["1m", H + 120, false, true],
      ["5m", H, false, true],
      ["1h", H, false, true],
    ]);
    // the second after it is whole again
    expect(candles(book.block(10, H + 122, [trade(MINT, 10, 0, "buy", 1, 1)])).find((c) => !c.closed && c.interval === "1s")!.partial).toBe(false);
  });

  it("a block without a block time places nothing; a mint no longer followed is forgotten (its forming candles dropped)", () => {
    const book = new CandleBook();
    book.follow(new Set([MINT]));
    expect(book.block(1, null, [trade(MINT, 1, 0, "buy", 1, 1)])).toEqual([]);
    book.block(2, H, [trade(MINT, 2, 0, "buy", 1, 1)]);
    book.follow(new Set([OTHER]));
    expect(book.followed).toBe(1);
    expect(book.block(3, H + 7200, [trade(MINT, 3, 0, "buy", 1, 1)])).toEqual([]);
  });
});
