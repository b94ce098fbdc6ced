/**
 * The pool scanner's bounds (pool-registry/pool-scan.ts) with a fake upstream: the RPC is the boundary, answered here
 * like a node would (getProgramAccounts with withContext, a 64-byte dataSlice).
 */
import type { Address } from "@solana/kit";
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { PoolScanner, scanCallsPerMint, scanLayouts, type ScannerOptions } from "../../../src/pool-registry/pool-scan";
import { base58Bytes } from "../../../src/solana/base58";
import { UpstreamError } from "../../../src/solana/upstream";
import type { AccountRpc } from "../../../src/solana/account-reader";
import { ORCA_WHIRLPOOL_PROGRAM_ADDRESS, RAYDIUM_AMM_V4_PROGRAM_ADDRESS, WSOL_MINT } from "../../../src/solana/well-known";
import { loadAccountFixture } from "../../helpers/fixtures";

const MINT = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" as Address;
const POOL = "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2" as Address;
const options: ScannerOptions = { maxConcurrent: 2, perMinute: 3, missTtlMs: 60_000, hitTtlMs: 5_000, waitMs: 2_000, pollMs: 5, memoBytes: 1 << 20, answerCapBytes: 1 << 20 };
const owner = () => {
  const kept: Promise<unknown>[] = [];
  return { kept, waitUntil: (p: Promise<unknown>) => void kept.push(p) };
};

/** A real Whirlpool (HsQGWEh3: wSOL / Dz9mQ9Nz…, tick spacing 96, a fee tier no derivation lists). */
const whirlpoolBytes = loadAccountFixture("orca-whirlpool/whirlpool_HsQGWEh3.json");
const WHIRLPOOL = "HsQGWEh3ib6w59rBh5n1jXmi8VXFBqKEjxozL6PGfcgb" as Address;
const whirlpoolMint = "Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk" as Address;

/**
 * A fake node: AMM v4 holds one pool of `poolMint` (coin) against wSOL, the Whirlpool program the real pool HsQGWEh3;
 * `fault` makes every call fail that way.
 */
function fakeNode(poolMint: Address | null, behaviour: { fault?: () => Error; gate?: Promise<void> } = {}) {
  const calls: { method: string; params: readonly unknown[] }[] = [];
  const rpc: AccountRpc = {
    async call<T>(method: string, params: readonly unknown[] = []) {
      calls.push({ method, params });
      await behaviour.gate;
      if (behaviour.fault) throw behaviour.fault();
      const [program, config] = params as [string, { filters: { memcmp?: { offset: number; bytes: string } }[] }];
      const match = config.filters.find((f) => f.memcmp && f.memcmp.offset !== 0)!.memcmp!;
      const slice = (config as unknown as { dataSlice: { offset: number; length: number } }).dataSlice;
      const value =
        program === RAYDIUM_AMM_V4_PROGRAM_ADDRESS && match.offset === 400 && match.bytes === poolMint
          ? [{ pubkey: POOL, account: { data: [Buffer.concat([base58Bytes(poolMint)!, base58Bytes(WSOL_MINT)!]).toString("base64"), "base64"] } }]
          : program === ORCA_WHIRLPOOL_PROGRAM_ADDRESS && match.offset === 181 && match.bytes === whirlpoolMint
            ? // a Whirlpool's bytes from mint A: wSOL @101, its vault A @133, then the mint asked for @181
              [{ pubkey: WHIRLPOOL, account: { data: [Buffer.from(whirlpoolBytes.data.subarray(slice.offset, slice.offset + slice.length)).toString("base64"), "base64"] } }]
            : [];
      return { result: { context: { slot: 42 }, value } as T };
    },
  };
  return { rpc, calls };
}

describe("pool scan: one look per mint, bounded", () => {
  it("finds a pool by its mint field, one getProgramAccounts per kind and mint field, each with dataSize or discriminator, memcmp and a 64-byte slice", async () => {
    const node = fakeNode(MINT);
    const scanner = new PoolScanner(options);
    const outcome = await scanner.scan(node.rpc, MINT, owner());
    expect(outcome).toEqual({ status: "scanned", slot: 42, pools: [{ address: POOL, kind: "raydium-amm-v4", baseMint: MINT, quoteMint: WSOL_MINT }] });
    expect(node.calls).toHaveLength(scanCallsPerMint);
    expect(scanCallsPerMint).toBe(scanLayouts.reduce((n, l) => n + l.sides.length, 0));
    for (const { method, params } of node.calls) {
      const config = params[1] as { filters: unknown[]; dataSlice: { length: number } };
      expect(method).toBe("getProgramAccounts");
      expect(config.filters).toHaveLength(2);
      expect(config.filters).toContainEqual({ memcmp: expect.objectContaining({ bytes: MINT }) });
      const layout = scanLayouts.find((l) => l.program === params[0])!;
      // two adjacent mint fields, or (Whirlpool) mint A, vault A, mint B
      expect(config.dataSlice.length).toBe(layout.kind === "orca-whirlpool" ? 112 : 64);
    }
  });

  it("finds pools of the new venues too: a Whirlpool of an underived fee tier by its mint B, its pair read across vault A", async () => {
    const node = fakeNode(null);
    const outcome = await new PoolScanner(options).scan(node.rpc, whirlpoolMint, owner());
    expect(outcome).toEqual({ status: "scanned", slot: 42, pools: [{ address: WHIRLPOOL, kind: "orca-whirlpool", baseMint: WSOL_MINT, quoteMint: whirlpoolMint }] });
    const kinds = new Set(scanLayouts.map((l) => l.kind));
    expect(kinds.has("orca-whirlpool") && kinds.has("raydium-launchlab")).toBe(true);
    const launchLab = scanLayouts.find((l) => l.kind === "raydium-launchlab")!;
    // the launched token is the pool's base mint @205 (the quote @237 follows it); PoolState is 429 B
    expect(launchLab).toMatchObject({ pair: 205, sides: [205], narrow: { dataSize: 429 } });
  });

  it("coalesces concurrent asks of one mint into one scan, and the scan outlives its starter's wait (deadline passed)", async () => {
    let open!: () => void;
    const node = fakeNode(MINT, { gate: new Promise<void>((r) => (open = r)) });
    const scanner = new PoolScanner(options);
    const starter = owner();
    // the starter stops waiting at once (its deadline is already past), the joiner waits
    const first = scanner.scan(node.rpc, MINT, { ...starter, deadline: { at: Date.now() + 10 } });
    const second = scanner.scan(node.rpc, MINT, owner());
    await expect(first).rejects.toThrow(/deadline/);
    open();
    const joined = await second;
    expect(joined.status === "scanned" && joined.pools.map((p) => p.address)).toEqual([POOL]);
    expect(node.calls).toHaveLength(scanCallsPerMint); // one scan, not two
    await Promise.all(starter.kept); // the scan ran to its end under the starter's waitUntil
    expect(scanner.inFlight).toBe(0);
  });

  it("remembers a miss for missTtlMs, then looks again", async () => {
    let now = 1_000_000;
    const node = fakeNode(null);
    const scanner = new PoolScanner(options, () => now);
    expect(await scanner.scan(node.rpc, MINT, owner())).toEqual({ status: "scanned", pools: [], slot: 42 });
    now += options.missTtlMs - 1;
    await scanner.scan(node.rpc, MINT, owner());
    expect(node.calls).toHaveLength(scanCallsPerMint);
    now += 1;
    await scanner.scan(node.rpc, MINT, owner());
    expect(node.calls).toHaveLength(2 * scanCallsPerMint);
  });

  it("an upstream fault (timeout, 5xx, JSON-RPC error) is not a miss: not remembered, the next ask scans again", async () => {
    for (const fault of [() => new UpstreamError("timeout", "t"), () => new UpstreamError("unavailable", "503"), () => new UpstreamError("rpc-error", "x", { rpcError: { code: -32010, message: "x" } })]) {
      const broken = fakeNode(MINT, { fault });
      const scanner = new PoolScanner(options);
      const outcome = await scanner.scan(broken.rpc, MINT, owner());
      expect(outcome.status).toBe("skipped");
      expect(outcome.status === "skipped" && outcome.reason).toMatch(/failed upstream/);
      const healthy = fakeNode(MINT);
      expect((await scanner.scan(healthy.rpc, MINT, owner())).status).toBe("scanned");
      expect(healthy.calls).toHaveLength(scanCallsPerMint);
    }
  });

  it("an answer over the byte cap (a quote-like mint with thousands of pools) is remembered like a miss: derived pools stand, no second scan", async () => {
    const huge = fakeNode(MINT, { fault: () => new UpstreamError("answer-too-large", "over cap", { maxBytes: options.answerCapBytes }) });
    const scanner = new PoolScanner(options);
    const outcome = await scanner.scan(huge.rpc, MINT, owner());
    expect(outcome.status === "skipped" && outcome.reason).toMatch(/too many pools/);
    expect(await scanner.scan(huge.rpc, MINT, owner())).toEqual({ status: "scanned", pools: [], slot: 0 });
    expect(huge.calls).toHaveLength(scanCallsPerMint);
  });

  it(`caps scans per minute (${options.perMinute}): a flood of never-seen mints beyond it is answered at once, without upstream calls, with the reason`, async () => {
    let now = 5_000_000;
    const node = fakeNode(null);
    const scanner = new PoolScanner(options, () => now);
    const mints = Array.from({ length: 20 }, (_, i) => `Mint${String(i).padStart(2, "0")}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` as Address);
    const outcomes = [];
    for (const mint of mints) outcomes.push(await scanner.scan(node.rpc, mint, owner()));
    expect(outcomes.filter((o) => o.status === "scanned")).toHaveLength(options.perMinute);
    expect(outcomes.slice(options.perMinute).every((o) => o.status === "skipped" && /budget spent/.test(o.reason))).toBe(true);
    expect(node.calls).toHaveLength(options.perMinute * scanCallsPerMint);
    // a minute later the budget is back
    now += 60_000;
    expect((await scanner.scan(node.rpc, mints[19]!, owner())).status).toBe("scanned");
  });

  it(`caps scans in flight (${options.maxConcurrent}): a concurrent flood does not multiply upstream calls and does not wait`, async () => {
    let open!: () => void;
    const node = fakeNode(null, { gate: new Promise<void>((r) => (open = r)) });
    const scanner = new PoolScanner({ ...options, perMinute: 100 });
    const mints = Array.from({ length: 10 }, (_, i) => `Flood${i}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx` as Address);
    const pending = mints.map((m) => scanner.scan(node.rpc, m, owner()));
    const skipped = await Promise.all(pending.slice(options.maxConcurrent)); // settle before the gate opens: no waiting
    expect(skipped.every((o) => o.status === "skipped")).toBe(true);
    expect(node.calls).toHaveLength(options.maxConcurrent * scanCallsPerMint);
    open();
    expect((await Promise.all(pending.slice(0, options.maxConcurrent))).every((o) => o.status === "scanned")).toBe(true);
  });

  it("never scans a quote mint (every pool of a program would match)", async () => {
    const node = fakeNode(WSOL_MINT as Address);
    expect(await new PoolScanner(options).scan(node.rpc, WSOL_MINT as Address, owner())).toEqual({ status: "scanned", pools: [], slot: 0 });
    expect(node.calls).toHaveLength(0);
  });
});
