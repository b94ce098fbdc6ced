/**
 * GET /api/v1/stats and the trend's end against localnet's ground truth (`GET /__localnet/trades`): after the cron
 * ingested a few hundred slots of the world's traffic, every window (5m, 1h, 6h, 24h) of the most traded mints equals a
 * brute-force recomputation from the truth over the same span (block times from the window's first minute up to the
 * index's last block, slots up to the frontier): counts, distinct wallets, volumes in USD, SOL and the token, open and
 * last price. The trend ends at that same block, not at the last whole minute.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { TradeRecord } from "../../localnet/src/world/swap-truth";
import { newApiKey } from "../helpers/keys";
import { getJson } from "../helpers/http";
import { advance, chainRpc, rawAccounts, tradeTruth } from "../helpers/localnet";
import { relErr } from "../helpers/numbers";
import { ingestUntil, runCron } from "../helpers/trade-index";
import { blockTimes, later, pricedTruth, STABLES, truthSolUsd, WSOL, type PricedTruth } from "../helpers/trade-truth";

/** A mint's decimals, read from localnet. */
async function decimalsOf(mint: string): Promise<number> {
  const { data } = await rawAccounts([mint]);
  return data[0]![44]!;
}

const WINDOWS = { "5m": 5, "1h": 60, "6h": 360, "24h": 1440 } as const;

let key = "";
let lo = 0;
let hi = 0;
let truth: TradeRecord[] = [];
let priced: PricedTruth[] = [];
let times = new Map<number, number>();
let solUsd = new Map<number, number>();

beforeAll(async () => {
  key = await newApiKey();
  // Given the index started at the tip, then ~300 slots of the world's traffic, ingested (inline and through the queue)
  await advance(2);
  await runCron();
  await advance(300);
  hi = await ingestUntil();
  lo = (await env.DB.prepare("SELECT min(slot) AS slot FROM ingested_blocks").first<{ slot: number }>())!.slot;
  truth = await tradeTruth(lo, hi);
  priced = await pricedTruth(truth, lo, hi);
  solUsd = await truthSolUsd(truth, lo, hi);
  times = await blockTimes([...new Set(truth.map((t) => t.slot))]);
}, 240_000);

type Window = Record<string, number | null>;
type Stats = { ca: string; slot: number; updatedAt: string } & Record<keyof typeof WINDOWS, Window>;

/** The most traded mints of the truth (as the base token), not wSOL or a stablecoin. */
function mostTraded(n: number): string[] {
  const counts = new Map<string, number>();
  for (const t of truth) if (!t.failed && t.baseMint !== WSOL && !STABLES.has(t.baseMint)) counts.set(t.baseMint, (counts.get(t.baseMint) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([mint]) => mint);
}

describe("GET /api/v1/stats vs a brute-force recomputation from the ground truth", () => {
  it("every window of the most traded mints equals the truth's trades of the same span", async () => {
    const end = await env.DB.prepare("SELECT slot, updated_at FROM trend_windows WHERE hour = 1").first<{ slot: number; updated_at: number }>();
    const endTime = end!.updated_at / 1000;
    const mints = mostTraded(6);
    expect(mints.length).toBe(6);
    // When the stats of those mints are asked, in one list
    const res = await getJson<Stats[]>(`/api/v1/stats?ca=${mints.join(",")}`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(res.body.map((s) => s.ca)).toEqual(mints);
    const decimals = new Map<string, number>();
    for (const mint of mints) decimals.set(mint, (await chainRpc<{ value: { decimals: number } }>("getTokenSupply", [mint, { commitment: "confirmed" }])).value.decimals);
    let live = 0;
    for (const stats of res.body) {
      expect(stats).toMatchObject({ success: true, slot: end!.slot, updatedAt: new Date(endTime * 1000).toISOString() });
      for (const [name, minutes] of Object.entries(WINDOWS) as [keyof typeof WINDOWS, number][]) {
        const startMinute = Math.floor(endTime / 60) - minutes + 1;
        const inSpan = (slot: number) => slot <= end!.slot && times.get(slot)! >= startMinute * 60 && times.get(slot)! <= endTime;
        // Then counts and distinct wallets are the truth's (every swap of the mint, priced or not)
        const made = truth.filter((t) => !t.failed && t.baseMint === stats.ca && inSpan(t.slot));
        live += made.filter((t) => times.get(t.slot)! >= Math.floor(endTime / 60) * 60).length;
        const side = (s: string) => made.filter((t) => t.side === s);
        const w = stats[name];
        expect(w.from, name).toBe(startMinute * 60);
        expect(w.to, name).toBe(endTime);
        expect({ buys: w.buys, sells: w.sells, buyers: w.buyers, sellers: w.sellers }, `${stats.ca} ${name}`).toEqual({
          buys: side("buy").length,
          sells: side("sell").length,
          buyers: new Set(side("buy").map((t) => t.wallet)).size,
          sellers: new Set(side("sell").map((t) => t.wallet)).size,
        });
        // And volumes and prices are the priced truth's
        const p = priced.filter((t) => t.base === stats.ca && inSpan(t.slot)).sort(later);
        const ui = (t: PricedTruth) => Number(t.baseRaw) / 10 ** decimals.get(stats.ca)!;
        const priceOf = (t: PricedTruth) => (t.quoteUi / ui(t)) * t.usdPerQuote;
        const sum = (buy: boolean, f: (t: PricedTruth) => number) => p.filter((t) => t.buy === buy).reduce((a, t) => a + f(t), 0);
        // a stablecoin trade's SOL value at its block's SOL/USD; a SOL trade's is its quote amount
        const solOf = (t: PricedTruth) => (STABLES.has(t.quoteMint) ? t.valueUsd / solUsd.get(t.slot)! : t.quoteUi);
        const expected = {
          buyVolumeUsd: sum(true, (t) => t.valueUsd),
          sellVolumeUsd: sum(false, (t) => t.valueUsd),
          buyVolumeSol: sum(true, solOf),
          sellVolumeSol: sum(false, solOf),
          buyVolumeToken: sum(true, ui),
          sellVolumeToken: sum(false, ui),
          openPriceUsd: p.length ? priceOf(p[0]!) : null,
          lastPriceUsd: p.length ? priceOf(p.at(-1)!) : null,
        };
        for (const [field, value] of Object.entries(expected)) {
          if (value === null) expect(w[field], `${stats.ca} ${name} ${field}`).toBeNull();
          else expect(relErr(w[field] as number, value), `${stats.ca} ${name} ${field}: ${w[field]} vs ${value}`).toBeLessThan(1e-9);
        }
        if (p.length) expect(relErr(w.priceChangePercent!, ((expected.lastPriceUsd! - expected.openPriceUsd!) / expected.openPriceUsd!) * 100)).toBeLessThan(1e-6);
      }
      // The windows nest: each holds at least the shorter one's trades
      expect(stats["5m"].buys! + stats["5m"].sells!).toBeLessThanOrEqual(stats["1h"].buys! + stats["1h"].sells!);
      expect(stats["24h"].buys! + stats["24h"].sells!).toBeGreaterThan(0);
    }
    // The live minute counted: some of these trades are in the end's own minute (read from the stored trades)
    expect(live).toBeGreaterThan(0);
  });

  it("one mint gives its stats object; a never-traded mint has empty windows; a malformed item fails alone", async () => {
    const [mint] = mostTraded(1);
    const one = await getJson<Stats>(`/api/v1/stats?ca=${mint}`, { headers: { "x-api-key": key } });
    expect(one.status).toBe(200);
    expect(one.body.ca).toBe(mint);
    expect(one.body).not.toHaveProperty("success");
    const never = "11111111111111111111111111111112";
    const list = await getJson<Record<string, unknown>[]>(`/api/v1/stats?ca=${never},not-base58!,${mint}`, { headers: { "x-api-key": key } });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ ca: never, success: true, "24h": { buys: 0, sells: 0, buyers: 0, sellers: 0, buyVolumeUsd: 0, openPriceUsd: null, lastPriceUsd: null, priceChangePercent: null } });
    expect(list.body[1]).toEqual({ ca: "not-base58!", success: false, error: { code: 400, message: 'Invalid base58 address in ca: "not-base58!"' } });
    expect(list.body[2]).toEqual({ ...one.body, success: true });
  });
});

describe("GET /api/v1/price/history vs the ground truth", () => {
  type PriceAt = { ca: string; priceUsd: number | null; quoteMint: string; trade: { signature: string; slot: number; ordinal: number; pool: string; blockTime: number | null }; retainedFrom: { slot: number } | null; indexedThrough: { slot: number } | null };
  const ask = (query: string) => getJson<PriceAt & { error?: { code: number; message: string } }>(`/api/v1/price/history?${query}`, { headers: { "x-api-key": key } });

  it("by slot and by time: the mint's last trade at or before the moment, with its signature and pool", async () => {
    const checked: string[] = [];
    for (const mint of mostTraded(3)) {
      // Given the truth's trades of the mint, in trade order
      const trades = priced.filter((t) => t.base === mint && t.slot <= hi).sort(later);
      const lastAt = (ok: (t: PricedTruth) => boolean) => trades.filter(ok).at(-1);
      const pick = [trades[0]!, trades[Math.floor(trades.length / 2)]!, trades.at(-1)!];
      for (const t of pick) {
        for (const [query, expected] of [
          [`slot=${t.slot}`, lastAt((x) => x.slot <= t.slot)],
          [`slot=${t.slot - 1}`, lastAt((x) => x.slot <= t.slot - 1)],
          [`time=${t.time}`, lastAt((x) => x.time <= t.time)],
        ] as const) {
          // When the price at that moment is asked
          const res = await ask(`ca=${mint}&${query}`);
          if (!expected) {
            // (nothing of the mint before its first trade: a 404 that says what the index keeps)
            expect(res.status, query).toBe(404);
            expect(res.body.error!.message).toContain("the trade index keeps the last 2 hours of trades");
            continue;
          }
          // Then it is the truth's last trade at or before it: same signature, swap and pool, its USD price
          expect(res.status, `${mint} ${query}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(`${res.body.trade.signature}:${res.body.trade.ordinal}`, `${mint} ${query}`).toBe(expected.key);
          expect(res.body.trade.slot).toBe(expected.slot);
          expect(res.body.quoteMint).toBe(expected.quoteMint);
          const truthPriceUsd = expected.valueUsd / (Number(expected.baseRaw) / 10 ** (await decimalsOf(mint)));
          expect(relErr(res.body.priceUsd!, truthPriceUsd), `${mint} ${query}`).toBeLessThanOrEqual(1e-6);
          expect(res.body.indexedThrough!.slot).toBeGreaterThanOrEqual(res.body.trade.slot);
          checked.push(query);
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(9);
  });

  it("before anything the index keeps: 404 naming the range; neither, both or malformed moments: 400 naming the parameter", async () => {
    const [mint] = mostTraded(1);
    const before = await ask(`ca=${mint}&time=1`);
    expect(before.status, JSON.stringify(before.body)).toBe(404);
    expect(before.body.error!.message).toMatch(new RegExp(`^No trade of ${mint} at or before unix time 1: the trade index keeps the last 2 hours of trades \\(now from slot \\d+, unix time \\d+\\)$`));
    const bad: [string, string][] = [
      [`ca=${mint}`, "Missing required query parameter: time or slot"],
      [`ca=${mint}&time=1&slot=1`, "Give time or slot, not both"],
      [`ca=${mint}&time=soon`, "Invalid query parameter time: expected an integer"],
      [`ca=${mint}&slot=-5`, "Invalid query parameter slot: expected an integer"],
      [`ca=${mint}&time=4294967296`, "Invalid query parameter time: must be at most 4294967295"],
      [`slot=5`, "Missing required query parameter: ca"],
      [`ca=nope!&slot=5`, 'Invalid base58 address in ca: "nope!"'],
      [`ca=${mint},${mint}&slot=5`, "ca takes one mint address on this endpoint"],
    ];
    for (const [query, message] of bad) {
      const res = await ask(query);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: { status: "error", error: { code: 400, message } } });
    }
    // The largest time accepted is the limit itself (seconds up to 2106)
    expect((await ask(`ca=${mint}&time=4294967295`)).status).toBe(200);
  });
});

describe("GET /api/v1/price?changes=true", () => {
  it("adds each stats window's price change to the record, as GET /api/v1/stats computes it; without it, none", async () => {
    const mints = mostTraded(2);
    const never = "11111111111111111111111111111112";
    const stats = await getJson<Stats[]>(`/api/v1/stats?ca=${mints.join(",")}`, { headers: { "x-api-key": key } });
    const changes = (s: Stats) => ({ change5m: s["5m"]!.priceChangePercent, change1h: s["1h"]!.priceChangePercent, change6h: s["6h"]!.priceChangePercent, change24h: s["24h"]!.priceChangePercent });
    // One mint
    const one = await getJson<Record<string, unknown>>(`/api/v1/price?ca=${mints[0]}&changes=true`, { headers: { "x-api-key": key } });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body).toMatchObject(changes(stats.body[0]!));
    expect(one.body.change24h).not.toBeNull();
    // A list: each priced item carries its own; a failed item none
    const list = await getJson<Record<string, unknown>[]>(`/api/v1/price?ca=${mints[0]},${never},${mints[1]}&changes=true`, { headers: { "x-api-key": key } });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ ...changes(stats.body[0]!), success: true });
    expect(list.body[1]).toEqual({ ca: never, success: false, error: { code: 404, message: expect.any(String) } });
    expect(list.body[2]).toMatchObject({ ...changes(stats.body[1]!), success: true });
    // Without it: no change fields
    const plain = await getJson<Record<string, unknown>>(`/api/v1/price?ca=${mints[0]}`, { headers: { "x-api-key": key } });
    expect(Object.keys(plain.body).filter((k) => k.startsWith("change"))).toEqual([]);
  });
});

describe("the trend's end", () => {
  it("is the index's last block (its slot and its time), not the last whole minute", async () => {
    const res = await getJson<{ slot: number; updatedAt: string }>("/api/v1/trend?hour=1&limit=5", { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT slot, end_minute FROM trend_windows WHERE hour = 1").first<{ slot: number; end_minute: number }>();
    const lastTimed = await env.DB.prepare("SELECT block_time FROM ingested_blocks WHERE slot <= ? AND block_time IS NOT NULL ORDER BY slot DESC LIMIT 1").bind(row!.slot).first<{ block_time: number }>();
    expect(res.body.slot).toBe(hi);
    expect(res.body.updatedAt).toBe(new Date(lastTimed!.block_time * 1000).toISOString());
    expect(row!.end_minute).toBe(Math.floor(lastTimed!.block_time / 60));
  });
});
