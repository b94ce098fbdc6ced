/**
 * New pools and graduations through the chain tail, end to end and in real time: localnet's full world producing a
 * slot every 400 ms, the worker bundle served by Miniflare (rooms and the chain tail as Durable Objects, D1 migrated
 * by serveWorker), `ws` clients in front. localnet's admin controls make the next slot launch a new pool of each kind
 * (`POST /__localnet/launch`: Raydium AMM v4, Meteora DBC — the two no mint derives, so only the registry the tail
 * fills can price them — then CPMM, CLMM, DLMM, DAMM v1, DAMM v2) and buy out a pump.fun curve
 * (`POST /__localnet/graduate`; the world migrates it to PumpSwap the slot after). Checked against localnet's truth (what the control answered, the manifest,
 * the ground truth of trades, the blocks):
 * - a `subscribeNewpair` client gets each creation, the graduation and the migration, with the fields docs/streams.md
 *   promises (mint, quote mint, pool, kind, creator, initial price, signature, slot, block time);
 * - `GET /api/v1/price?ca=<new mint>` answers 200 from the new pool, at the world's own price of it, within 5 s (wall
 *   clock) of the block that created it (the bound, for AMM v4 and DBC: the tail registers new pools as it
 *   reads their block), and from the graduated coin's PumpSwap pool within 5 s of the buy-out;
 * - a `subscribePrice` client on the new mints gets their price records once the pools trade.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import type { TokenWorld } from "../../localnet/src/world/world";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { openRecording, type RecordingClient } from "./helpers/ws-client";
import { until } from "../helpers/wait";

const WSOL = "So11111111111111111111111111111111111111112";
/** The bound: a new AMM v4 or DBC pool prices within 5 s of its first block. */
const PRICED_WITHIN_MS = 5000;
const POLL_MS = 200;

interface Launched {
  kind: string;
  slot: number;
  signature: string;
  mint: string;
  pool: string;
  creator: string;
  producedAtMs: number;
}

interface Graduated {
  mint: string;
  curve: string;
  pumpSwapPool: string;
  wallet: string;
  completed: boolean;
  slot: number;
  signature: string;
  producedAtMs: number;
}

interface TruthTrade {
  signature: string;
  slot: number;
  txIndex: number;
  ordinal: number;
  pool: string;
  side: "buy" | "sell";
  poolIn: { mint: string; amount: string };
  poolOut: { mint: string; amount: string };
  failed: boolean;
}

let net: Localnet;
let worker: ServedWorker;
let key: string;
const clients: RecordingClient[] = [];

async function control<T>(path: string): Promise<T> {
  const res = await fetch(`${net.rpcUrl}${path}`, { method: "POST" });
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const manifest = async () => (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as WorldManifest;

async function truthOf(pool: string, from: number, to: number): Promise<TruthTrade[]> {
  const { trades } = (await (await fetch(`${net.rpcUrl}/__localnet/trades?from=${from}&to=${to}`)).json()) as { trades: TruthTrade[] };
  return trades.filter((t) => t.pool === pool && !t.failed);
}

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return ((await res.json()) as { result: T }).result;
}

/** Quote per base in human units of a truth trade (what the stream's `initialPrice` is when a trade shares the block). */
function priceOfTrade(t: TruthTrade, baseMint: string, baseDecimals: number): number {
  const [base, quote] = t.poolOut.mint === baseMint ? [t.poolOut, t.poolIn] : [t.poolIn, t.poolOut];
  return Number(quote.amount) / 1e9 / (Number(base.amount) / 10 ** baseDecimals);
}

/**
 * The newpair `initialPrice` the docs promise: the first trade of the pool in the creating block (to 1e-9, relative);
 * else, for a created pool, its price read right after the block — equal to the world's price of the pool at its
 * creation (`atCreation`, SOL per token, to 1e-6 relative) when the pool did not trade in the next slots (the tail reads
 * confirmed blocks a slot or two behind), else some positive price; a migrated curve has none.
 */
async function expectedInitialPrice(pool: string, slot: number, mint: string, decimals: number, atCreation?: number): Promise<unknown> {
  const first = (await truthOf(pool, slot, slot)).sort((a, b) => a.txIndex - b.txIndex || a.ordinal - b.ordinal)[0];
  if (first) {
    const price = priceOfTrade(first, mint, decimals);
    return expect.closeTo(price, Math.ceil(9 - Math.log10(price)));
  }
  if (atCreation === undefined) return null;
  if (Number.isNaN(atCreation) || (await truthOf(pool, slot, slot + 10)).length > 0) return expect.any(Number);
  return expect.closeTo(atCreation, Math.ceil(6 - Math.log10(atCreation)));
}

async function connect(): Promise<RecordingClient> {
  const client = await openRecording(`${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}`);
  clients.push(client);
  await client.frame("connected", (f) => f.type === "connected");
  return client;
}

/** Polls the REST price of `mint` every POLL_MS until a 200; the record and when it came. */
async function pricedAt(mint: string, timeoutMs = 20_000): Promise<{ record: any; at: number; polls: number }> {
  const end = Date.now() + timeoutMs;
  let polls = 0;
  let last = "";
  while (Date.now() < end) {
    polls++;
    const res = await fetch(`${worker.origin}/api/v1/price?ca=${mint}`, { headers: { "x-api-key": key } });
    const text = await res.text();
    if (res.status === 200) return { record: JSON.parse(text), at: Date.now(), polls };
    last = `${res.status} ${text.slice(0, 300)}`;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`no price for ${mint} within ${timeoutMs} ms; last answer ${last}`);
}

beforeAll(async () => {
  // slots in real time (400 ms), after 40 produced at once so the world has curves, pools and a DBC config to launch on
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 400, seed: 23 });
  await net.advance(40);
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl });
  key = await worker.newApiKey();
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await worker?.close();
  await net?.close();
});

describe("new pools and graduations through the live chain tail (slots every 400 ms)", () => {
  it("a new pool of each kind (AMM v4 and DBC first): newpair events as the docs promise, priced by REST within 5 s of their block, price events once they trade; a graduation: graduate and migration events, priced from PumpSwap within 5 s", async () => {
    // Given a client subscribed to new pairs (the tail starts at the tip when the room registers the topic)
    const pairs = await connect();
    pairs.send({ method: "subscribeNewpair" });
    const ack = await pairs.frame("newpair ack", (f) => f.type === "subscribeNewpair");
    await new Promise((r) => setTimeout(r, 2000));

    // When the next slot launches a pool of a kind, and REST is asked for its mint's price from the moment it answers
    const delays: Record<string, { ms: number; polls: number }> = {};
    const launched: Launched[] = [];
    const launchPrices = new Map<string, number>();
    const checkedPrices: string[] = [];
    for (const kind of ["raydium-amm-v4", "meteora-dbc", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2"]) {
      const l = await control<Launched>(`/__localnet/launch?kind=${kind}&wait=1`);
      expect(l).toMatchObject({ kind, mint: expect.any(String), pool: expect.any(String) });
      // the pool's price as created (the next slot is 400 ms away): quote atoms per base atom → SOL per 6-decimal token
      launchPrices.set(l.pool, (net.world as TokenWorld).priceOf(l.pool) / 1000);
      const { record, at, polls } = await pricedAt(l.mint);
      delays[kind] = { ms: at - l.producedAtMs, polls };
      // Then the price comes from the new pool, within 5 s of the block that created it
      const worldPrice = (net.world as TokenWorld).priceOf(l.pool);
      const tip = net.ledger.slotAt("processed");
      expect(record).toMatchObject({ ca: l.mint, dex: kind, pool: l.pool });
      expect(record.slot).toBeGreaterThanOrEqual(l.slot);
      // at the world's own price of the pool (quote atoms per base atom; 6-decimal token, SOL 9) when it has not
      // traded since the slot the record read
      if ((await truthOf(l.pool, record.slot + 1, tip)).length === 0) {
        expect(Number(record.priceInSol) / (worldPrice / 1000), `${kind}: ${record.priceInSol} SOL vs the world's ${worldPrice}`).toBeCloseTo(1, 6);
        checkedPrices.push(kind);
      }
      expect(delays[kind]!.ms).toBeLessThan(PRICED_WITHIN_MS);
      launched.push(l);
    }


    // and a client subscribed to the prices of the new mints (1 per subscription: any plan's cap)
    const prices = await connect();
    for (const l of launched) prices.send({ method: "subscribePrice", tokens: [l.mint] });
    await until("the price acks", () => (prices.frames.filter((f) => f.type === "subscribePrice" && f.status === "success").length === launched.length ? true : undefined));

    // When a near-graduation curve is bought out (the world migrates it to PumpSwap the slot after)
    const g = await control<Graduated>("/__localnet/graduate?wait=1");
    expect(g.completed).toBe(true);
    // and REST is asked for the coin's price from then on: it moves to the PumpSwap pool the migration creates
    const graduated = await until(
      "a price from the PumpSwap pool",
      async () => {
        const { record } = await pricedAt(g.mint, 10_000);
        return record.pool === g.pumpSwapPool ? { record, at: Date.now() } : undefined;
      },
      15_000,
    );
    expect(graduated.record).toMatchObject({ ca: g.mint, dex: "pumpswap", pool: g.pumpSwapPool });
    delays.graduatedToPumpSwap = { ms: graduated.at - g.producedAtMs, polls: 0 };
    expect(delays.graduatedToPumpSwap.ms).toBeLessThan(PRICED_WITHIN_MS);

    // Then the newpair client gets every creation, with the fields the docs promise, matching localnet's truth
    const world = await manifest();
    const tokenOf = (mint: string) => world.tokens.find((t) => t.mint === mint)!;
    for (const l of launched) {
      const event = await pairs.frame(`newpair of ${l.kind}`, (f) => f.type === "newpair" && f.data.pool === l.pool, 15_000);
      const token = tokenOf(l.mint);
      const pool = token.pools.find((p) => p.address === l.pool)!;
      expect(pool).toMatchObject({ kind: l.kind, baseMint: l.mint, quoteMint: WSOL });
      expect(event).toEqual({
        type: "newpair",
        subscribeId: ack.subscribeId,
        seq: expect.any(Number),
        data: {
          type: "create",
          mint: l.mint,
          quoteMint: WSOL,
          pool: l.pool,
          kind: l.kind,
          creator: l.creator,
          initialPrice: await expectedInitialPrice(l.pool, l.slot, l.mint, token.decimals, launchPrices.get(l.pool)),
          signature: l.signature,
          slot: l.slot,
          blockTime: await rpc<number>("getBlockTime", [l.slot]),
        },
      });
    }

    // and the graduation (the buy that completed the curve) and the migration to the canonical PumpSwap pool
    const graduate = await pairs.frame("graduate", (f) => f.type === "newpair" && f.data.type === "graduate" && f.data.mint === g.mint, 15_000);
    const coin = tokenOf(g.mint);
    expect(graduate.data).toEqual({
      type: "graduate",
      mint: g.mint,
      quoteMint: WSOL,
      pool: g.curve,
      kind: "pumpfun",
      creator: g.wallet,
      initialPrice: await expectedInitialPrice(g.curve, g.slot, g.mint, coin.decimals),
      signature: g.signature,
      slot: g.slot,
      blockTime: await rpc<number>("getBlockTime", [g.slot]),
    });
    // the migration transaction gives two: the curve migrated, and the canonical PumpSwap pool it created
    const migrated = (await manifest()).tokens.find((t) => t.mint === g.mint)!;
    expect(migrated.tags).toContain("graduated");
    expect(migrated.pools.map((p) => [p.kind, p.address])).toContainEqual(["pumpswap", g.pumpSwapPool]);
    const migratedAt = Number(migrated.details?.graduatedAtSlot);
    const migrate = await pairs.frame("migrate", (f) => f.type === "newpair" && f.data.type === "migrate" && f.data.mint === g.mint, 15_000);
    const created = await pairs.frame("the PumpSwap pool", (f) => f.type === "newpair" && f.data.pool === g.pumpSwapPool, 15_000);
    const migrationTx = await rpc<{ slot: number; transaction: { message: { accountKeys: string[] } } }>("getTransaction", [migrate.data.signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }]);
    const migration = { mint: g.mint, quoteMint: WSOL, creator: migrationTx.transaction.message.accountKeys[0], signature: migrate.data.signature, slot: migratedAt, blockTime: await rpc<number>("getBlockTime", [migratedAt]) };
    expect(migrationTx.slot).toBe(migratedAt);
    expect(migrate.data).toEqual({ ...migration, type: "migrate", pool: g.curve, kind: "pumpfun", initialPrice: await expectedInitialPrice(g.curve, migratedAt, g.mint, coin.decimals) });
    // the PumpSwap pool's price as created: REST's first record from it, when the pool had not traded by then
    const untradedAtRest = (await truthOf(g.pumpSwapPool, migratedAt, graduated.record.slot)).length === 0;
    const pumpSwapAtCreation = untradedAtRest ? Number(graduated.record.priceInSol) : Number.NaN;
    expect(created.data).toEqual({ ...migration, type: "create", pool: g.pumpSwapPool, kind: "pumpswap", initialPrice: await expectedInitialPrice(g.pumpSwapPool, migratedAt, g.mint, coin.decimals, pumpSwapAtCreation) });

    console.log(JSON.stringify({ newPoolPricedAfterMs: delays, pricesCheckedAgainstWorld: checkedPrices }));

    // and every newpair frame is numbered 1, 2, 3, ... with nothing but newpair frames of this subscription
    const numbered = pairs.frames.filter((f) => f.type === "newpair");
    expect(numbered.map((f) => f.seq)).toEqual(numbered.map((_, i) => i + 1));

    // and once each new pool trades, the price client gets its mint's record from that pool
    for (const l of launched) {
      const first = await until(`a trade on the new ${l.kind} pool`, async () => (await truthOf(l.pool, l.slot, net.ledger.slotAt("confirmed")))[0], 60_000);
      const event = await prices.frame(`price of ${l.mint}`, (f) => f.type === "price" && f.data.ca === l.mint && f.data.slot >= first.slot, 20_000);
      expect(event.data).toMatchObject({ ca: l.mint, dex: l.kind, pool: l.pool });
    }
    console.log(JSON.stringify({ streamsNewPairs: { newpairFrames: numbered.length, initialPrices: launched.map((l) => numbered.find((f) => f.data.pool === l.pool)?.data.initialPrice), priceFrames: prices.frames.filter((f) => f.type === "price").length } }));
  }, 180_000);
});
