/**
 * The world's ground truth of trades (`GET /__localnet/trades`) against the chain it produced: every recorded swap's
 * amounts are the reserve balance changes in its transaction's meta (getBlock json), failed swaps sit in failed
 * transactions and move nothing; a few hundred slots hold the hard cases of the trade index (routed, same pool twice,
 * failed, new pools of all nine kinds); and a mainnet-sized block on demand.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import type { WorldManifest } from "../../localnet/src/world/manifest.js";
import type { TradeRecord } from "../../localnet/src/world/swap-truth.js";
import { call } from "./helpers/local-chain.js";

const SLOTS = 300;
const KINDS = [
  "pump-bonding-curve",
  "pumpswap",
  "raydium-amm-v4",
  "raydium-cpmm",
  "raydium-clmm",
  "meteora-dlmm",
  "meteora-damm-v1",
  "meteora-damm-v2",
  "meteora-dbc",
];
const JUPITER_V6 = "JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4";
const WSOL = "So11111111111111111111111111111111111111112";

interface JsonTx {
  transaction: { signatures: string[]; message: { accountKeys: string[]; instructions: { programIdIndex: number }[] } };
  meta: {
    err: unknown;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances: { accountIndex: number; mint: string; uiTokenAmount: { amount: string } }[];
    postTokenBalances: { accountIndex: number; mint: string; uiTokenAmount: { amount: string } }[];
    innerInstructions: { index: number; instructions: { programIdIndex: number; stackHeight: number }[] }[];
  };
}

let net: Localnet;
let trades: TradeRecord[];
let manifest: WorldManifest;
const blocks = new Map<number, { transactions: JsonTx[] }>();

const admin = async (method: string, path: string) => {
  const res = await fetch(`${net.rpcUrl}${path}`, { method });
  return { status: res.status, json: (await res.json()) as any };
};

/** Reserve accounts of a pool from the manifest's `related` (the curve's SOL side is the curve account's lamports). */
function reserveAccounts(kind: string, pool: string, related: Record<string, string>): { account: string; lamports: boolean }[] {
  const t = (...names: string[]) => names.map((n) => ({ account: related[n]!, lamports: false }));
  switch (kind) {
    case "pumpfun":
      return [{ account: related.associatedBondingCurve!, lamports: false }, { account: pool, lamports: true }];
    case "pumpswap":
      return t("poolBaseTokenAccount", "poolQuoteTokenAccount");
    case "raydium-amm-v4":
      return t("coinVault", "pcVault");
    case "raydium-cpmm":
      return t("token0Vault", "token1Vault");
    case "raydium-clmm":
      return t("tokenVault0", "tokenVault1");
    case "meteora-dlmm":
      return t("reserveX", "reserveY");
    case "meteora-damm-v1":
      return t("aTokenVault", "bTokenVault");
    case "meteora-damm-v2":
      return t("tokenAVault", "tokenBVault");
    case "meteora-dbc":
      return t("baseVault", "quoteVault");
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

/** A reserve account's balance change in a transaction (null when the transaction created it). */
function change(tx: JsonTx, r: { account: string; lamports: boolean }): { mint: string | null; delta: bigint } | null {
  const i = tx.transaction.message.accountKeys.indexOf(r.account);
  if (i < 0) return { mint: null, delta: 0n };
  if (r.lamports) return { mint: WSOL, delta: BigInt(tx.meta.postBalances[i]!) - BigInt(tx.meta.preBalances[i]!) };
  const pre = tx.meta.preTokenBalances.find((b) => b.accountIndex === i);
  const post = tx.meta.postTokenBalances.find((b) => b.accountIndex === i);
  if (!pre || !post) return null;
  return { mint: post.mint, delta: BigInt(post.uiTokenAmount.amount) - BigInt(pre.uiTokenAmount.amount) };
}

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 3, finalityDepth: 4 });
  await net.advance(SLOTS + 3); // the last slots read are confirmed
  trades = (await admin("GET", `/__localnet/trades?from=0&to=${SLOTS}`)).json.trades;
  manifest = (await admin("GET", "/__localnet/world")).json;
  for (const slot of new Set(trades.map((t) => t.slot))) {
    const { result } = await call(net.rpcUrl, "getBlock", [slot, { encoding: "json", maxSupportedTransactionVersion: 0, rewards: false, commitment: "confirmed" }]);
    blocks.set(slot, result);
  }
}, 240_000);

afterAll(() => net.close());

function groupBySignature(list: TradeRecord[]): Map<string, TradeRecord[]> {
  const out = new Map<string, TradeRecord[]>();
  for (const t of list) out.set(t.signature, [...(out.get(t.signature) ?? []), t]);
  return out;
}

function poolIndex(): Map<string, { account: string; lamports: boolean }[]> {
  const out = new Map<string, { account: string; lamports: boolean }[]>();
  for (const token of manifest.tokens) for (const p of token.pools) out.set(p.address, reserveAccounts(p.kind, p.address, p.related));
  return out;
}

describe("GET /__localnet/trades: the world's swaps as the chain executed them", () => {
  it("given a few hundred slots, when the trades are read, then each names a transaction of its block at its index, ordered by slot, txIndex, ordinal", () => {
    // ≥ 1,000 swaps across all nine kinds
    expect(trades.length).toBeGreaterThan(1000);
    expect([...new Set(trades.map((t) => t.kind))].sort()).toEqual([...KINDS].sort());
    for (let i = 1; i < trades.length; i++) {
      const [a, b] = [trades[i - 1]!, trades[i]!];
      expect(a.slot < b.slot || (a.slot === b.slot && (a.txIndex < b.txIndex || (a.txIndex === b.txIndex && b.ordinal === a.ordinal + 1)))).toBe(true);
    }
    for (const t of trades) {
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      expect(tx.transaction.signatures[0]).toBe(t.signature);
      expect(KINDS).toContain(t.kind);
      expect(tx.transaction.message.accountKeys).toContain(t.wallet);
      expect(BigInt(t.poolIn.amount)).toBeGreaterThan(0n);
      expect(BigInt(t.poolOut.amount)).toBeGreaterThan(0n);
      expect(t.poolIn.mint).not.toBe(t.poolOut.mint);
    }
  });

  it("given a non-failed swap of a pool swapped once in its transaction, then the pool's reserve accounts change by exactly poolIn and −poolOut in the meta", () => {
    const reserves = poolIndex();
    let checked = 0;
    const checkedKinds = new Set<string>();
    for (const t of trades) {
      if (t.failed) continue;
      const accounts = reserves.get(t.pool);
      if (!accounts) continue; // the SOL/USDC pool is not under a token: checked below through its vault bytes
      const siblings = trades.filter((o) => o.signature === t.signature && o !== t);
      const shared = siblings.some((o) => o.pool === t.pool || (reserves.get(o.pool) ?? []).some((r) => accounts.some((a) => a.account === r.account)));
      if (shared) continue;
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      const changes = accounts.map((a) => change(tx, a));
      if (changes.some((c) => c === null)) continue; // the transaction created the pool (a launch's dev buy)
      const gained = changes.find((c) => c!.delta > 0n)!;
      const lost = changes.find((c) => c!.delta < 0n)!;
      expect({ mint: gained.mint, amount: gained.delta.toString() }).toEqual(t.poolIn);
      expect({ mint: lost.mint, amount: (-lost.delta).toString() }).toEqual(t.poolOut);
      checked++;
      checkedKinds.add(t.kind);
    }
    expect(checked).toBeGreaterThan(800);
    expect([...checkedKinds].sort()).toEqual([...KINDS].sort());
  });

  it("given the arbitrage on SOL/USDC, then its vaults (read from the pool's bytes) change by exactly the recorded amounts", async () => {
    const pool = manifest.wellKnown.solUsdcPool!;
    const info = (await call(net.rpcUrl, "getAccountInfo", [pool, { encoding: "base64" }])).result.value;
    const data = Buffer.from(info.data[0], "base64");
    const { encodeBase58 } = await import("../../localnet/src/chain/base58.js");
    const vaults = [encodeBase58(data.subarray(137, 169)), encodeBase58(data.subarray(169, 201))];
    const arbs = trades.filter((t) => t.pool === pool && !t.failed && trades.filter((o) => o.signature === t.signature).length === 1);
    expect(arbs.length).toBeGreaterThan(20);
    for (const t of arbs) {
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      const changes = vaults.map((account) => change(tx, { account, lamports: false })!);
      expect(changes.find((c) => c.mint === t.poolIn.mint)!.delta).toBe(BigInt(t.poolIn.amount));
      expect(changes.find((c) => c.mint === t.poolOut.mint)!.delta).toBe(-BigInt(t.poolOut.amount));
    }
  });

  it("given a failed swap, then its transaction has meta.err set and none of the pool's reserves change", () => {
    const reserves = poolIndex();
    const failed = trades.filter((t) => t.failed);
    expect(failed.length).toBeGreaterThan(5);
    for (const t of failed) {
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      expect(tx.meta.err).not.toBeNull();
      for (const a of reserves.get(t.pool) ?? []) expect(change(tx, a)?.delta ?? 0n).toBe(0n);
    }
    const ok = trades.filter((t) => !t.failed);
    for (const t of ok) expect(blocks.get(t.slot)!.transactions[t.txIndex]!.meta.err).toBeNull();
  });

  it("given the world's traffic, then Jupiter routes CPI into two or three pools of different kinds at stack height 2, some of them failed", () => {
    const bySignature = groupBySignature(trades);
    let routed = 0;
    let threeLegs = 0;
    let failedRoutes = 0;
    for (const [, group] of bySignature) {
      const t = group[0]!;
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      const keys = tx.transaction.message.accountKeys;
      const routeIndex = tx.transaction.message.instructions.findIndex((ix) => keys[ix.programIdIndex] === JUPITER_V6);
      if (routeIndex < 0) continue;
      routed++;
      expect(group.length).toBeGreaterThanOrEqual(2);
      expect(new Set(group.map((g) => g.pool)).size).toBe(group.length);
      expect(new Set(group.map((g) => g.kind)).size).toBe(group.length);
      if (group.length === 3) threeLegs++;
      // Each leg's pool program is invoked by the route (stack height 2), in leg order; a failed route's legs ran too
      // (Jupiter's slippage check comes after them), so its meta keeps their CPIs.
      const inner = tx.meta.innerInstructions.find((i) => i.index === routeIndex)!;
      const legPrograms = inner.instructions.filter((i) => i.stackHeight === 2 && keys[i.programIdIndex] !== JUPITER_V6).map((i) => keys[i.programIdIndex]);
      expect(legPrograms).toHaveLength(group.length);
      if (t.failed) {
        failedRoutes++;
        expect(tx.meta.err).toEqual({ InstructionError: [routeIndex, { Custom: 6001 }] });
        continue;
      }
      // Consecutive legs chain: what one pool paid out is what the next took in (same mint).
      for (let i = 1; i < group.length; i++) expect(group[i]!.poolIn.mint).toBe(group[i - 1]!.poolOut.mint);
    }
    expect(routed).toBeGreaterThan(20);
    expect(threeLegs).toBeGreaterThan(2);
    expect(failedRoutes).toBeGreaterThan(0);
  });

  it("given the world's traffic, then some transactions carry several top-level swap instructions, and some swap the same pool twice with two exact records", () => {
    const bySignature = groupBySignature(trades);
    let multi = 0;
    let samePool = 0;
    for (const [, group] of bySignature) {
      if (group.length < 2) continue;
      const t = group[0]!;
      const tx = blocks.get(t.slot)!.transactions[t.txIndex]!;
      const keys = tx.transaction.message.instructions.map((ix) => tx.transaction.message.accountKeys[ix.programIdIndex]);
      if (keys.includes(JUPITER_V6)) continue;
      multi++;
      if (group[0]!.pool !== group[1]!.pool) continue;
      samePool++;
      expect(group.map((g) => g.ordinal)).toEqual([0, 1]);
      if (t.failed) continue;
      // Two swaps of one pool: the reserves' net change in the meta is the sum of the two records.
      const accounts = poolIndex().get(t.pool);
      if (!accounts) continue;
      const net = new Map<string, bigint>();
      for (const g of group) {
        net.set(g.poolIn.mint, (net.get(g.poolIn.mint) ?? 0n) + BigInt(g.poolIn.amount));
        net.set(g.poolOut.mint, (net.get(g.poolOut.mint) ?? 0n) - BigInt(g.poolOut.amount));
      }
      for (const a of accounts) {
        const c = change(tx, a)!;
        expect(c.delta).toBe(net.get(c.mint!) ?? 0n);
      }
    }
    expect(multi).toBeGreaterThan(20);
    expect(samePool).toBeGreaterThan(5);
  });

  it("given a few hundred slots, then new pools of all nine kinds were created by the program's own create instruction, and then traded", async () => {
    const anchor = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
    const creation: Record<string, { program: string; matches: (data: Buffer, accounts: number) => boolean }> = {
      pumpfun: { program: "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", matches: (d) => [anchor("create"), anchor("create_v2")].includes(d.subarray(0, 8).toString("hex")) },
      pumpswap: { program: "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("create_pool") },
      "raydium-amm-v4": { program: "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", matches: (d, n) => d[0] === 1 && d.length === 26 && n === 21 },
      "raydium-cpmm": { program: "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C", matches: (d, n) => d.subarray(0, 8).toString("hex") === anchor("initialize") && n === 20 },
      "raydium-clmm": { program: "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("create_pool") },
      "meteora-dlmm": { program: "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("initialize_lb_pair2") },
      "meteora-damm-v1": { program: "Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("initialize_permissionless_pool") },
      "meteora-damm-v2": { program: "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("initialize_pool") },
      "meteora-dbc": { program: "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN", matches: (d) => d.subarray(0, 8).toString("hex") === anchor("initialize_virtual_pool_with_spl_token") },
    };
    const { decodeBase58 } = await import("../../localnet/src/chain/base58.js");
    const createdAndTraded = new Set<string>();
    for (const token of manifest.tokens.filter((t) => t.tags.includes("launched") || t.details?.graduatedAtSlot)) {
      for (const pool of token.pools) {
        const at = pool.kind === "pumpswap" ? token.details!.graduatedAtSlot : token.details!.launchedAtSlot;
        if (at === undefined) continue;
        const slot = Number(at);
        let block = blocks.get(slot);
        if (!block) {
          block = (await call(net.rpcUrl, "getBlock", [slot, { encoding: "json", maxSupportedTransactionVersion: 0, rewards: false, commitment: "confirmed" }])).result;
          blocks.set(slot, block!);
        }
        const spec = creation[pool.kind]!;
        // The create instruction, top-level or as a CPI (pump `migrate` → pump_amm `create_pool`).
        const txIndex = block!.transactions.findIndex((tx) => {
          const keys = tx.transaction.message.accountKeys;
          const all = [...tx.transaction.message.instructions, ...tx.meta.innerInstructions.flatMap((g) => g.instructions)];
          return keys.includes(pool.address) && tx.meta.err === null && all.some((ix) => {
            const data = Buffer.from(decodeBase58((ix as unknown as { data: string }).data) as Uint8Array);
            return keys[ix.programIdIndex] === spec.program && spec.matches(data, (ix as unknown as { accounts: number[] }).accounts.length);
          });
        });
        if (txIndex < 0) continue;
        const traded = trades.some((t) => t.pool === pool.address && !t.failed && (t.slot > slot || t.txIndex > txIndex));
        if (traded) createdAndTraded.add(pool.kind === "pumpfun" ? "pump-bonding-curve" : pool.kind);
      }
    }
    expect([...createdAndTraded].sort()).toEqual([...KINDS].sort());
  });

  it("given a few hundred slots, then the world dropped no transaction", () => {
    expect((net.world as unknown as { errors: string[] }).errors).toEqual([]);
  });

  it("a range over 5,000 slots, a reversed or a missing bound is 400; 5,000 slots is accepted", async () => {
    expect((await admin("GET", "/__localnet/trades?from=0&to=4999")).status).toBe(200);
    expect((await admin("GET", "/__localnet/trades?from=0&to=5000")).status).toBe(400);
    expect((await admin("GET", "/__localnet/trades?from=10&to=9")).status).toBe(400);
    expect((await admin("GET", "/__localnet/trades?from=1")).status).toBe(400);
    expect((await admin("GET", "/__localnet/trades?from=-1&to=3")).status).toBe(400);
  });
});

describe("POST /__localnet/advance?slots=1&heavy=1: a mainnet-sized block on demand", () => {
  it("given a heavy advance, when its block is read with getBlock json, then it holds ≥1,000 transactions, ~70% of them TowerSync votes, and swaps of every kind; the JSON is mainnet-sized", async () => {
    const before = net.ledger.currentSlot;
    expect((await admin("POST", "/__localnet/advance?slots=1&heavy=1")).status).toBe(200);
    // A skipped slot has no block: the heavy request waits for the next produced one.
    while (!net.ledger.getBlock(net.ledger.slotAt("processed")) || net.ledger.slotAt("processed") <= before) await net.advance(1);
    const slot = net.ledger.slotAt("processed");
    await net.advance(3);
    const started = Date.now();
    const res = await fetch(net.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBlock", params: [slot, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }] }),
    });
    const text = await res.text();
    const elapsed = Date.now() - started;
    const block = JSON.parse(text).result as { transactions: JsonTx[] };
    expect(block.transactions.length).toBeGreaterThanOrEqual(1000);
    const votes = block.transactions.filter((tx) => {
      const { accountKeys, instructions } = tx.transaction.message;
      return instructions.length === 1 && accountKeys[instructions[0]!.programIdIndex] === "Vote111111111111111111111111111111111111111";
    });
    expect(votes.length / block.transactions.length).toBeGreaterThan(0.65);
    expect(votes.length / block.transactions.length).toBeLessThan(0.75);
    for (const v of votes.slice(0, 50)) {
      const ix = (v.transaction.message.instructions[0] as unknown as { data: string; accounts: number[] });
      const { decodeBase58 } = await import("../../localnet/src/chain/base58.js");
      const data = decodeBase58(ix.data) as Uint8Array;
      expect([...data.subarray(0, 4)]).toEqual([14, 0, 0, 0]); // VoteInstruction::TowerSync
      expect(ix.accounts).toHaveLength(2); // vote account, vote authority (the signer)
      expect(v.meta.err).toBeNull();
      expect(v.meta.preBalances[0]! - v.meta.postBalances[0]!).toBe(5000);
    }
    const heavyTrades = (await admin("GET", `/__localnet/trades?from=${slot}&to=${slot}`)).json.trades as TradeRecord[];
    expect(heavyTrades.length).toBeGreaterThan(250);
    expect(new Set(heavyTrades.map((t) => t.kind)).size).toBeGreaterThanOrEqual(8);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(8_000_000);
    expect(elapsed).toBeLessThan(10_000);
  }, 60_000);

  it("heavy must be 0 or 1, and at most 100 heavy slots a call", async () => {
    expect((await admin("POST", "/__localnet/advance?slots=1&heavy=2")).status).toBe(400);
    expect((await admin("POST", "/__localnet/advance?slots=101&heavy=1")).status).toBe(400);
  });
});

describe("trades are kept as long as their blocks", () => {
  it("given a 40-slot retention, when 120 slots are produced, then slots below the first available block have no trades and the retained ones do", async () => {
    const small = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 9, finalityDepth: 4, maxBlockSlots: 40 });
    try {
      await small.advance(120);
      const first = small.ledger.firstAvailableBlock;
      expect(first).toBeGreaterThan(60);
      const res = await fetch(`${small.rpcUrl}/__localnet/trades?from=0&to=200`);
      const kept = ((await res.json()) as { trades: TradeRecord[] }).trades;
      expect(kept.length).toBeGreaterThan(50);
      expect(Math.min(...kept.map((t) => t.slot))).toBeGreaterThanOrEqual(first);
    } finally {
      await small.close();
    }
  });
});
