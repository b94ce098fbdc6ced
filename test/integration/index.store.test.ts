/**
 * The trade store under workerd's real D1: storing the same blocks again, or from two writers at once, never counts a
 * trade twice; buckets equal a recomputation from the stored trades. The quote tokens' USD per block (block_quote_usd):
 * the first writer wins for both readers, and the rows go with the trades they value.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1QuoteUsdSources } from "../../src/trades/block-quote-usd";
import { upkeepIndex } from "../../src/trades/index-upkeep";
import { storeBlocks, type StoredBlock } from "../../src/trades/trade-store";
import type { Trade } from "../../src/trades/trade";
import { WSOL_MINT } from "../../src/solana/well-known";
import { limits } from "../../src/limits";

const MINT = "7nYhDYAxQdFn2DRPcjBFPQQz5qb8HeFiJv9o9w6fpump";

function block(slot: number, n: number, blockTime = 1_800_000_000 + slot): StoredBlock {
  const trades: Trade[] = Array.from({ length: n }, (_, i) => ({
    slot, txIndex: i, ordinal: 0, signature: `sig-${slot}-${i}`, blockTime, pool: "pool-1", kind: "pumpswap", baseMint: MINT, quoteMint: WSOL_MINT,
    side: i % 3 === 0 ? "sell" : "buy", baseAmount: BigInt(1_000_000 * (i + 1)), quoteAmount: BigInt(10_000_000 * (i + 1)), baseDecimals: 6, quoteDecimals: 9,
    wallet: `wallet-${i % 4}`, priceQuote: 0.01 + slot / 1e6, priceSol: 0.01 + slot / 1e6, priceUsd: 1.5 + slot / 1e4, valueUsd: (i + 1) * 1.5, 
  }));
  return { slot, blockTime, solUsd: 150, trades, events: [], pools: [] };
}

async function snapshot() {
  const trades = await env.DB.prepare("SELECT count(*) AS n FROM trades").first<{ n: number }>();
  const blocks = await env.DB.prepare("SELECT count(*) AS n FROM ingested_blocks").first<{ n: number }>();
  const minutes = await env.DB.prepare("SELECT * FROM minute_buckets ORDER BY mint, bucket").all();
  const hours = await env.DB.prepare("SELECT * FROM hour_buckets ORDER BY mint, bucket").all();
  return { trades: trades!.n, blocks: blocks!.n, minutes: minutes.results, hours: hours.results };
}

describe("trade store: idempotent per block", () => {
  it("storing the same blocks again changes no row", async () => {
    // Given 10 blocks stored
    const blocks = Array.from({ length: 10 }, (_, i) => block(1000 + i, 7));
    expect((await storeBlocks(env.DB, blocks)).stored).toBe(10);
    const first = await snapshot();
    expect(first.trades).toBe(70);
    // When the same blocks (and an overlapping set) are stored again
    expect((await storeBlocks(env.DB, blocks)).stored).toBe(0);
    expect((await storeBlocks(env.DB, blocks.slice(5))).stored).toBe(0);
    // Then nothing changed
    expect(await snapshot()).toEqual(first);
  });

  it("two writers racing over overlapping blocks store each block once, and buckets equal a recomputation from the trades", async () => {
    // Given two consumers given overlapping ranges at once (a retried message racing the original)
    const a = Array.from({ length: 12 }, (_, i) => block(2000 + i, 5));
    const b = Array.from({ length: 12 }, (_, i) => block(2006 + i, 5));
    const [{ stored: na }, { stored: nb }] = await Promise.all([storeBlocks(env.DB, a), storeBlocks(env.DB, b)]);
    // Then every block was stored by exactly one of them
    expect(na + nb).toBe(18);
    const rows = await env.DB.prepare("SELECT count(*) AS n, count(DISTINCT slot) AS s FROM trades WHERE slot BETWEEN 2000 AND 2017").first<{ n: number; s: number }>();
    expect(rows).toEqual({ n: 90, s: 18 });
    // And the minute buckets are exactly the sums over the stored trades
    const check = await env.DB.prepare(
      `SELECT b.bucket, b.buys, b.sells, b.buy_usd, b.sell_usd,
              (SELECT count(*) FROM trades t WHERE t.mint = b.mint AND t.block_time / 60 = b.bucket AND t.side = 'buy') AS tb,
              (SELECT count(*) FROM trades t WHERE t.mint = b.mint AND t.block_time / 60 = b.bucket AND t.side = 'sell') AS ts,
              (SELECT total(value_usd) FROM trades t WHERE t.mint = b.mint AND t.block_time / 60 = b.bucket AND t.side = 'buy') AS tbu
       FROM minute_buckets b WHERE b.mint = ?`,
    ).bind(MINT).all<{ buys: number; sells: number; tb: number; ts: number; buy_usd: number; tbu: number }>();
    expect(check.results.length).toBeGreaterThan(0);
    for (const r of check.results) {
      expect(r.buys).toBe(r.tb);
      expect(r.sells).toBe(r.ts);
      expect(r.buy_usd).toBeCloseTo(r.tbu, 9);
    }
  });

  it("open and close follow chain order when later blocks are stored before earlier ones", async () => {
    // Given a minute's blocks stored newest first (consumers finish in any order)
    const t0 = 1_900_000_020;
    const blocks = [block(3000, 1, t0), block(3001, 1, t0 + 1), block(3002, 1, t0 + 2)];
    for (const b of [...blocks].reverse()) await storeBlocks(env.DB, [b]);
    const row = await env.DB.prepare("SELECT open_usd, close_usd, high_usd, low_usd FROM minute_buckets WHERE mint = ? AND bucket = ?")
      .bind(MINT, Math.floor(t0 / 60))
      .first<{ open_usd: number; close_usd: number; high_usd: number; low_usd: number }>();
    // Then open is slot 3000's price and close slot 3002's
    expect(row).toEqual({ open_usd: 1.5 + 3000 / 1e4, close_usd: 1.5 + 3002 / 1e4, high_usd: 1.5 + 3002 / 1e4, low_usd: 1.5 + 3000 / 1e4 });
  });

  it("a block with more trades than one statement carries (rowsPerStatement and one more) stores every one", async () => {
    // Given blocks of exactly N and N+1 trades (N rows per statement)
    const n = limits.tradeIngest.rowsPerStatement;
    const blocks = [block(4000, n), block(4001, n + 1)];
    // When stored together
    expect((await storeBlocks(env.DB, blocks)).stored).toBe(2);
    // Then every trade is there, and counted once in the buckets
    const rows = await env.DB.prepare("SELECT slot, count(*) AS n FROM trades WHERE slot IN (4000, 4001) GROUP BY slot ORDER BY slot").all<{ slot: number; n: number }>();
    expect(rows.results).toEqual([{ slot: 4000, n }, { slot: 4001, n: n + 1 }]);
    const bucket = Math.floor((1_800_000_000 + 4000) / 3600);
    const hour = await env.DB.prepare("SELECT sum(buys + sells) AS n FROM hour_buckets WHERE bucket = ?").bind(bucket).first<{ n: number }>();
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM trades WHERE block_time / 3600 = ?").bind(bucket).first<{ n: number }>();
    expect(hour!.n).toBe(stored!.n);
    expect(stored!.n).toBeGreaterThanOrEqual(2 * n + 1);
  });
});

describe("block_quote_usd: one USD per (block, quote token) for the index and the chain tail", () => {
  const LST = "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn";
  const noLive = async () => new Map<string, number>();

  it("two writers settling the same rows at once both read back the first one's; a row settled as none stays none", async () => {
    const sources = d1QuoteUsdSources(env.DB, noLive);
    // Given two readers settling slot 5000's LST at once, with different answers
    const [a, b] = await Promise.all([sources.settle([{ slot: 5000, mint: LST, usd: 181.5 }]), sources.settle([{ slot: 5000, mint: LST, usd: 179.25 }])]);
    // Then both read back the same row, one of the two answers
    expect(a).toEqual(b);
    expect([181.5, 179.25]).toContain(a[0]!.usd);
    // and a later writer (or a read) finds it unchanged
    expect(await sources.settle([{ slot: 5000, mint: LST, usd: 1 }])).toEqual(a);
    expect(await sources.stored([{ slot: 5000, mint: LST }, { slot: 5001, mint: LST }])).toEqual(a);
    // Given slot 5001 settled as none (no price then): a later answer with a price does not replace it
    await sources.settle([{ slot: 5001, mint: LST, usd: null }]);
    expect(await sources.settle([{ slot: 5001, mint: LST, usd: 180 }])).toEqual([{ slot: 5001, mint: LST, usd: null }]);
  });

  it("the cron's upkeep deletes the rows of blocks whose trades it deletes, and keeps the others", async () => {
    // Given a block past the trades' retention and a recent one, each with a row
    const now = Date.now();
    const old = Math.floor((now - limits.tradeIngest.tradeRetentionMs) / 1000) - 60;
    await storeBlocks(env.DB, [block(9_000_000, 1, old), block(9_000_010, 1, Math.floor(now / 1000))]);
    const sources = d1QuoteUsdSources(env.DB, noLive);
    await sources.settle([{ slot: 9_000_000, mint: LST, usd: 180 }, { slot: 9_000_010, mint: LST, usd: 181 }]);
    // When the upkeep runs
    const report = await upkeepIndex(env.DB, Math.floor(now / 60_000) - 1, now);
    // Then the old block's row went with its trades; the recent one's stays
    expect(report.deleted.blockQuoteUsd).toBeGreaterThanOrEqual(1);
    expect(await sources.stored([{ slot: 9_000_000, mint: LST }, { slot: 9_000_010, mint: LST }])).toEqual([{ slot: 9_000_010, mint: LST, usd: 181 }]);
    const trades = await env.DB.prepare("SELECT slot FROM trades WHERE slot IN (9000000, 9000010)").all<{ slot: number }>();
    expect(trades.results).toEqual([{ slot: 9_000_010 }]);
  });
});
