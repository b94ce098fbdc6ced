/**
 * The SOL/USD carry (src/trades/sol-usd-carry.ts) on a synthetic chain: whoever starts reading wherever — the chain tail
 * at its first block, the trade index's ranges in the order parallel consumers take them — finds for each block the
 * SOL/USD of the nearest earlier block with a SOL/stable swap, so a trade gets one USD price and a live candle equals
 * the REST candle of the same span. Before, the tail began with the live SOL/USD and a range with the last block the
 * index had stored, and a candle opened in such a block differed from REST's in USD only (the open, off by the
 * difference between the two SOL/USD values).
 *
 * Then the same for trades quoted in another token (an LST): its USD is the price service's answer of the moment, so
 * the first reader of a block settles it for both (src/trades/block-quote-usd.ts) — tail first, index first or side by
 * side, with price services that disagree and fail now and then, every trade gets the same values from both.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { limits } from "../../../src/limits";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import { CandleBook } from "../../../src/streams/candle-book";
import type { LiveCandle } from "../../../src/streams/stream-events";
import { buildCandles, candleOfFold, foldTrade, newCandleFold, type Candle, type CandleFold, type OhlcvCurrency } from "../../../src/trades/ohlcv";
import { valueBlocksThroughQuotes, type QuoteUsdSources } from "../../../src/trades/block-quote-usd";
import { solUsdBefore, type SolUsdSources } from "../../../src/trades/sol-usd-carry";
import type { PoolSwap, Trade } from "../../../src/trades/trade";
import { bucketRows } from "../../../src/trades/trade-buckets";
import { blockSolUsd, priceSwap } from "../../../src/trades/trade-pricing";
import type { StoredBlock } from "../../../src/trades/trade-store";

const MINT = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
/** a multiple of 3600 */
const T0 = 1_764_000_000;
const FIRST = 1000;
const LAST = 1299;
/** the live SOL/USD of the price service: what no block says */
const LIVE = 151.234;

interface Block {
  slot: number;
  blockTime: number;
  swaps: PoolSwap[];
}

function swap(slot: number, txIndex: number, fields: Pick<PoolSwap, "baseMint" | "quoteMint" | "side" | "baseAmount" | "quoteAmount" | "baseDecimals" | "quoteDecimals">): PoolSwap {
  return { slot, txIndex, ordinal: 0, signature: `s${slot}-${txIndex}`, blockTime: null, pool: `pool-${fields.baseMint}`, kind: "pumpswap", wallet: "w", ...fields };
}

/**
 * Slots FIRST..LAST, 2.5 blocks a second; every ninth slot has no block. Most blocks have an arbitrage swap on SOL/USDC;
 * those at 0 and 1 mod 20 (where the index's 20-slot ranges start) and 1100..1104 (where the tail starts) have none. Every
 * block trades MINT against SOL two or three times.
 */
function chain(): Map<number, Block> {
  const blocks = new Map<number, Block>();
  for (let slot = FIRST; slot <= LAST; slot++) {
    if (slot % 9 === 4) continue;
    const swaps: PoolSwap[] = [];
    const noArb = slot % 20 === 0 || slot % 20 === 1 || (slot >= 1100 && slot <= 1104) || slot % 13 === 5;
    if (!noArb) {
      const solUsd = 150 + 3 * Math.sin(slot / 7);
      swaps.push(swap(slot, 0, { baseMint: WSOL_MINT, quoteMint: USDC_MINT, side: "buy", baseAmount: 10n ** 9n, quoteAmount: BigInt(Math.round(solUsd * 1e6)), baseDecimals: 9, quoteDecimals: 6 }));
    }
    for (let k = 0; k < 2 + (slot % 2); k++) {
      const priceSol = 0.00001 * (1 + 0.05 * Math.sin(slot * 1.3 + k));
      const base = 1_000_000n * BigInt(1 + ((slot + k) % 5));
      swaps.push(
        swap(slot, 1 + k, { baseMint: MINT, quoteMint: WSOL_MINT, side: (slot + k) % 3 === 0 ? "sell" : "buy", baseAmount: base, quoteAmount: BigInt(Math.round(Number(base) * priceSol * 1e3)), baseDecimals: 6, quoteDecimals: 9 }),
      );
    }
    blocks.set(slot, { slot, blockTime: T0 + Math.floor(((slot - FIRST) * 2) / 5), swaps });
  }
  return blocks;
}

/** The chain and the index's stored SOL/USD as sources, counting block reads and live asks. */
function sources(blocks: Map<number, Block>, stored: Map<number, number>) {
  const counts = { reads: 0, live: 0 };
  const s: SolUsdSources = {
    blocks: async (from, to) => [...blocks.keys()].filter((slot) => slot >= from && slot <= to),
    stored: async (slots) => new Map(slots.flatMap((slot) => (stored.has(slot) ? [[slot, stored.get(slot)!] as const] : []))),
    own: async (slot) => {
      counts.reads++;
      const block = blocks.get(slot);
      return block === undefined ? null : blockSolUsd(block.swaps, null);
    },
    live: async () => {
      counts.live++;
      return LIVE;
    },
  };
  return { sources: s, counts };
}

/** One block priced with a carry, as readBlock prices it: its own SOL/USD, else the carry. */
function priced(block: Block, carry: number | null): { solUsd: number | null; trades: Trade[] } {
  const solUsd = blockSolUsd(block.swaps, carry);
  return { solUsd, trades: block.swaps.map((s) => priceSwap({ ...s, blockTime: block.blockTime }, solUsd)) };
}

/** The carry before every block, read in one pass from the first block (whose carry is the chain's before it: given). */
function inOrderCarries(blocks: Map<number, Block>, before: number): Map<number, number | null> {
  const out = new Map<number, number | null>();
  let carry: number | null = before;
  for (const block of blocks.values()) {
    out.set(block.slot, carry);
    carry = priced(block, carry).solUsd;
  }
  return out;
}

/** The trade index: 20-slot ranges taken last first (as parallel consumers may), each read in slot order from its first block's carry. */
async function indexAll(blocks: Map<number, Block>): Promise<{ trades: Trade[]; stored: Map<number, number> }> {
  const stored = new Map<number, number>();
  const trades: Trade[] = [];
  for (let from = LAST - 19; from >= FIRST; from -= 20) {
    const range = [...blocks.values()].filter((b) => b.slot >= from && b.slot < from + 20);
    let carry = await solUsdBefore(sources(blocks, stored).sources, range[0]!.slot);
    for (const block of range) {
      const p = priced(block, carry);
      carry = p.solUsd;
      stored.set(block.slot, p.solUsd!);
      trades.push(...p.trades);
    }
  }
  return { trades: trades.sort((a, b) => a.slot - b.slot || a.txIndex - b.txIndex), stored };
}

/**
 * Every full (not partial) final live candle of MINT, 1s and 1m, equals REST's built from the index's trades, in USD and
 * SOL (volumes to 1e-9); returns how many were compared.
 */
function fullCandlesEqualRest(live: readonly LiveCandle[], indexTrades: Trade[]): number {
  let compared = 0;
  for (const interval of ["1s", "1m"] as const) {
    const finals = new Map<number, LiveCandle>();
    for (const c of live) if (c.interval === interval) finals.set(c.time, c);
    const usd = new Map(restCandles(indexTrades, interval, "usd").map((c) => [c.time, c]));
    const sol = new Map(restCandles(indexTrades, interval, "sol").map((c) => [c.time, c]));
    for (const c of [...finals.values()].filter((f) => !f.partial)) {
      const r = usd.get(c.time)!;
      const s = sol.get(c.time)!;
      expect([c.time, c.open, c.high, c.low, c.close, c.buys, c.sells], `${interval} ${c.time}`).toEqual([r.time, r.open, r.high, r.low, r.close, r.buys, r.sells]);
      expect([c.sol.open, c.sol.high, c.sol.low, c.sol.close]).toEqual([s.open, s.high, s.low, s.close]);
      expect(Math.abs(c.volume - r.volume)).toBeLessThanOrEqual(1e-9 * r.volume);
      expect(Math.abs(c.sol.volume - s.volume)).toBeLessThanOrEqual(1e-9 * s.volume);
      compared++;
    }
  }
  return compared;
}

/** GET /api/v1/ohlcv's candles of MINT from the index's trades: 1s folded from the trades, 1m from minute buckets. */
function restCandles(trades: Trade[], interval: "1s" | "1m", currency: OhlcvCurrency): Candle[] {
  const mine = trades.filter((t) => t.baseMint === MINT);
  if (interval === "1s") {
    const folds = new Map<number, CandleFold>();
    for (const t of mine) {
      let fold = folds.get(t.blockTime!);
      if (fold === undefined) folds.set(t.blockTime!, (fold = newCandleFold(t.blockTime!)));
      foldTrade(fold, { ...t, blockTime: t.blockTime! });
    }
    return [...folds.values()].sort((a, b) => a.time - b.time).map((f) => candleOfFold(f, currency));
  }
  const rows = bucketRows(mine, 60).map((r) => {
    const usd = currency === "usd";
    return {
      time: r.bucket * 60, firstKey: r.firstKey, lastKey: r.lastKey, open: usd ? r.openUsd : r.openSol, high: usd ? r.highUsd : r.highSol, low: usd ? r.lowUsd : r.lowSol,
      close: usd ? r.closeUsd : r.closeSol, volume: usd ? r.buyUsd + r.sellUsd : r.buySol + r.sellSol, volumeBase: r.buyBase + r.sellBase, buys: r.buys, sells: r.sells,
    };
  });
  return buildCandles(rows, { intervalSeconds: 60, bucketSeconds: 60, limit: 1000, truncated: false });
}

describe("solUsdBefore", () => {
  it("finds, before every block, the SOL/USD of the nearest earlier block with a SOL/stable swap, with nothing stored", async () => {
    // Given the chain, and the carry each block gets when the chain is read in one pass from its first block
    const blocks = chain();
    const first = await solUsdBefore(sources(blocks, new Map()).sources, FIRST);
    const truth = inOrderCarries(blocks, first!);
    // When a reader starts at each block in turn, nothing stored
    for (const slot of [...blocks.keys()].filter((s) => s > FIRST + 20)) {
      const { sources: s, counts } = sources(blocks, new Map());
      // Then it finds that carry, from the chain itself, never the live value
      expect(await solUsdBefore(s, slot), `slot ${slot}`).toBe(truth.get(slot));
      expect(counts.live).toBe(0);
    }
  });

  it("takes the value stored after the nearest earlier block without reading a block; past unstored blocks without a swap, an older stored one", async () => {
    const blocks = chain();
    // Given 1139 stored (1140 and 1141 have no arbitrage swap)
    const { sources: s, counts } = sources(blocks, new Map([[1139, 149.5]]));
    // Then before 1140: the stored value, no block read
    expect(await solUsdBefore(s, 1140)).toBe(149.5);
    expect(counts.reads).toBe(0);
    // and before 1142: 1141 and 1140 are read (no swap), then 1139's stored value
    expect(await solUsdBefore(s, 1142)).toBe(149.5);
    expect(counts.reads).toBe(2);
  });

  it(`reads at most ${limits.solUsdCarry.blockReads} blocks back, then takes the live SOL/USD; an upstream fault throws`, async () => {
    // Given a chain whose last blockReads blocks before 2000 have no SOL/stable swap, and one before them that has
    const n = limits.solUsdCarry.blockReads;
    const blocks = new Map<number, Block>();
    for (let slot = 2000 - n - 1; slot < 2000; slot++) blocks.set(slot, { slot, blockTime: T0, swaps: [] });
    blocks.get(2000 - n - 1)!.swaps.push(swap(2000 - n - 1, 0, { baseMint: WSOL_MINT, quoteMint: USDC_MINT, side: "buy", baseAmount: 10n ** 9n, quoteAmount: 140_000_000n, baseDecimals: 9, quoteDecimals: 6 }));
    // Then before 2000 - 1 (n - 1 blocks without one, then it): found within n reads
    const within = sources(blocks, new Map());
    expect(await solUsdBefore(within.sources, 1999)).toBe(140);
    expect(within.counts.reads).toBe(n);
    // and before 2000 (n blocks without one): the live value after n reads
    const beyond = sources(blocks, new Map());
    expect(await solUsdBefore(beyond.sources, 2000)).toBe(LIVE);
    expect([beyond.counts.reads, beyond.counts.live]).toEqual([n, 1]);
    // and a block that cannot be read fails the lookup (the reader retries), never a guess
    const failing: SolUsdSources = { ...beyond.sources, own: async () => Promise.reject(new Error("upstream down")) };
    await expect(solUsdBefore(failing, 2000)).rejects.toThrow("upstream down");
  });
  it(`looks ${limits.solUsdCarry.slots} slots back, no further`, async () => {
    const solUsdcBlock = (slot: number): Block => ({
      slot, blockTime: T0, swaps: [swap(slot, 0, { baseMint: WSOL_MINT, quoteMint: USDC_MINT, side: "buy", baseAmount: 10n ** 9n, quoteAmount: 140_000_000n, baseDecimals: 9, quoteDecimals: 6 })],
    });
    // Given the only earlier block exactly `slots` before 5000: found
    const at = sources(new Map([[5000 - limits.solUsdCarry.slots, solUsdcBlock(5000 - limits.solUsdCarry.slots)]]), new Map());
    expect(await solUsdBefore(at.sources, 5000)).toBe(140);
    // Given it one slot further back: the live value, nothing read
    const past = sources(new Map([[4999 - limits.solUsdCarry.slots, solUsdcBlock(4999 - limits.solUsdCarry.slots)]]), new Map());
    expect(await solUsdBefore(past.sources, 5000)).toBe(LIVE);
    expect(past.counts.reads).toBe(0);
  });
});

describe("a live candle equals REST's when the tail and the index start reading at different blocks", () => {
  it("the tail starting at a block without a SOL/stable swap, the index taking its ranges last first: every full candle equal, in USD and SOL", async () => {
    // Given the chain, indexed range by range from the last one
    const blocks = chain();
    const index = await indexAll(blocks);
    // and the tail following MINT from 1100 (no arbitrage swap in 1100..1104), with the index behind it (nothing stored)
    const book = new CandleBook();
    book.follow(new Set([MINT]));
    const tail = [...blocks.values()].filter((b) => b.slot >= 1100);
    let carry = await solUsdBefore(sources(blocks, new Map()).sources, tail[0]!.slot);
    const live: LiveCandle[] = [];
    for (const block of tail) {
      const p = priced(block, carry);
      carry = p.solUsd;
      live.push(...book.block(block.slot, block.blockTime, p.trades).map((e) => e.data as LiveCandle));
    }
    // Then both priced every block alike: the index's stored SOL/USD is the one-pass carry
    const truth = inOrderCarries(blocks, (await solUsdBefore(sources(blocks, new Map()).sources, FIRST))!);
    for (const block of blocks.values()) expect(index.stored.get(block.slot), `slot ${block.slot}`).toBe(priced(block, truth.get(block.slot)!).solUsd);
    // and the final state of every full live candle equals REST's
    expect(fullCandlesEqualRest(live, index.trades)).toBeGreaterThan(60);
  });
});

/** a quote token that is neither SOL nor a stable, which the price service values (an LST), and one it cannot value */
const LST = "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn";
const UNPRICED = "Unpr1cedQuote11111111111111111111111111111";

/** The chain, with MINT also traded against LST in most blocks (none at 0 mod 5) and against UNPRICED at 3 mod 7. */
function chainWithOtherQuotes(): Map<number, Block> {
  const blocks = chain();
  for (const block of blocks.values()) {
    const { slot } = block;
    const priceLst = 0.0000083 * (1 + 0.05 * Math.cos(slot * 0.9));
    const base = 2_000_000n * BigInt(1 + (slot % 4));
    const quoted = (txIndex: number, quoteMint: string) =>
      swap(slot, txIndex, { baseMint: MINT, quoteMint, side: slot % 2 === 0 ? "buy" : "sell", baseAmount: base, quoteAmount: BigInt(Math.round(Number(base) * priceLst * 1e3)), baseDecimals: 6, quoteDecimals: 9 });
    if (slot % 5 !== 0) block.swaps.push(quoted(10, LST));
    if (slot % 7 === 3) block.swaps.push(quoted(11, UNPRICED));
  }
  return blocks;
}

/**
 * `block_quote_usd` in memory (INSERT OR IGNORE, read back), shared by both readers; each reader has its own price
 * service, whose LST value moves with every ask (and differs from the other's), that never prices UNPRICED, and whose
 * `failEvery`-th ask fails.
 */
function quoteStore() {
  const rows = new Map<string, number | null>();
  const key = (k: { slot: number; mint: string }) => `${k.slot}:${k.mint}`;
  const rowsOf = (keys: readonly { slot: number; mint: string }[]) => keys.flatMap((k) => (rows.has(key(k)) ? [{ slot: k.slot, mint: k.mint, usd: rows.get(key(k))! }] : []));
  const reader = (lstUsd: number, failEvery: number) => {
    const counts = { asks: 0, reads: 0, settles: [] as number[] };
    const sources: QuoteUsdSources = {
      stored: async (keys) => (counts.reads++, rowsOf(keys)),
      settle: async (settled) => {
        counts.settles.push(...new Set(settled.map((r) => r.slot)));
        for (const r of settled) if (!rows.has(key(r))) rows.set(key(r), r.usd);
        return rowsOf(settled);
      },
      live: async (mints) => {
        if (++counts.asks % failEvery === 0) throw new Error("price service down");
        return new Map(mints.filter((m) => m === LST).map((m) => [m, lstUsd + counts.asks * 0.013]));
      },
    };
    return { sources, counts };
  };
  return { rows, reader };
}

const storedBlockOf = (block: Block, carry: number | null): StoredBlock => {
  const p = priced(block, carry);
  return { slot: block.slot, blockTime: block.blockTime, solUsd: p.solUsd, trades: p.trades, events: [], pools: [] };
};

/** The chain tail: each block in slot order, valued (no stored read first), then folded into the candle book. */
async function tailBlock(book: CandleBook, quotes: QuoteUsdSources, block: Block, carry: number | null) {
  const stored = storedBlockOf(block, carry);
  await valueBlocksThroughQuotes(quotes, [stored], false);
  return { trades: stored.trades, live: book.block(block.slot, block.blockTime, stored.trades).map((e) => e.data as LiveCandle) };
}

/** The trade index: one page of blocks, valued together (stored rows read first). */
async function indexPage(quotes: QuoteUsdSources, page: readonly Block[], carries: Map<number, number | null>): Promise<Trade[]> {
  const stored = page.map((b) => storedBlockOf(b, carries.get(b.slot)!));
  await valueBlocksThroughQuotes(quotes, stored, true);
  return stored.flatMap((b) => b.trades);
}

const valuesOf = (trades: readonly Trade[]) =>
  [...trades].sort((a, b) => a.slot - b.slot || a.txIndex - b.txIndex).map((t) => [`${t.slot}/${t.txIndex}`, t.priceUsd, t.priceSol, t.valueUsd]);

describe("trades quoted in another token: the index and the tail value them through the same USD per block", () => {
  afterEach(() => vi.restoreAllMocks());
  for (const order of ["tail first", "index first", "side by side"] as const) {
    it(`${order}: equal priceUsd, priceSol and valueUsd for every trade, and every full live candle equal to REST's`, async () => {
      // Given the chain with MINT traded against LST and UNPRICED, and the SOL/USD carry of every block (as found by both)
      const blocks = chainWithOtherQuotes();
      const all = [...blocks.values()];
      const carries = inOrderCarries(blocks, (await solUsdBefore(sources(blocks, new Map()).sources, FIRST))!);
      // and one shared store, the tail's price service answering 181.x for LST and the index's 179.x, each failing now and then
      const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      const store = quoteStore();
      const tail = store.reader(181.25, 7);
      const index = store.reader(179.5, 5);
      const book = new CandleBook();
      book.follow(new Set([MINT]));
      const tailTrades: Trade[] = [];
      const live: LiveCandle[] = [];
      const indexTrades: Trade[] = [];
      const pages: Block[][] = [];
      for (let i = 0; i < all.length; i += limits.tradeIngest.blockConcurrency) pages.push(all.slice(i, i + limits.tradeIngest.blockConcurrency));
      const runTail = async (part: readonly Block[]) => {
        for (const block of part) {
          const out = await tailBlock(book, tail.sources, block, carries.get(block.slot)!);
          tailTrades.push(...out.trades);
          live.push(...out.live);
        }
      };
      const runIndex = async (page: readonly Block[]) => indexTrades.push(...(await indexPage(index.sources, page, carries)));
      // When both read every block, in this order
      if (order === "tail first") {
        await runTail(all);
        for (const page of pages) await runIndex(page);
      } else if (order === "index first") {
        for (const page of pages) await runIndex(page);
        await runTail(all);
      } else {
        for (const page of pages) await Promise.all([runIndex(page), runTail(page)]);
      }

      // Then every trade has the same prices and value in both
      expect(valuesOf(tailTrades)).toEqual(valuesOf(indexTrades));
      const lst = indexTrades.filter((t) => t.quoteMint === LST);
      const valued = lst.filter((t) => t.priceUsd !== null);
      // LST trades are valued (through LST's USD and the block's SOL/USD), except where the first asker's request failed
      expect(valued.length).toBeGreaterThan(lst.length / 2);
      expect(lst.length - valued.length).toBeGreaterThan(0);
      // (each failed request logged, never silent)
      expect(warned).toHaveBeenCalledWith(expect.stringContaining('"quoteUsd":"unavailable"'));
      for (const t of valued) {
        const usd = store.rows.get(`${t.slot}:${LST}`)!;
        expect(t.priceUsd).toBe(t.priceQuote * usd);
        expect(t.priceSol).toBe(t.priceUsd! / blockSolUsd(blocks.get(t.slot)!.swaps, carries.get(t.slot)!)!);
      }
      // a token the price service cannot value is unvalued in both, settled as none
      expect(indexTrades.filter((t) => t.quoteMint === UNPRICED && (t.priceUsd !== null || t.priceSol !== null || t.valueUsd !== null))).toEqual([]);
      expect(store.rows.get(`${[...blocks.keys()].find((s) => s % 7 === 3)}:${UNPRICED}`)).toBeNull();
      // and the tail's budget: one settle per block with such trades, none for the others, no read before it
      const withOthers = all.filter((b) => b.slot % 5 !== 0 || b.slot % 7 === 3).map((b) => b.slot);
      expect(tail.counts.settles).toEqual(withOthers);
      expect(tail.counts.reads).toBe(0);
      if (order === "tail first") expect([index.counts.asks, index.counts.settles.length]).toEqual([0, 0]);

      // and every full live candle equals REST's, in USD and SOL
      expect(fullCandlesEqualRest(live, indexTrades)).toBeGreaterThan(60);
    });
  }
});
