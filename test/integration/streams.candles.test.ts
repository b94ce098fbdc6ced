/**
 * Live candles on `/ws` (`subscribeCandle`) end to end through the real rooms and chain tail, against localnet and the
 * REST candles of the same span: a client subscribes to 1s and 1m candles of the tokens quoted in JitoSOL, USD1 or a
 * memecoin (valued through that token's USD at their block, the same live and on REST) and of the most traded ones,
 * leaves halfway, comes back to its room (`?connectionId=`) and resumes from its last seq; its frames, replayed and live together,
 * are numbered without a gap and their final states equal GET /api/v1/ohlcv's candles once the trade index holds the
 * span (1s: to the last bit, the same fold of the same trades; 1m: the cron's minute buckets, summed in another order,
 * so volumes to 1e-9 relative). Then the refusals: a bad or missing interval, an interval on another kind, too many
 * tokens for the service and for a FREE plan; an unknown token is acked and streams nothing; a revoked key's socket is
 * closed.
 */
import { runInDurableObject, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/accounts/api-keys";
import { closeRevokedKeySockets } from "../../src/accounts/meter-client";
import { plans } from "../../src/accounts/plans";
import { limits } from "../../src/limits";
import type { LiveCandle } from "../../src/streams/stream-events";
import { newAccount } from "../helpers/ids";
import { newApiKey, newApiKeyRecord } from "../helpers/keys";
import { advance, chainRpc, world } from "../helpers/localnet";
import { ingestUntil } from "../helpers/trade-index";
import { sleep, until as poll } from "../helpers/wait";
import { storeApiKey } from "../../src/accounts/api-keys";

interface Frame {
  type: string;
  subscribeId?: string;
  seq?: number;
  status?: string;
  message?: string;
  interval?: string;
  replayed?: number;
  data?: LiveCandle;
}

interface Truth {
  slot: number;
  baseMint: string;
  failed: boolean;
}

interface RestCandle {
  time: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number;
  volumeBase: number;
  buys: number;
  sells: number;
}

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
const tail = () => env.CHAIN_TAIL.get(env.CHAIN_TAIL.idFromName("chain-tail"));
const confirmedSlot = () => chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
const until = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined) => poll(what, probe, 60_000, 100);
const tailAt = (slot: number) => until(`the tail at ${slot}`, () => runInDurableObject(tail(), async (_i, state) => (((await state.storage.get<number>("cursor")) ?? -1) >= slot ? true : undefined)));

interface Client {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
}

async function open(key: string, connectionId?: string): Promise<Client> {
  const res = await SELF.fetch(`https://api.test/ws?x-api-key=${key}${connectionId ? `&connectionId=${connectionId}` : ""}`, { headers: { upgrade: "websocket" } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const frames: Frame[] = [];
  ws.addEventListener("message", (m) => {
    frames.push(JSON.parse(String(m.data)) as Frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code, reason: e.reason })));
  await until("connected", () => frames.find((f) => f.type === "connected"));
  return { ws, frames, closed };
}

async function subscribe(c: Client, tokens: string[], interval: string): Promise<string> {
  const before = c.frames.length;
  c.ws.send(JSON.stringify({ method: "subscribeCandle", tokens, interval }));
  const ack = await until(`the ${interval} ack`, () => c.frames.slice(before).find((f) => f.type === "subscribeCandle" && f.interval === interval));
  expect(ack).toMatchObject({ status: "success", tokens, interval });
  return ack.subscribeId!;
}

async function rest(key: string, mint: string, interval: string, currency: string, from: number, to: number): Promise<RestCandle[]> {
  const res = await SELF.fetch(`https://api.test/api/v1/ohlcv?ca=${mint}&interval=${interval}&currency=${currency}&from=${from}&to=${to}&limit=1000`, { headers: { "x-api-key": key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { candles: RestCandle[] }).candles;
}

const connectionId = "candles-resume-1";
let key = "";
let mints: string[] = [];
const subIds: Record<string, string> = {};
const frames: Frame[] = [];
let tip = 0;
let replayed = 0;

beforeAll(async () => {
  // Given the tokens whose pool is quoted in JitoSOL, USD1 or a memecoin (valued through that token's USD at their
  // block) and the most traded tokens of the last 300 slots, ten in all
  await advance(2);
  const otherQuoted = (await world()).tokens.filter((t) => ["lst-quoted", "usd1-quoted", "meme-quoted"].some((tag) => t.tags.includes(tag))).map((t) => t.mint);
  expect(otherQuoted.length, "tokens quoted in other tokens").toBeGreaterThan(0);
  const now = await confirmedSlot();
  const recent = ((await (await fetch(`${env.LOCALNET_URL}/__localnet/trades?from=${Math.max(1, now - 300)}&to=${now}`)).json()) as { trades: Truth[] }).trades.filter((t) => !t.failed && !STABLE_OR_SOL.has(t.baseMint));
  const counts = new Map<string, number>();
  for (const t of recent) counts.set(t.baseMint, (counts.get(t.baseMint) ?? 0) + 1);
  const mostTraded = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
  mints = [...new Set([...otherQuoted, ...mostTraded])].slice(0, 10);
  expect(mints.length).toBeGreaterThan(3);
  key = await newApiKey();

  // and a client subscribed to their 1s and 1m candles
  const a = await open(key, connectionId);
  subIds["1s"] = await subscribe(a, mints, "1s");
  subIds["1m"] = await subscribe(a, mints, "1m");
  await until("the tail's cursor", () => runInDurableObject(tail(), async (_i, state) => state.storage.get<number>("cursor")));
  // When 30 slots pass, the client leaves, 20 more pass, it comes back and resumes, and 20 more pass
  await advance(30);
  await tailAt(await confirmedSlot());
  await sleep(300);
  frames.push(...a.frames);
  a.ws.close(1000, "leaving");
  await a.closed;
  await advance(20);
  await tailAt(await confirmedSlot());
  const b = await open(key, connectionId);
  for (const interval of ["1s", "1m"]) {
    const last = Math.max(0, ...frames.filter((f) => f.subscribeId === subIds[interval] && f.type === "candle").map((f) => f.seq!));
    b.ws.send(JSON.stringify({ method: "resume", subscribeId: subIds[interval], fromSeq: last }));
    const ack = await until(`the ${interval} resume ack`, () => b.frames.find((f) => f.type === "resume" && f.subscribeId === subIds[interval]));
    expect(ack.status).toBe("success");
    replayed += ack.replayed!;
  }
  await advance(20);
  tip = await confirmedSlot();
  await tailAt(tip);
  await sleep(500);
  frames.push(...b.frames);
  b.ws.close(1000, "done");
  // and the trade index holds the span
  await ingestUntil(tip);
}, 240_000);

afterAll(async () => {
  const rooms = await runInDurableObject(tail(), async (_i, state) => [...(await state.storage.list({ prefix: "room:" })).keys()]);
  for (const room of rooms) await tail().setTopics(room.slice("room:".length), []);
});

const candlesOf = (interval: string) => frames.filter((f) => f.type === "candle" && f.subscribeId === subIds[interval]);

describe("subscribeCandle: replayed and live candles equal the REST candles of the same span", () => {
  it("each subscription's frames are numbered 1, 2, 3, ... across the leave and the resume; only its interval, only its tokens", () => {
    expect(replayed).toBeGreaterThan(0);
    for (const interval of ["1s", "1m"]) {
      const got = candlesOf(interval);
      expect(got.length).toBeGreaterThan(10);
      expect(got.map((f) => f.seq)).toEqual(got.map((_, i) => i + 1));
      expect(got.every((f) => f.data!.interval === interval && mints.includes(f.data!.ca))).toBe(true);
    }
  });

  it("a forming candle at most once per slot per token; each candle closed once, as its last forming state, after every forming one", () => {
    for (const interval of ["1s", "1m"]) {
      const got = candlesOf(interval).map((f) => f.data!);
      const forming = got.filter((c) => !c.closed).map((c) => `${c.ca}:${c.slot}`);
      expect(new Set(forming).size).toBe(forming.length);
      const closed = got.filter((c) => c.closed);
      expect(new Set(closed.map((c) => `${c.ca}:${c.time}`)).size).toBe(closed.length);
      for (const c of closed) {
        const states = got.filter((x) => x.ca === c.ca && x.time === c.time);
        expect(states.at(-1)).toBe(c);
        const { closed: _a, slot: _b, ...last } = states.at(-2)!;
        const { closed: _c, slot: _d, ...final } = c;
        expect(final).toEqual(last);
        expect(c.slot).toBeGreaterThan(states.at(-2)!.slot);
      }
    }
  });

  it("1s and 1m: the final state of every candle (closed or still forming at the end) equals REST's, in USD and SOL; none missing", async () => {
    let compared = 0;
    /** trades quoted in another token, valued, inside the 1s candles compared */
    let otherQuoted = 0;
    for (const interval of ["1s", "1m"] as const) {
      const exact = interval === "1s";
      const got = candlesOf(interval).map((f) => f.data!);
      for (const mint of mints) {
        const finals = new Map<number, LiveCandle>();
        for (const c of got) if (c.ca === mint) finals.set(c.time, c);
        const full = [...finals.values()].filter((c) => !c.partial).sort((x, y) => x.time - y.time);
        if (full.length === 0) continue;
        const from = full[0]!.time;
        const to = full.at(-1)!.time;
        const [usd, sol] = await Promise.all([rest(key, mint, interval, "usd", from, to), rest(key, mint, interval, "sol", from, to)]);
        // the same candles, none missing on either side
        expect(full.map((c) => c.time)).toEqual(usd.map((c) => c.time));
        for (let i = 0; i < full.length; i++) {
          const live = full[i]!;
          const r = usd[i]!;
          const s = sol[i]!;
          expect([live.open, live.high, live.low, live.close, live.buys, live.sells]).toEqual([r.open, r.high, r.low, r.close, r.buys, r.sells]);
          expect([live.sol.open, live.sol.high, live.sol.low, live.sol.close]).toEqual([s.open, s.high, s.low, s.close]);
          for (const [a, b] of [
            [live.volume, r.volume],
            [live.volumeBase, r.volumeBase],
            [live.sol.volume, s.volume],
          ] as const) {
            if (exact) expect(a).toBe(b);
            else expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));
          }
          compared++;
        }
        if (exact) {
          const row = await env.DB.prepare(
            `SELECT count(*) AS n FROM trades WHERE mint = ? AND block_time IN (SELECT value FROM json_each(?)) AND price_usd IS NOT NULL AND quote_mint NOT IN (SELECT value FROM json_each(?))`,
          )
            .bind(mint, JSON.stringify(full.map((c) => c.time)), JSON.stringify([...STABLE_OR_SOL]))
            .first<{ n: number }>();
          otherQuoted += row!.n;
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
    // (among them trades quoted in another token: the live value of such a trade is REST's)
    expect(otherQuoted).toBeGreaterThan(0);
    console.log(JSON.stringify({ liveCandles: { slots: tip, tokens: mints.length, compared, otherQuoted, replayed } }));
  });
});

describe("subscribeCandle refusals", () => {
  it("a bad or missing interval, an interval on another kind, too many tokens: an error frame each, the socket kept", async () => {
    const c = await open(await newApiKey());
    const cases: [unknown, string][] = [
      [{ method: "subscribeCandle", tokens: [mints[0]], interval: "2m" }, "Invalid interval: must be one of 1s, 1m, 5m, 1h"],
      [{ method: "subscribeCandle", tokens: [mints[0]], interval: 60 }, "Invalid interval: must be one of 1s, 1m, 5m, 1h"],
      [{ method: "subscribeCandle", tokens: [mints[0]] }, "Missing field: interval"],
      [{ method: "subscribeTrade", tokens: [mints[0]], interval: "1m" }, "Unknown field: interval"],
      [{ method: "subscribeCandle", tokens: ["not-an-address"], interval: "1m" }, "Invalid tokens.0: not a base58 address (32 bytes)"],
      [{ method: "subscribeCandle", tokens: Array.from({ length: limits.streams.tokensPerSubscription + 1 }, () => mints[0]), interval: "1m" }, `Too many tokens; max ${limits.streams.tokensPerSubscription}`],
    ];
    for (const [message, error] of cases) {
      const before = c.frames.length;
      c.ws.send(JSON.stringify(message));
      const frame = await until(`the error for ${JSON.stringify(message).slice(0, 80)}`, () => c.frames.slice(before).find((f) => f.type === "error"));
      expect(frame.message).toBe(error);
    }
    // and the socket still serves
    await subscribe(c, [mints[0]!], "5m");
    c.ws.close(1000, "done");
  });

  it(`FREE: ${plans.free.wsTokensPerSubscription} token per candle subscription, 2 refused`, async () => {
    const c = await open(await newApiKey({ plan: "free", account: newAccount() }));
    await subscribe(c, [mints[0]!], "1h");
    const before = c.frames.length;
    c.ws.send(JSON.stringify({ method: "subscribeCandle", tokens: mints.slice(0, 2), interval: "1h" }));
    const frame = await until("the plan's refusal", () => c.frames.slice(before).find((f) => f.type === "error"));
    expect(frame.message).toBe(`Too many tokens for your plan; max ${plans.free.wsTokensPerSubscription} per subscription`);
    c.ws.close(1000, "done");
  });

  it("an unknown token is acked and streams nothing while a traded one streams; a revoked key's socket is closed 1008", async () => {
    const account = newAccount();
    const { key: revocable, record } = await newApiKeyRecord({ account });
    const c = await open(revocable);
    const unknown = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const quiet = await subscribe(c, [unknown], "1s");
    const busy = await subscribe(c, mints, "1s");
    await advance(10);
    await until("a candle of a traded token", () => c.frames.find((f) => f.type === "candle" && f.subscribeId === busy));
    expect(c.frames.filter((f) => f.subscribeId === quiet && f.type !== "subscribeCandle")).toEqual([]);
    // When its key is revoked
    await storeApiKey(env.API_KEYS, { ...record, revoked: true });
    await closeRevokedKeySockets(env, account, hashApiKey(revocable));
    // Then the socket is told and closed
    expect((await c.closed).code).toBe(1008);
    expect(c.frames.some((f) => f.type === "error" && f.message === "API key revoked")).toBe(true);
  });
});
