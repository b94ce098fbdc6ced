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
import { limits } from "../../src/limits";
import type { ChainTail } from "../../src/streams/chain-tail";
import { streamEventSchema, type StreamEvent, type StreamEventSink } from "../../src/streams/stream-events";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { advance, chainRpc, world, tradeTruth } from "../helpers/localnet";
import type { TradeRecord } from "../../localnet/src/world/swap-truth";


interface Publish {
  room: string;
  events: StreamEvent[];
}

const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

const published: Publish[] = [];
const tailNamed = (name: string) => env.CHAIN_TAIL.get(env.CHAIN_TAIL.idFromName(name));
const tail = () => tailNamed("chain-tail-test");

let before: WorldManifest;
let after: WorldManifest;
let start = 0;
let tip = 0;
let truth: TradeRecord[] = [];
let mints: string[] = [];
let otherMints: string[] = [];
let wallets: string[] = [];
let priced: string[] = [];


const confirmedSlot = () => chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);

async function tailCursor(stub: DurableObjectStub<ChainTail>): Promise<number | undefined> {
  return runInDurableObject(stub, async (_instance, state) => state.storage.get<number>("cursor"));
}

async function waitForCursor(stub: DurableObjectStub<ChainTail>, atLeast: number): Promise<number> {
  for (let i = 0; i < 240; i++) {
    const cursor = await tailCursor(stub);
    if (cursor !== undefined && cursor >= atLeast) return cursor;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`tail cursor stuck at ${await tailCursor(stub)} (want ${atLeast})`);
}

/** Makes the tail's rooms recording sinks (this test's instance only); rooms in `broken` throw on every publish. */
async function recordInto(stub: DurableObjectStub<ChainTail>, into: Publish[], broken: ReadonlySet<string> = new Set()): Promise<void> {
  await runInDurableObject(stub, async (instance) => {
    const sink = (room: string): StreamEventSink => ({
      async publish(events) {
        into.push({ room, events: structuredClone(events) });
        if (broken.has(room)) throw new Error(`${room} is broken`);
      },
    });
    (instance as unknown as { roomSink: typeof sink }).roomSink = sink;
  });
}

/** The world's tokens traded in the slots before `slot` (wSOL and stables aside), and those swaps. */
async function recentlyTraded(slot: number): Promise<{ recent: TradeRecord[]; failed: TradeRecord[]; traded: string[] }> {
  const all = await tradeTruth(Math.max(1, slot - 300), slot);
  const recent = all.filter((t) => !t.failed);
  return { recent, failed: all.filter((t) => t.failed), traded: [...new Set(recent.map((t) => t.baseMint))].filter((m) => !STABLE_OR_SOL.has(m)).sort() };
}

/** The most frequent values of `pick` among `rows`. */
function mostFrequent<T>(rows: T[], pick: (row: T) => string, n: number): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(pick(r), (counts.get(pick(r)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
}

const eventsOf = (room: string, from: Publish[] = published) => from.filter((p) => p.room === room).flatMap((p) => p.events);
const tradeKeys = (events: StreamEvent[]) => events.flatMap((e) => (e.kind === "trade" ? [`${e.data.signature}:${e.data.ordinal}`] : []));

describe("chain tail vs localnet's ground truth", () => {
  beforeAll(async () => {
    // Given the world's recent traders and tokens (the subscriptions: half the traded mints, the busiest wallets and mints)
    await advance(2);
    const confirmed = await confirmedSlot();
    const { recent, failed, traded } = await recentlyTraded(confirmed);
    mints = traded.filter((_, i) => i % 2 === 0);
    otherMints = traded.filter((_, i) => i % 2 === 1);
    // (the busiest traders, and the one whose swaps failed most: failed transactions move its SOL too)
    wallets = [...new Set([...mostFrequent(recent, (t) => t.wallet, 2), ...mostFrequent(failed, (t) => t.wallet, 1), ...mostFrequent(recent, (t) => t.wallet, 3)])].slice(0, 3);
    priced = mostFrequent(recent.filter((t) => mints.includes(t.baseMint)), (t) => t.baseMint, 3);
    // And a chain tail whose rooms are recording sinks
    await recordInto(tail(), published);
    // When rooms register their topics, the tail starts at the confirmed tip
    await tail().setTopics("room-trades", [...mints.map((m) => `trade:${m}`), ...wallets.map((w) => `trade:${w}`)]);
    await tail().setTopics("room-activity", ["newpair", ...wallets.map((w) => `wallet:${w}`), ...priced.map((m) => `price:${m}`)]);
    start = await waitForCursor(tail(), confirmed);
    before = await world();
    // and ~100 slots of traffic follow
    await advance(100);
    tip = await confirmedSlot();
    // The manifest stands at the processed slot, ahead of confirmed: the slots up to it are confirmed and read too, so
    // every pool it lists was in a block the tail read (events past `tip` only count for newpair).
    after = await world();
    const processed = await chainRpc<number>("getSlot", [{ commitment: "processed" }]);
    while ((await confirmedSlot()) < processed) await advance(1);
    await waitForCursor(tail(), processed);
    truth = (await tradeTruth(start + 1, tip)).filter((t) => !t.failed);
  }, 180_000);

  afterAll(async () => {
    // the tail goes idle (no room), so later slots are not followed
    await tail().setTopics("room-trades", []);
    await tail().setTopics("room-activity", []);
  });

  it("publishes well-formed events, one publish per block per room (then its prices), blocks in slot order, nothing before its start", () => {
    expect(published.length).toBeGreaterThan(0);
    for (const room of ["room-trades", "room-activity"]) {
      // A block's own events go in one publish; the prices read after it may follow in a second one for the same slot.
      const slots = published.filter((p) => p.room === room && !p.events.every((e) => e.kind === "price")).map((p) => {
        const own = new Set(p.events.map((e) => e.slot));
        expect(own.size, "one block per publish").toBe(1);
        expect(p.events.some((e) => e.kind === "price"), "prices go in their own publish").toBe(false);
        return p.events[0]!.slot;
      });
      expect(slots, `${room}: strictly increasing slots`).toEqual([...new Set(slots)].sort((a, b) => a - b));
      const order = published.filter((p) => p.room === room).map((p) => p.events[0]!.slot);
      expect(order, `${room}: publishes in slot order`).toEqual([...order].sort((a, b) => a - b));
      expect(slots.every((s) => s > start)).toBe(true);
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
    for (const e of prices) {
      expect(e.topic).toBe(`price:${e.data.ca}`);
      // read after its block, never a cached or stale record
      expect(e.data.slot).toBeGreaterThanOrEqual(e.slot);
      expect(e.data.stale).toBeUndefined();
    }
    // Every block that traded a subscribed mint is followed by a price of it read at or after that block: its own, or,
    // when the tail priced two blocks at the same chain slot, the one record that covers both (never pushed twice).
    const tradedAt = new Set(truth.flatMap((t) => [t.baseMint, t.quoteMint].filter((m) => priced.includes(m)).map((m) => `${t.slot} price:${m}`)));
    const uncovered = [...tradedAt].filter((k) => {
      const [slot, topic] = k.split(" ");
      return !prices.some((e) => e.topic === topic && e.data.slot >= Number(slot));
    });
    expect(uncovered, "a price after every block that traded the mint").toEqual([]);
    const records = prices.map((e) => `${e.data.ca} ${e.data.slot}`);
    expect(new Set(records).size, "the same record (mint, read slot) is pushed once").toBe(records.length);
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

  it("is woken by the upstream slotSubscribe: a block confirmed by a one-slot advance is read well within one poll", async () => {
    // Given the tail caught up; when the chain moves one slot at a time
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      await advance(1);
      const t0 = Date.now();
      const target = await confirmedSlot();
      for (let k = 0; k < 200 && ((await tailCursor(tail())) ?? -1) < target; k++) await new Promise((r) => setTimeout(r, 5));
      delays.push(Date.now() - t0);
    }
    // Then the median wait is far below the poll interval (a poll alone would average half of it, plus the reads)
    delays.sort((a, b) => a - b);
    console.log(JSON.stringify({ chainTailWakeMs: delays }));
    expect(delays[5]!).toBeLessThan(limits.chainTail.pollMs / 2);
  });
});

describe("chain tail under faults", () => {
  const faulty = () => tailNamed("chain-tail-faults");
  const got: Publish[] = [];
  const arm = (plan: object) => fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "POST", body: JSON.stringify(plan) });
  let subscribed: string[] = [];
  let from = 0;
  let to = 0;

  beforeAll(async () => {
    // Given a tail following every recently traded token for two rooms, one of which fails every publish
    await advance(2);
    const confirmed = await confirmedSlot();
    subscribed = (await recentlyTraded(confirmed)).traded;
    await recordInto(faulty(), got, new Set(["room-broken"]));
    const topics = subscribed.map((m) => `trade:${m}`);
    await faulty().setTopics("room-ok", topics);
    await faulty().setTopics("room-broken", topics);
    from = await waitForCursor(faulty(), confirmed);
    // When getBlock answers HTTP 500 more often than the upstream client retries, then one block answers a wrong shape
    await arm({ mode: "500", count: 8, methods: ["getBlock"] });
    await advance(30);
    await waitForCursor(faulty(), from + 5).catch(() => undefined);
    await arm({ mode: "wrong-shape", count: 1, methods: ["getBlock"] });
    await advance(30);
    to = await confirmedSlot();
    await waitForCursor(faulty(), to);
    await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "DELETE" });
  }, 180_000);

  afterAll(async () => {
    await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "DELETE" });
    await faulty().setTopics("room-ok", []);
  });

  it("retries the upstream and skips the unreadable block: every other trade arrives once, in order", async () => {
    const want = (await tradeTruth(from + 1, to)).filter((t) => !t.failed && subscribed.includes(t.baseMint));
    const events = eventsOf("room-ok", got).filter((e) => e.slot <= to);
    const keys = tradeKeys(events);
    expect(new Set(keys).size, "no duplicate after retries").toBe(keys.length);
    const delivered = new Set(keys);
    const missing = want.filter((t) => !delivered.has(`${t.signature}:${t.ordinal}`));
    expect(new Set(missing.map((t) => t.slot)).size, "at most the one wrong-shape block is missing").toBeLessThanOrEqual(1);
    // and the rooms are told of a skipped block: a gap event names its slot
    const gaps = eventsOf("room-ok", got).flatMap((e) => (e.kind === "gap" ? [e.data] : []));
    for (const slot of new Set(missing.map((t) => t.slot))) {
      expect(gaps).toContainEqual(expect.objectContaining({ fromSlot: slot, toSlot: slot, reason: "unreadable-block" }));
    }
    expect(keys).toEqual(want.filter((t) => !missing.includes(t)).map((t) => `${t.signature}:${t.ordinal}`));
    expect(want.length - missing.length).toBeGreaterThan(10);
  });

  it("drops a room after limits.chainTail.maxPublishFailures failed publishes in a row (each tried publishAttempts times), and keeps serving the others", async () => {
    const attempts = got.filter((p) => p.room === "room-broken").length;
    expect(attempts).toBe(limits.chainTail.maxPublishFailures * limits.chainTail.publishAttempts);
    const stored = await runInDurableObject(faulty(), async (_i, state) => state.storage.get("room:room-broken"));
    expect(stored).toBeUndefined();
    expect(got.filter((p) => p.room === "room-ok").length).toBeGreaterThan(attempts);
  });

  it("reads back at most limits.chainTail.maxCatchUpSlots slots after falling behind (the older ones are skipped)", async () => {
    // Given the tail's cursor left far behind (as after a long outage)
    const now = await confirmedSlot();
    const behind = Math.max(1, now - 3 * limits.chainTail.maxCatchUpSlots);
    await runInDurableObject(faulty(), async (_i, state) => state.storage.put("cursor", behind));
    const mark = got.length;
    // When the chain moves on
    await advance(2);
    const tipNow = await confirmedSlot();
    await waitForCursor(faulty(), tipNow);
    // Then it resumed from the cap, not from the old cursor
    const slots = got.slice(mark).flatMap((p) => p.events.map((e) => e.slot));
    expect(slots.length).toBeGreaterThan(0);
    expect(Math.min(...slots)).toBeGreaterThan(tipNow - limits.chainTail.maxCatchUpSlots - 2);
    expect(Math.min(...slots)).toBeLessThanOrEqual(now);
    // and the room was told first which slots it will not get (one gap, from the old cursor to where reading resumed)
    const after = eventsOf("room-ok", got.slice(mark));
    const gaps = after.filter((e) => e.kind === "gap");
    expect(gaps).toHaveLength(1);
    expect(after[0]).toEqual(gaps[0]);
    expect(gaps[0]!.data).toMatchObject({ fromSlot: behind + 1, reason: "fell-behind" });
    // reading resumed right after the gap: every trade of the subscribed mints in (toSlot, tipNow] arrived, in order (the
    // first slot read may hold none of them, so the gap is checked against the chain's truth, not the first event)
    const resumedAfter = gaps[0]!.data.toSlot;
    expect(resumedAfter).toBeGreaterThanOrEqual(behind + 1);
    expect(Math.min(...after.slice(1).map((e) => e.slot))).toBeGreaterThan(resumedAfter);
    const want = (await tradeTruth(resumedAfter + 1, tipNow)).filter((t) => !t.failed && subscribed.includes(t.baseMint));
    const delivered = tradeKeys(after.filter((e) => e.slot <= tipNow));
    expect(delivered).toEqual(want.map((t) => `${t.signature}:${t.ordinal}`));
  });

  it("waits for a node behind its cursor (as when another upstream answers) instead of reading blocks again", async () => {
    // Given a cursor 5 slots past the node's confirmed tip
    const now = await confirmedSlot();
    await runInDurableObject(faulty(), async (_i, state) => state.storage.put("cursor", now + 5));
    const mark = got.length;
    // When the node moves 3 slots (still behind the cursor), then 5 more
    await advance(3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(got.slice(mark), "nothing read again while the node is behind").toEqual([]);
    await advance(5);
    await waitForCursor(faulty(), await confirmedSlot());
    // Then only slots after the cursor were published
    const slots = got.slice(mark).flatMap((p) => p.events.map((e) => e.slot));
    expect(slots.length).toBeGreaterThan(0);
    expect(Math.min(...slots)).toBeGreaterThan(now + 5);
  });

  it("keeps limits.chainTail.maxTopicsPerRoom topics of a room and drops one more and malformed ones (never throws)", async () => {
    const stored = async () => runInDurableObject(faulty(), async (_i, state) => state.storage.get<string[]>("room:room-limits"));
    const topics = Array.from({ length: limits.chainTail.maxTopicsPerRoom + 1 }, (_, i) => `price:${base58Of(i)}`);
    await faulty().setTopics("room-limits", topics.slice(0, -1));
    expect((await stored())?.length).toBe(limits.chainTail.maxTopicsPerRoom);
    await faulty().setTopics("room-limits", topics);
    expect(await stored()).toEqual(topics.slice(0, -1));
    await faulty().setTopics("room-limits", ["trade:not-an-address!", "newpair", "nonsense", ""]);
    expect(await stored()).toEqual(["newpair"]);
    await faulty().setTopics("room-limits", []);
    expect(await stored()).toBeUndefined();
  });
});

/** A distinct 44-char base58 text per integer. */
function base58Of(n: number): string {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let out = "";
  for (let v = n; v > 0; v = Math.floor(v / 58)) out = alphabet[v % 58] + out;
  return out.padStart(44, "1");
}

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
