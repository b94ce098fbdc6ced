/**
 * `/ws` against the chain, end to end with real sockets: the worker bundle served by Miniflare (rooms and the chain
 * tail as Durable Objects), localnet's full world behind it (manual slots), `ws` clients in front. Over 150 slots (60 s
 * of mainnet at 400 ms), checked against localnet's ground truth (`GET /__localnet/trades`):
 * - a client subscribed to trades of some tokens gets every trade of them once, in chain order, seq 1, 2, 3, ..., and
 *   nothing of other tokens;
 * - a second client on the same tokens disconnects halfway, comes back to its room (`?connectionId=`) and resumes
 *   from its last seq: together its frames are exactly the first client's trades, none missing, none twice;
 * - both go on numbering without a gap across a 12 s pause in which their rooms hibernate;
 * - a client subscribed to trades of some wallets gets every trade those wallets made, whatever the token;
 * - a price subscription gets records of its tokens only, at most one per token per slot, numbered without a gap;
 * - a new-pair subscription gets the world's new pools and launches, numbered without a gap (their fields against
 *   localnet's truth: test/e2e/streams.new-pairs.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startLocalnet, type Localnet } from "../../localnet/src/server";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { sleep, until } from "../helpers/wait";

interface Truth {
  signature: string;
  slot: number;
  ordinal: number;
  baseMint: string;
  wallet: string;
  failed: boolean;
}

interface Frame {
  type: string;
  subscribeId?: string;
  seq?: number;
  status?: string;
  connectionId?: string;
  data?: { signature: string; ordinal: number; baseMint: string; wallet: string; slot: number };
}

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
const WINDOW_SLOTS = 150;
let net: Localnet;
let worker: ServedWorker;
let key: string;

async function truthIn(from: number, to: number): Promise<Truth[]> {
  const out: Truth[] = [];
  // the admin endpoint caps its span: ask in pages of 50 slots
  for (let a = from; a <= to; a += 50) {
    const res = await fetch(`${net.rpcUrl}/__localnet/trades?from=${a}&to=${Math.min(to, a + 49)}`);
    out.push(...((await res.json()) as { trades: Truth[] }).trades);
  }
  return out;
}

async function confirmedSlot(): Promise<number> {
  const res = await fetch(net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] }) });
  return ((await res.json()) as { result: number }).result;
}

interface Client {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<void>;
}

async function open(query: string): Promise<Client> {
  const ws = new WebSocket(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}${query}`);
  const frames: Frame[] = [];
  ws.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
  const closed = new Promise<void>((resolve) => ws.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  return { ws, frames, closed };
}


/** Advances `slots` slots in steps, giving the tail time to follow (it polls every ~400 ms once caught up). */
async function advance(slots: number): Promise<void> {
  for (let done = 0; done < slots; done += 10) {
    await net.advance(Math.min(10, slots - done));
    await sleep(250);
  }
}

const trades = (frames: Frame[]) => frames.filter((f) => f.type === "trade");
const idOf = (f: Frame) => `${f.data!.signature}:${f.data!.ordinal}`;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 23 });
  await net.advance(40);
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl });
  key = await worker.newApiKey();
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await net?.close();
});

describe("chain tail → rooms → ws clients, against localnet's ground truth", () => {
  it(`every trade of the subscribed tokens over ${WINDOW_SLOTS} slots arrives once, in order; a client that resumes misses nothing and gets nothing twice`, async () => {
    // Given half the recently traded tokens (not SOL or stables)
    const tipBefore = await confirmedSlot();
    const recent = (await truthIn(Math.max(1, tipBefore - 39), tipBefore)).filter((t) => !t.failed);
    const mints = [...new Set(recent.map((t) => t.baseMint))].filter((m) => !STABLE_OR_SOL.has(m)).sort().filter((_, i) => i % 2 === 0).slice(0, 50);
    expect(mints.length).toBeGreaterThan(2);

    const wallets = [...new Set(recent.map((t) => t.wallet))].sort().slice(0, 5);

    // and two clients subscribed to their trades (the second will leave and come back), a third to trades of 5 wallets
    const a = await open("");
    const b = await open("");
    const c = await open("");
    await until("c connected", () => c.frames.find((f) => f.type === "connected"));
    c.ws.send(JSON.stringify({ method: "subscribeTrade", tokens: wallets }));
    await until("c's ack", () => c.frames.find((f) => f.type === "subscribeTrade"));
    // and a fourth to prices of the same tokens and to new pairs
    const d = await open("");
    await until("d connected", () => d.frames.find((f) => f.type === "connected"));
    d.ws.send(JSON.stringify({ method: "subscribePrice", tokens: mints }));
    d.ws.send(JSON.stringify({ method: "subscribeNewpair" }));
    const priceAck = await until("d's price ack", () => d.frames.find((f) => f.type === "subscribePrice"));
    const newpairAck = await until("d's newpair ack", () => d.frames.find((f) => f.type === "subscribeNewpair"));
    const bConnection = (await until("b connected", () => b.frames.find((f) => f.type === "connected"))).connectionId!;
    for (const client of [a, b]) client.ws.send(JSON.stringify({ method: "subscribeTrade", tokens: mints }));
    await until("a's ack", () => a.frames.find((f) => f.type === "subscribeTrade"));
    const bAck = await until("b's ack", () => b.frames.find((f) => f.type === "subscribeTrade"));
    // the rooms tell the tail, which starts at the tip: give it a few polls, then the window starts
    await advance(5);
    await sleep(2000);
    const start = await confirmedSlot();

    // When half the window passes, b leaves, events go on, b comes back to its room and resumes from its last seq
    await advance(WINDOW_SLOTS / 2);
    await sleep(1500);
    const bBefore = trades(b.frames);
    const lastSeq = bBefore.at(-1)?.seq ?? 0;
    b.ws.close();
    await b.closed;
    await advance(20);
    await sleep(1500);
    const back = await open(`&connectionId=${bConnection}`);
    await until("b back", () => back.frames.find((f) => f.type === "connected"));
    back.ws.send(JSON.stringify({ method: "resume", subscribeId: bAck.subscribeId, fromSeq: lastSeq }));
    const resumed = await until("the resume ack", () => back.frames.find((f) => f.type === "resume" || f.type === "error"));
    expect(resumed).toMatchObject({ type: "resume", status: "success", subscribeId: bAck.subscribeId, fromSeq: lastSeq });
    // and the chain stands still for 12 s: workerd hibernates a room idle for 10 s (its rooms log "restored" when woken),
    // so the rest of the window is numbered by rooms rebuilt from their sockets' attachments and their SQLite rows
    await sleep(12_000);
    await advance(WINDOW_SLOTS / 2 - 20);
    const tip = await confirmedSlot();
    const want = (await truthIn(start + 1, tip)).filter((t) => !t.failed && mints.includes(t.baseMint));
    expect(want.length).toBeGreaterThan(10);
    // (the tail reads each block, then the prices d asked for: wait until a holds the window's last trade, not a fixed time)
    const last = `${want.at(-1)!.signature}:${want.at(-1)!.ordinal}`;
    await until("the window's last trade at a", () => (trades(a.frames).some((f) => idOf(f) === last) ? true : undefined), 60_000);
    await sleep(1000);

    // Then a has every trade of those tokens in (start, tip], once, in chain order, seq 1..n, nothing else
    const aTrades = trades(a.frames);
    expect(aTrades.filter((f) => f.data!.slot > start && f.data!.slot <= tip).map(idOf)).toEqual(want.map((t) => `${t.signature}:${t.ordinal}`));
    expect(aTrades.map((f) => f.seq)).toEqual(aTrades.map((_, i) => i + 1));
    expect(aTrades.every((f) => mints.includes(f.data!.baseMint))).toBe(true);
    expect(aTrades.every((f, i) => i === 0 || f.data!.slot >= aTrades[i - 1]!.data!.slot)).toBe(true);

    // and b, before it left plus after it resumed, has exactly a's trades: same events, same seqs, no gap, none twice
    const bAll = [...bBefore, ...trades(back.frames)];
    expect(bAll.map((f) => f.seq)).toEqual(bAll.map((_, i) => i + 1));
    expect(bAll.map(idOf)).toEqual(aTrades.map(idOf));
    expect(back.frames.some((f) => f.type === "error")).toBe(false);

    // and c has every trade made by those wallets, whatever the token, once and in order
    const byWallets = (await truthIn(start + 1, tip)).filter((t) => !t.failed && wallets.includes(t.wallet));
    const cTrades = trades(c.frames);
    expect(byWallets.length).toBeGreaterThan(0);
    expect(cTrades.filter((f) => f.data!.slot > start && f.data!.slot <= tip).map(idOf)).toEqual(byWallets.map((t) => `${t.signature}:${t.ordinal}`));
    expect(cTrades.every((f) => wallets.includes(f.data!.wallet))).toBe(true);
    expect(cTrades.map((f) => f.seq)).toEqual(cTrades.map((_, i) => i + 1));
    c.ws.close();

    // and d has price records of those tokens only (at most one per token per slot, seq 1..n), and new pairs (seq 1..n)
    const prices = d.frames.filter((f) => f.type === "price") as unknown as { subscribeId: string; seq: number; data: { ca: string; slot: number; priceInUsd: string } }[];
    expect(prices.length).toBeGreaterThan(0);
    expect(prices.every((f) => f.subscribeId === priceAck.subscribeId && mints.includes(f.data.ca))).toBe(true);
    expect(prices.map((f) => f.seq)).toEqual(prices.map((_, i) => i + 1));
    expect(new Set(prices.map((f) => `${f.data.ca}:${f.data.slot}`)).size).toBe(prices.length);
    const pairs = d.frames.filter((f) => f.type === "newpair");
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.every((f) => f.subscribeId === newpairAck.subscribeId)).toBe(true);
    expect(pairs.map((f) => f.seq)).toEqual(pairs.map((_, i) => i + 1));
    d.ws.close();
    console.log(JSON.stringify({ streamsChainE2e: { slots: tip - start, tokens: mints.length, trades: aTrades.length, wallets: wallets.length, walletTrades: cTrades.length, prices: prices.length, newPairs: pairs.length, replayedOnResume: (resumed as { replayed?: number }).replayed } }));
    a.ws.close();
    back.ws.close();
  }, 180_000);
});
