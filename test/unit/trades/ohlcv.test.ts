/**
 * Candle building from the trade index's buckets (src/trades/ohlcv.ts): aggregation by interval, open/close by order
 * key, prices missing in a currency, the read cap's partial candle, and GeckoTerminal-style empty intervals. Every
 * expected candle is worked out by hand from the rows above it.
 */
import { describe, expect, it } from "vitest";
import { buildCandles, fillEmptyCandles, type BucketRow, type Candle } from "../../../src/trades/ohlcv";

const minute = 60;
const t0 = 1_764_000_000; // 2025-11-24T16:00:00Z, a multiple of 3600 (and of 300, 900)

function row(time: number, fields: Partial<BucketRow> = {}): BucketRow {
  return { time, firstKey: time * 10, lastKey: time * 10 + 5, open: 1, high: 1, low: 1, close: 1, volume: 10, volumeBase: 100, buys: 1, sells: 0, ...fields };
}

describe("buildCandles", () => {
  it("gathers the minute buckets of one 5m interval into one candle", () => {
    // Given three minute buckets of [t0, t0+300) in no particular order and one of the next interval
    const rows = [
      row(t0 + 2 * minute, { firstKey: 300, lastKey: 399, open: 1.2, high: 1.9, low: 1.1, close: 1.5, volume: 30, volumeBase: 20, buys: 2, sells: 1 }),
      row(t0, { firstKey: 100, lastKey: 199, open: 1.0, high: 1.3, low: 0.9, close: 1.1, volume: 10, volumeBase: 5, buys: 1, sells: 0 }),
      row(t0 + 4 * minute, { firstKey: 500, lastKey: 599, open: 1.5, high: 1.6, low: 0.8, close: 1.4, volume: 5.5, volumeBase: 1.25, buys: 0, sells: 3 }),
      row(t0 + 5 * minute, { firstKey: 600, lastKey: 699, open: 1.4, high: 1.4, low: 1.3, close: 1.35, volume: 1, volumeBase: 2, buys: 1, sells: 1 }),
    ];
    // When they are built into 5m candles
    const candles = buildCandles(rows, { intervalSeconds: 300, bucketSeconds: 60, limit: 10, truncated: false });
    // Then: open of the smallest first key, close of the largest last key, extremes, sums; oldest first
    expect(candles).toEqual([
      { time: t0, open: 1.0, high: 1.9, low: 0.8, close: 1.4, volume: 45.5, volumeBase: 26.25, buys: 3, sells: 4 },
      { time: t0 + 300, open: 1.4, high: 1.4, low: 1.3, close: 1.35, volume: 1, volumeBase: 2, buys: 1, sells: 1 },
    ]);
  });

  it("takes open and close by order key, not by bucket time", () => {
    // Given two buckets of one candle whose keys run against their order in the array
    const rows = [row(t0 + minute, { firstKey: 50, lastKey: 60, open: 7, close: 8 }), row(t0, { firstKey: 10, lastKey: 20, open: 3, close: 4 })];
    const [candle] = buildCandles(rows, { intervalSeconds: 900, bucketSeconds: 60, limit: 1, truncated: false });
    expect(candle).toMatchObject({ time: t0, open: 3, close: 8 });
  });

  it("starts 1d candles at 00:00 UTC and 4h candles on multiples of four hours", () => {
    const day = 86_400;
    const midnight = Math.floor(t0 / day) * day;
    const rows = [row(midnight + 23 * 3600), row(midnight + 24 * 3600), row(midnight + 3 * 3600)];
    expect(buildCandles(rows, { intervalSeconds: day, bucketSeconds: 3600, limit: 10, truncated: false }).map((c) => c.time)).toEqual([midnight, midnight + day]);
    expect(buildCandles(rows, { intervalSeconds: 4 * 3600, bucketSeconds: 3600, limit: 10, truncated: false }).map((c) => c.time)).toEqual([
      midnight,
      midnight + 20 * 3600,
      midnight + 24 * 3600,
    ]);
  });

  it("ignores buckets with no price in the currency for open/high/low/close, but counts their volume", () => {
    const rows = [
      row(t0, { firstKey: 1, lastKey: 2, open: null, high: null, low: null, close: null, volume: 0, volumeBase: 9, buys: 1 }),
      row(t0 + minute, { firstKey: 3, lastKey: 4, open: 2, high: 3, low: 1.5, close: 2.5, volume: 4, volumeBase: 1, buys: 0, sells: 1 }),
    ];
    expect(buildCandles(rows, { intervalSeconds: 300, bucketSeconds: 60, limit: 5, truncated: false })).toEqual([
      { time: t0, open: 2, high: 3, low: 1.5, close: 2.5, volume: 4, volumeBase: 10, buys: 1, sells: 1 },
    ]);
    // A candle with no price at all keeps null prices
    const [none] = buildCandles([rows[0]!], { intervalSeconds: 60, bucketSeconds: 60, limit: 5, truncated: false });
    expect(none).toEqual({ time: t0, open: null, high: null, low: null, close: null, volume: 0, volumeBase: 9, buys: 1, sells: 0 });
  });

  it("keeps the newest `limit` candles", () => {
    const rows = [0, 1, 2, 3].map((i) => row(t0 + i * minute));
    expect(buildCandles(rows, { intervalSeconds: 60, bucketSeconds: 60, limit: 2, truncated: false }).map((c) => c.time)).toEqual([t0 + 2 * minute, t0 + 3 * minute]);
  });

  it("a read cut at its cap leaves out the oldest candle unless it holds a full interval of buckets", () => {
    // Given the newest rows of a cut read: the oldest 15m candle has 2 of its (possibly) 15 buckets
    const rows = [row(t0 + 13 * minute), row(t0 + 14 * minute), row(t0 + 15 * minute)];
    expect(buildCandles(rows, { intervalSeconds: 900, bucketSeconds: 60, limit: 10, truncated: true }).map((c) => c.time)).toEqual([t0 + 900]);
    // Not cut: it is complete as it is
    expect(buildCandles(rows, { intervalSeconds: 900, bucketSeconds: 60, limit: 10, truncated: false }).map((c) => c.time)).toEqual([t0, t0 + 900]);
    // Cut, but full (1m candles are always one bucket): kept
    expect(buildCandles(rows, { intervalSeconds: 60, bucketSeconds: 60, limit: 10, truncated: true })).toHaveLength(3);
  });

  it("no rows, no candles", () => {
    expect(buildCandles([], { intervalSeconds: 60, bucketSeconds: 60, limit: 10, truncated: true })).toEqual([]);
  });
});

describe("fillEmptyCandles", () => {
  const candle = (time: number, close: number): Candle => ({ time, open: close - 1, high: close + 1, low: close - 2, close, volume: 5, volumeBase: 6, buys: 1, sells: 1 });

  it("fills the gaps between the first and the last candle with the previous close and zero volume", () => {
    const filled = fillEmptyCandles([candle(t0, 10), candle(t0 + 180, 20)], 60, 100);
    expect(filled).toEqual([
      candle(t0, 10),
      { time: t0 + 60, open: 10, high: 10, low: 10, close: 10, volume: 0, volumeBase: 0, buys: 0, sells: 0 },
      { time: t0 + 120, open: 10, high: 10, low: 10, close: 10, volume: 0, volumeBase: 0, buys: 0, sells: 0 },
      candle(t0 + 180, 20),
    ]);
  });

  it("adds nothing before the first or after the last candle, and nothing to an empty list", () => {
    expect(fillEmptyCandles([candle(t0, 1)], 300, 10)).toEqual([candle(t0, 1)]);
    expect(fillEmptyCandles([], 300, 10)).toEqual([]);
  });

  it("keeps the newest `limit` slots of a long gap, carrying the close of the candle before them", () => {
    // Given a candle a day before the last one, 1m interval, limit 3
    const filled = fillEmptyCandles([candle(t0 - 86_400, 7), candle(t0, 9)], 60, 3);
    expect(filled.map((c) => [c.time, c.close, c.volume])).toEqual([
      [t0 - 120, 7, 0],
      [t0 - 60, 7, 0],
      [t0, 9, 5],
    ]);
  });

  it("carries a null close as null prices", () => {
    const noPrice: Candle = { time: t0, open: null, high: null, low: null, close: null, volume: 1, volumeBase: 1, buys: 1, sells: 0 };
    expect(fillEmptyCandles([noPrice, candle(t0 + 120, 3)], 60, 10)[1]).toEqual({ time: t0 + 60, open: null, high: null, low: null, close: null, volume: 0, volumeBase: 0, buys: 0, sells: 0 });
  });
});
