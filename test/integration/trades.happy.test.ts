/**
 * GET /api/v1/trades over rows seeded in D1 as the cron stores them (migrations/0002 `trades`): newest first by
 * (slot, tx_index, ordinal), per mint or per wallet, paged with `nextCursor` until null, each row shown in the API's
 * camelCase shape with exact human amounts and the pool kind's `dex` word.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { tradePageSql } from "../../src/trades/trade-queries";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

const mint = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const other = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const wsol = "So11111111111111111111111111111111111111112";
const alice = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const bob = "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv";
const pool = "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW";

interface Seed {
  slot: number;
  txIndex: number;
  ordinal: number;
  mint?: string;
  wallet?: string;
  kind?: string;
  side?: "buy" | "sell";
  baseAmount?: string;
  quoteAmount?: string;
  priceUsd?: number | null;
}

const insert = (t: Seed) =>
  env.DB.prepare(
    "INSERT INTO trades (slot, tx_index, ordinal, block_time, signature, pool, kind, mint, quote_mint, side, base_amount, quote_amount, base_decimals, quote_decimals, price_quote, price_sol, price_usd, value_usd, wallet) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).bind(
    t.slot,
    t.txIndex,
    t.ordinal,
    1_764_000_000 + t.slot,
    `sig-${t.slot}-${t.txIndex}-${t.ordinal}`,
    pool,
    t.kind ?? "raydium-clmm",
    t.mint ?? mint,
    wsol,
    t.side ?? "buy",
    t.baseAmount ?? "1000",
    t.quoteAmount ?? "2000",
    5,
    9,
    0.5,
    0.5,
    t.priceUsd === undefined ? 75 : t.priceUsd,
    t.priceUsd === null ? null : 1.5,
    t.wallet ?? alice,
  );

let key = "";
// 120 trades of `mint` (alice and bob alternating), several per transaction and per slot, inserted out of order,
// plus trades of another mint that must never show.
const positions: [number, number, number][] = [];
beforeAll(async () => {
  key = await newApiKey();
  for (let slot = 1000; slot < 1030; slot++) for (const [txIndex, ordinal] of [[0, 0], [0, 1], [7, 0], [12, 2]] as const) positions.push([slot, txIndex, ordinal]);
  const shuffled = [...positions].sort((a, b) => ((a[0] * 31 + a[1] * 7 + a[2]) % 13) - ((b[0] * 31 + b[1] * 7 + b[2]) % 13));
  await env.DB.batch([
    ...shuffled.map(([slot, txIndex, ordinal], i) => insert({ slot, txIndex, ordinal, wallet: (slot + txIndex) % 2 === 0 ? alice : bob, side: i % 3 === 0 ? "sell" : "buy" })),
    ...[1, 2, 3].map((i) => insert({ slot: 2000 + i, txIndex: 0, ordinal: 0, mint: other, wallet: alice })),
  ]);
});

async function page(query: string): Promise<{ items: any[]; nextCursor: string | null }> {
  const res = await callWorker({ path: `/api/v1/trades${query}` }, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: any[]; nextCursor: string | null };
}
const keyOf = (item: { slot: number; txIndex: number; ordinal: number }) => [item.slot, item.txIndex, item.ordinal];
const newestFirst = (a: number[], b: number[]) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!;

describe("GET /api/v1/trades?ca=", () => {
  it("pages through every trade of the mint, newest first by (slot, txIndex, ordinal), once each, until nextCursor is null", async () => {
    // Given 120 trades of the mint / When paged 50 at a time (the default)
    const seen: number[][] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const p: { items: any[]; nextCursor: string | null } = await page(`?ca=${mint}${cursor ? `&cursor=${cursor}` : ""}`);
      sizes.push(p.items.length);
      seen.push(...p.items.map(keyOf));
      cursor = p.nextCursor;
    } while (cursor);
    // Then 50 + 50 + 20, in the index's order, none twice, none of the other mint
    expect(sizes).toEqual([limits.tradesDefaultLimit, limits.tradesDefaultLimit, 20]);
    expect(seen).toEqual([...positions].sort(newestFirst));
  });

  it("limit=100 gives 100 and a cursor; the last page's cursor is null even when it is exactly full", async () => {
    const first = await page(`?ca=${mint}&limit=100`);
    expect(first.items).toHaveLength(100);
    const second = await page(`?ca=${mint}&limit=20&cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(20);
    expect(second.nextCursor).toBeNull();
  });

  it("shows a row in the API's shape", async () => {
    // Given one trade of a third mint, with a u64-max amount and a pump.fun curve as its pool kind
    const third = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
    await insert({ slot: 3000, txIndex: 4, ordinal: 1, mint: third, wallet: bob, kind: "pump-bonding-curve", side: "sell", baseAmount: "18446744073709551615", quoteAmount: "1500000000" }).run();
    // When read
    const p = await page(`?ca=${third}`);
    // Then every field, amounts exact (base 5 decimals, quote 9)
    expect(p).toEqual({
      items: [
        {
          signature: "sig-3000-4-1",
          slot: 3000,
          blockTime: 1_764_003_000,
          txIndex: 4,
          ordinal: 1,
          pool,
          kind: "pumpfun",
          baseMint: third,
          quoteMint: wsol,
          side: "sell",
          baseAmount: "18446744073709551615",
          quoteAmount: "1500000000",
          baseAmountUi: "184467440737095.51615",
          quoteAmountUi: "1.5",
          priceQuote: 0.5,
          priceSol: 0.5,
          priceUsd: 75,
          valueUsd: 1.5,
          wallet: bob,
        },
      ],
      nextCursor: null,
    });
  });

  it("a trade with no USD price shows null prices", async () => {
    const fourth = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    await insert({ slot: 3001, txIndex: 0, ordinal: 0, mint: fourth, wallet: bob, priceUsd: null }).run();
    const [item] = (await page(`?ca=${fourth}`)).items;
    expect(item).toMatchObject({ priceUsd: null, valueUsd: null, priceQuote: 0.5 });
  });
});

describe("GET /api/v1/trades?wallet=", () => {
  it("pages the wallet's trades across mints, newest first, and only the wallet's", async () => {
    const expected = [
      ...[1, 2, 3].map((i) => [2000 + i, 0, 0]),
      ...positions.filter(([slot, txIndex]) => (slot + txIndex) % 2 === 0),
    ].sort(newestFirst);
    const seen: number[][] = [];
    let cursor: string | null = null;
    do {
      const p: { items: any[]; nextCursor: string | null } = await page(`?wallet=${alice}&limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      expect(p.items.every((item) => item.wallet === alice)).toBe(true);
      seen.push(...p.items.map(keyOf));
      cursor = p.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });
});

describe("the page query", () => {
  it.each([
    ["mint", false, "trades_by_mint"],
    ["mint", true, "trades_by_mint"],
    ["wallet", false, "trades_by_wallet"],
    ["wallet", true, "trades_by_wallet"],
  ] as const)("by %s (cursor: %s) walks %s in order, with no sort step", async (by, cursor, index) => {
    // Given the route's own SQL / When SQLite plans it
    const binds = cursor ? [mint, 1010, 0, 0, 51] : [mint, 51];
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${tradePageSql(by, cursor)}`).bind(...binds).all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join(" | ");
    // Then one search of the filter's index, and no temporary B-tree for ORDER BY
    expect(plan).toContain(`USING INDEX ${index}`);
    expect(plan).not.toContain("TEMP B-TREE");
  });
});
