/**
 * Memory bound by retention: a chain advanced far past its retention keeps, of everything that grows per block or per
 * transaction (blocks, transactions, signature and address indexes, blockhashes, shared strings), only what the
 * retention span needs — counted, not measured as RSS. The request stats keep bodies for the newest ids only.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_KEPT_BODIES, RequestStats } from "../../localnet/src/admin/request-stats.js";
import { encodeBase58 } from "../../localnet/src/chain/base58.js";
import type { TxRecord, World } from "../../localnet/src/chain/types.js";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";

const RETAIN_SLOTS = 500;
const TXS_PER_SLOT = 2;
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const hashKey = (label: string) => encodeBase58(createHash("sha256").update(label).digest());

/** Every transaction names a key never seen before and logs a line never seen before, as new wallets and events do. */
function freshKeysWorld(): World {
  return {
    genesis() {},
    produceSlot(ledger) {
      return Array.from({ length: TXS_PER_SLOT }, (_, i): TxRecord => ({
        signatures: [encodeBase58(createHash("sha512").update(`sig:${ledger.slot}:${i}`).digest())],
        version: "legacy",
        message: {
          header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
          accountKeys: [hashKey(`wallet:${ledger.slot}:${i}`), SYSTEM_PROGRAM],
          recentBlockhash: ledger.recentBlockhash,
          instructions: [],
        },
        meta: {
          err: null,
          fee: 0n,
          preBalances: [0n, 1n],
          postBalances: [0n, 1n],
          preTokenBalances: [],
          postTokenBalances: [],
          innerInstructions: [],
          logMessages: [`Program log: event ${ledger.slot}:${i}`],
          computeUnitsConsumed: 0n,
        },
      }));
    },
    manifest: () => ({ seed: 0, tokens: [], wellKnown: {}, wallets: { whales: [], delegates: [] } }),
    http: () => undefined,
  };
}

let net: Localnet;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 3, world: freshKeysWorld(), maxBlockSlots: RETAIN_SLOTS, finalityDepth: 32 });
  await net.advance(3_000);
});

afterAll(() => net.close());

describe("retention", () => {
  it("after 3,000 slots with a 500-slot retention, every per-block structure holds at most the retention's worth", async () => {
    const r = net.ledger.retained();
    // Blocks: the produced slots of the last 500 (about 5% are skipped)
    expect(r.maxBlockSlots).toBe(RETAIN_SLOTS);
    expect(r.blocks).toBeLessThanOrEqual(RETAIN_SLOTS);
    expect(r.blocks).toBeGreaterThan(RETAIN_SLOTS * 0.9);
    expect(net.ledger.firstAvailableBlock).toBeGreaterThan(net.ledger.currentSlot - RETAIN_SLOTS);
    // Transactions and what indexes them: exactly the retained blocks'
    expect(r.transactions).toBe(r.blocks * TXS_PER_SLOT);
    expect(r.signatures).toBe(r.transactions);
    expect(r.blockhashes).toBe(r.blocks);
    expect(r.addresses).toBe(r.transactions + 1); // one fresh wallet per transaction, plus the System Program
    expect(r.addressEntries).toBe(r.transactions * 2);
    expect(r.pending).toBe(0);
    // Shared strings: those of the last two retention spans at most (2 fresh strings per transaction), never the chain's age
    expect(r.internedStrings).toBeLessThanOrEqual(2 * RETAIN_SLOTS * TXS_PER_SLOT * 2 + 2);
  });

  it("GET /__localnet/memory reports the same counts and the process's memory", async () => {
    const reply = (await (await fetch(`${net.rpcUrl}/__localnet/memory`)).json()) as {
      slot: number;
      retained: Record<string, number>;
      requestStats: { requestIds: number; bodies: number };
      process: { rss: number; heapUsed: number };
    };
    expect(reply.slot).toBe(net.ledger.currentSlot);
    expect(reply.retained).toEqual({ ...net.ledger.retained() });
    expect(reply.process.rss).toBeGreaterThan(reply.process.heapUsed);
    expect(reply.requestStats).toEqual({ requestIds: 0, bodies: 0 });
  });

  it("request stats keep counts for many ids but the last body of the newest ids only", () => {
    const stats = new RequestStats();
    const body = "x".repeat(50 * 1024);
    for (let i = 0; i < 2_000; i++) stats.record(`req-${i}`, ["getMultipleAccounts"], 100, body);
    expect(stats.sizes()).toEqual({ requestIds: 2_000, bodies: MAX_KEPT_BODIES });
    expect(stats.get("req-1999")).toMatchObject({ requests: 1, accounts: 100, lastBody: body });
    expect(stats.get("req-0")).toEqual({ requests: 1, methods: { getMultipleAccounts: 1 }, accounts: 100 });
    // A request id seen again gets its body back as the newest
    stats.record("req-0", ["getAccountInfo"], 1, "again");
    expect(stats.get("req-0").lastBody).toBe("again");
    expect(stats.sizes().bodies).toBe(MAX_KEPT_BODIES);
  });
});
