/**
 * GET /api/v1/trend over rows seeded in D1 the way the cron writes them (migrations/0002 `trend_windows`: one row per
 * window hour, `body` the ranked JSON array). The route reads one row, cuts it to `limit`, shapes the spec's object
 * and keeps the answer a few seconds in the Cache API.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

const entry = (token_address: string, token_symbol: string, latest_price: number, buy: number, sell: number) => ({
  token_address,
  token_symbol,
  latest_price,
  buy_volume_usd: buy,
  sell_volume_usd: sell,
  net_inflow_usd: buy - sell,
});
const ranked = [
  entry("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "Bonk", 0.0000233, 5000, 1200.5),
  entry("9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump", "PUMPY", 0.0000041, 3100.25, 3500),
  entry("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", "JUP", 0.51, 250, 10),
];
const updatedAt = Date.UTC(2026, 10, 24, 22, 41, 0);

async function seed(hour: number, body: string, slot: number, at = updatedAt) {
  await env.DB.prepare("INSERT OR REPLACE INTO trend_windows (hour, body, slot, end_minute, updated_at) VALUES (?, ?, ?, ?, ?)")
    .bind(hour, body, slot, Math.floor(at / 60_000), at)
    .run();
}

async function trendText(query: string): Promise<{ status: number; text: string }> {
  const res = await callWorker({ path: `/api/v1/trend${query}` }, { key });
  return { status: res.status, text: await res.text() };
}

describe("GET /api/v1/trend", () => {
  it("answers the window's first `limit` entries under rank keys, in order, with hour, limit, updatedAt and slot", async () => {
    // Given the 6 h window holding three ranked tokens
    await seed(6, JSON.stringify(ranked), 381204117);
    // When two are asked
    const res = await trendText("?hour=6&limit=2");
    // Then ranks 0 and 1, best first, then the echoed request and our extras
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body).toEqual({ "0": ranked[0], "1": ranked[1], hour: 6, limit: 2, updatedAt: "2026-11-24T22:41:00.000Z", slot: 381204117 });
    expect(Object.keys(body)).toEqual(["0", "1", "hour", "limit", "updatedAt", "slot"]);
    // numbers, not strings, for the four figures (the spec's types)
    for (const field of ["latest_price", "buy_volume_usd", "sell_volume_usd", "net_inflow_usd"]) expect(typeof body["0"][field]).toBe("number");
    expect(body["1"].net_inflow_usd).toBe(-399.75);
  });

  it("a limit above the window's size gives every entry it has", async () => {
    await seed(3, JSON.stringify(ranked), 100);
    const body = JSON.parse((await trendText("?hour=3&limit=100")).text);
    expect(Object.keys(body)).toEqual(["0", "1", "2", "hour", "limit", "updatedAt", "slot"]);
    expect(body["2"]).toEqual(ranked[2]);
  });

  it("reads the row of the hour asked, not another", async () => {
    await seed(1, JSON.stringify([ranked[2]]), 200);
    await seed(24, JSON.stringify([ranked[1], ranked[0]]), 201);
    expect(JSON.parse((await trendText("?hour=1&limit=10")).text)).toEqual({ "0": ranked[2], hour: 1, limit: 10, updatedAt: "2026-11-24T22:41:00.000Z", slot: 200 });
    expect(JSON.parse((await trendText("?hour=24&limit=1")).text)["0"]).toEqual(ranked[1]);
  });

  it("keeps an answer a few seconds per (hour, limit): a rewritten row shows under another limit at once, under the same one later", async () => {
    // Given an answer for (12, 2) read once
    await seed(12, JSON.stringify(ranked), 300);
    const first = await trendText("?hour=12&limit=2");
    // When the cron rewrites the window
    await seed(12, JSON.stringify([ranked[2]]), 301);
    // Then the same request is the cached answer, byte for byte, and another limit reads the new row
    expect((await trendText("?hour=12&limit=2")).text).toBe(first.text);
    expect(JSON.parse((await trendText("?hour=12&limit=3")).text)).toMatchObject({ "0": ranked[2], slot: 301 });
  });

  it(`an answer is kept no longer than limits.trendCacheSeconds (${limits.trendCacheSeconds} s)`, async () => {
    // Given an answer for (18, 4) read once, then the window rewritten
    await seed(18, JSON.stringify(ranked), 500);
    await trendText("?hour=18&limit=4");
    await seed(18, JSON.stringify([ranked[1]]), 501);
    // When read again after the cache time has passed
    await new Promise((r) => setTimeout(r, limits.trendCacheSeconds * 1000 + 500));
    // Then the new row shows
    expect(JSON.parse((await trendText("?hour=18&limit=4")).text)).toEqual({ "0": ranked[1], hour: 18, limit: 4, updatedAt: "2026-11-24T22:41:00.000Z", slot: 501 });
  });

  it("a row that is not the documented shape is a 500 with the generic message, never its content", async () => {
    await seed(7, JSON.stringify([{ token_address: "x", secret: "internal detail" }]), 400);
    const res = await trendText("?hour=7&limit=5");
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toEqual({ status: "error", error: { code: 500, message: "Internal server error" } });
  });
});
