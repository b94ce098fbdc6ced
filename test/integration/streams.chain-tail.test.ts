/**
 * The chain tail (src/streams/chain-tail.ts) against localnet's ground truth, the real Durable Object running its own
 * alarm loop: over ~100 slots of the world's traffic, every trade of a subscribed mint and of a subscribed wallet is
 * published exactly once, in slot order, one publish per block per room, nothing of other mints; new pools of the span
 * arrive as `newpair` with their creator; wallet events equal the balance changes in the blocks' metas; price events
 * come at most once per slot per mint. The rooms' side is a sink that records what it is given (the tail's
 * `roomSink`, replaced in this test's instance only).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { streamEventSchema, type StreamEvent, type StreamEventSink } from "../../src/streams/stream-events";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { advance, chainRpc, world } from "../helpers/localnet";

interface Truth {
  signature: string;
  slot: number;
  txIndex: number;
  ordinal: number;
  pool: string;
  kind: string;
  wallet: string;
  baseMint: string;
  quoteMint: string;
  side: string;
  failed: boolean;
}

interface Publish {
  room: string;
  events: StreamEvent[];
}

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

const published: Publish[] = [];
const tail = () => env.CHAIN_TAIL.get(env.CHAIN_TAIL.idFromName("chain-tail-test"));

let before: WorldManifest;
let after: WorldManifest;
let start = 0;
let tip = 0;
let truth: Truth[] = [];
let mints: string[] = [];
let otherMints: string[] = [];
let wallets: string[] = [];
let priced: string[] = [];

async function truthIn(from: number, to: number): Promise<Truth[]> {
  return ((await (await fetch(`${env.LOCALNET_URL}/__localnet/trades?from=${from}&to=${to}`)).json()) as { trades: Truth[] }).trades;
}

async function tailCursor(): Promise<number | undefined> {
  return runInDurableObject(tail(), async (_instance, state) => state.storage.get<number>("cursor"));
}

async function waitForCursor(atLeast: number): Promise<number> {
  for (let i = 0; i < 240; i++) {
    const cursor = await tailCursor();
    if (cursor !== undefined && cursor >= atLeast) return cursor;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`tail cursor stuck at ${await tailCursor()} (want ${atLeast})`);
}

/** The most frequent values of `pick` among `rows`. */
function mostFrequent<T>(rows: T[], pick: (row: T) => string, n: number): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(pick(r), (counts.get(pick(r)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
}

const eventsOf = (room: string) => published.filter((p) => p.room === room).flatMap((p) => p.events);

beforeAll(async () => {
  // Given the world's recent traders and tokens (the subscriptions: half the traded mints, the busiest wallets and mints)
  await advance(2);
  const confirmed = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
  const recent = (await truthIn(Math.max(1, confirmed - 300), confirmed)).filter((t) => !t.failed);
  const traded = [...new Set(recent.map((t) => t.baseMint))].filter((m) => !STABLE_OR_SOL.has(m)).sort();
  mints = traded.filter((_, i) => i % 2 === 0);
  otherMints = traded.filter((_, i) => i % 2 === 1);
  wallets = mostFrequent(recent, (t) => t.wallet, 3);
  priced = mostFrequent(recent.filter((t) => mints.includes(t.baseMint)), (t) => t.baseMint, 3);

  // And a chain tail whose rooms are recording sinks
  await runInDurableObject(tail(), async (instance) => {
    const sink = (room: string): StreamEventSink => ({
      async publish(events) {
        published.push({ room, events: structuredClone(events) });
      },
    });
    (instance as unknown as { roomSink: typeof sink }).roomSink = sink;
  });
  // When rooms register their topics, the tail starts at the confirmed tip
  await tail().setTopics("room-trades", [...mints.map((m) => `trade:${m}`), ...wallets.map((w) => `trade:${w}`)]);
  await tail().setTopics("room-activity", ["newpair", ...wallets.map((w) => `wallet:${w}`), ...priced.map((m) => `price:${m}`)]);
  start = await waitForCursor(confirmed);
  before = await world();
  // and ~100 slots of traffic follow
  await advance(100);
  tip = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
  await waitForCursor(tip);
  after = await world();
  truth = (await truthIn(start + 1, tip)).filter((t) => !t.failed);
}, 180_000);

afterAll(async () => {
  // the tail goes idle (no room), so later files' slots are not followed
  await tail().setTopics("room-trades", []);
  await tail().setTopics("room-activity", []);
});

describe("chain tail vs localnet's ground truth", () => {
  it("publishes well-formed events, one publish per block per room, blocks in slot order, nothing before its start", () => {
    expect(published.length).toBeGreaterThan(0);
    for (const room of ["room-trades", "room-activity"]) {
      const slots = published.filter((p) => p.room === room).map((p) => {
        const own = new Set(p.events.map((e) => e.slot));
        expect(own.size, "one block per publish").toBe(1);
        return p.events[0]!.slot;
      });
      expect(slots, `${room}: strictly increasing slots`).toEqual([...new Set(slots)].sort((a, b) => a - b));
      expect(slots.every((s) => s > start && s <= tip + 10)).toBe(true);
    }
    for (const p of published) for (const e of p.events) expect(streamEventSchema.safeParse(e).success, JSON.stringify(e).slice(0, 200)).toBe(true);
    const count = (kind: StreamEvent["kind"]) => published.flatMap((p) => p.events).filter((e) => e.kind === kind).length;
    console.log(JSON.stringify({ chainTailTest: { slots: tip - start, publishes: published.length, trade: count("trade"), newpair: count("newpair"), wallet: count("wallet"), price: count("price"), mints: mints.length, wallets: wallets.length } }));
  });

  it("every trade of a subscribed mint arrives exactly once, in chain order, under trade:<mint>; none of other mints", () => {
    const events = eventsOf("room-trades").filter((e) => e.kind === "trade" && e.slot <= tip);
    const byMint = events.filter((e) => mints.includes(e.topic.slice("trade:".length)));
    const want = truth.filter((t) => mints.includes(t.baseMint));
    expect(want.length, "the span has trades of the subscribed mints").toBeGreaterThan(10);
    const got = byMint.map((e) => (e.kind === "trade" ? `${e.data.signature}:${e.data.ordinal}` : ""));
    expect(got, "exactly once, in (slot, txIndex, ordinal) order").toEqual(want.map((t) => `${t.signature}:${t.ordinal}`));
    for (const e of byMint) if (e.kind === "trade") expect(e.topic).toBe(`trade:${e.data.baseMint}`);
    const others = new Set(otherMints);
    expect(events.filter((e) => e.kind === "trade" && others.has(e.data.baseMint) && !wallets.includes(e.data.wallet))).toEqual([]);
    // and each item is the trade as the ground truth has it
    const truthByKey = new Map(want.map((t) => [`${t.signature}:${t.ordinal}`, t]));
    for (const e of byMint) {
      if (e.kind !== "trade") continue;
      const t = truthByKey.get(`${e.data.signature}:${e.data.ordinal}`)!;
      expect({ slot: e.data.slot, txIndex: e.data.txIndex, pool: e.data.pool, wallet: e.data.wallet, quote: e.data.quoteMint, side: e.data.side }).toEqual({
        slot: t.slot, txIndex: t.txIndex, pool: t.pool, wallet: t.wallet, quote: t.quoteMint, side: t.side,
      });
    }
  });

  it("every trade of a subscribed wallet arrives exactly once, in chain order, under trade:<wallet>", () => {
    const events = eventsOf("room-trades").filter((e) => e.kind === "trade" && e.slot <= tip && wallets.includes(e.topic.slice("trade:".length)));
    const want = truth.filter((t) => wallets.includes(t.wallet));
    expect(want.length).toBeGreaterThan(0);
    expect(events.map((e) => (e.kind === "trade" ? `${e.data.wallet}:${e.data.signature}:${e.data.ordinal}` : ""))).toEqual(
      want.map((t) => `${t.wallet}:${t.signature}:${t.ordinal}`),
    );
    for (const e of events) if (e.kind === "trade") expect(e.topic).toBe(`trade:${e.data.wallet}`);
  });

  it("new pools of the span arrive as newpair events, with the creating transaction's fee payer", async () => {
    const known = new Set(before.tokens.flatMap((t) => t.pools.map((p) => p.address)));
    const created = after.tokens.flatMap((t) => t.pools).filter((p) => !known.has(p.address));
    const newpairs = eventsOf("room-activity").flatMap((e) => (e.kind === "newpair" ? [e.data] : []));
    expect(created.length, "the world made pools in the span").toBeGreaterThan(0);
    const announced = new Set(newpairs.map((n) => n.pool));
    expect(created.filter((p) => !announced.has(p.address)).map((p) => `${p.kind} ${p.address}`)).toEqual([]);
    // Then each creator is the fee payer of the transaction named
    for (const n of newpairs.slice(0, 20)) {
      const tx = await chainRpc<{ transaction: { message: { accountKeys: string[] } } }>("getTransaction", [n.signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }]);
      expect(n.creator).toBe(tx.transaction.message.accountKeys[0]);
    }
    expect(newpairs.filter((n) => n.type === "create").length).toBeGreaterThan(0);
  });

  it("wallet events equal the subscribed wallets' SOL and token balance changes in the blocks' metas (failed transactions too)", async () => {
    const got = eventsOf("room-activity").flatMap((e) => (e.kind === "wallet" && e.slot <= tip ? [e.data] : []));
    const want: string[] = [];
    const { result: slots } = { result: await chainRpc<number[]>("getBlocks", [start + 1, tip, { commitment: "confirmed" }]) };
    for (const slot of slots) {
      const block = await chainRpc<{ transactions: OracleTx[] }>("getBlock", [slot, { encoding: "json", transactionDetails: "full", rewards: false, maxSupportedTransactionVersion: 0, commitment: "confirmed" }]);
      for (const tx of block.transactions) want.push(...balanceChangesOf(tx, new Set(wallets)).map((c) => `${slot} ${tx.transaction.signatures[0]} ${c}`));
    }
    expect(want.length, "the wallets moved in the span").toBeGreaterThan(0);
    expect(got.map((c) => `${c.slot} ${c.signature} ${c.wallet} ${c.mint} ${c.pre}→${c.post} (${c.change})`).sort()).toEqual(want.sort());
  });

  it("price events: at most one per slot per mint, at every slot a subscribed mint traded, the price service's record", () => {
    const prices = eventsOf("room-activity").flatMap((e) => (e.kind === "price" && e.slot <= tip ? [e] : []));
    const seen = prices.map((e) => `${e.slot} ${e.topic}`);
    expect(new Set(seen).size, "once per slot per mint").toBe(seen.length);
    for (const e of prices) expect(e.topic).toBe(`price:${e.data.ca}`);
    const tradedAt = new Set(truth.flatMap((t) => [t.baseMint, t.quoteMint].filter((m) => priced.includes(m)).map((m) => `${t.slot} price:${m}`)));
    expect([...tradedAt].filter((k) => !seen.includes(k)), "a price after every block that traded the mint").toEqual([]);
    expect(seen.filter((k) => !tradedAt.has(k)), "and only then").toEqual([]);
  });

  it("registers the pools created in the span at once (no cron ran), and a new AMM v4 or DBC pool prices by its id", async () => {
    const known = new Set(before.tokens.flatMap((t) => t.pools.map((p) => p.address)));
    const created = after.tokens.flatMap((t) => t.pools).filter((p) => !known.has(p.address) && !p.derivable);
    expect(created.length, "the world made non-derivable pools in the span").toBeGreaterThan(0);
    const { results } = await env.DB.prepare("SELECT address FROM pools WHERE address IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(created.map((p) => p.address)))
      .all<{ address: string }>();
    expect(new Set(results.map((r) => r.address))).toEqual(new Set(created.map((p) => p.address)));
    const fresh = created.filter((p) => p.kind === "raydium-amm-v4" || p.kind === "meteora-dbc");
    const key = await newApiKey();
    for (const pool of fresh) {
      const res = await getJson<{ pool: string }>(`/api/v1/price?ca=${pool.baseMint}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
      expect(res.status, `${pool.kind} ${pool.address}`).toBe(200);
      expect(res.body.pool).toBe(pool.address);
    }
    console.log(JSON.stringify({ chainTailTest: { slots: tip - start, created: created.length, amm4OrDbcPriced: fresh.length } }));
  });
});

interface OracleTx {
  transaction: { signatures: string[]; message: { accountKeys: string[] } };
  meta: {
    preBalances: number[];
    postBalances: number[];
    preTokenBalances?: { accountIndex: number; mint: string; owner?: string; uiTokenAmount: { amount: string } }[];
    postTokenBalances?: { accountIndex: number; mint: string; owner?: string; uiTokenAmount: { amount: string } }[];
    loadedAddresses?: { writable: string[]; readonly: string[] };
  } | null;
}

/** The oracle: per account of the transaction, what moved; token accounts summed per (owner, mint). */
function balanceChangesOf(tx: OracleTx, wallets: Set<string>): string[] {
  const meta = tx.meta;
  if (!meta) return [];
  const keys = [...tx.transaction.message.accountKeys, ...(meta.loadedAddresses?.writable ?? []), ...(meta.loadedAddresses?.readonly ?? [])];
  const out: string[] = [];
  keys.forEach((k, i) => {
    const [pre, post] = [BigInt(meta.preBalances[i]!), BigInt(meta.postBalances[i]!)];
    if (wallets.has(k) && pre !== post) out.push(`${k} SOL ${pre}→${post} (${post - pre})`);
  });
  const perAccount = new Map<number, { owner: string; mint: string; pre: bigint; post: bigint }>();
  for (const [list, side] of [[meta.preTokenBalances, "pre"], [meta.postTokenBalances, "post"]] as const) {
    for (const b of list ?? []) {
      if (!b.owner || !wallets.has(b.owner)) continue;
      const entry = perAccount.get(b.accountIndex) ?? { owner: b.owner, mint: b.mint, pre: 0n, post: 0n };
      entry[side] = BigInt(b.uiTokenAmount.amount);
      perAccount.set(b.accountIndex, entry);
    }
  }
  const perOwnerMint = new Map<string, { pre: bigint; post: bigint }>();
  for (const a of perAccount.values()) {
    const key = `${a.owner} ${a.mint}`;
    const sum = perOwnerMint.get(key) ?? { pre: 0n, post: 0n };
    perOwnerMint.set(key, { pre: sum.pre + a.pre, post: sum.post + a.post });
  }
  for (const [key, { pre, post }] of perOwnerMint) if (pre !== post) out.push(`${key} ${pre}→${post} (${post - pre})`);
  return out;
}
