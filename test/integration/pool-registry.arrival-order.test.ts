/**
 * The registry's rows do not depend on the order blocks arrive in (pool-registry/registry-writes.ts against the real
 * D1): the index's queue consumers take slot ranges in any order and a first-ask scan may register a pool first, yet a
 * pool's row names its creation — its source and first slot — whenever the creation block comes (the safety checks
 * read `source = 'creation'` for a token's launch).
 */
import { address } from "@solana/kit";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { poolUpsertStatements, registerScannedPools, type RegistryBlock } from "../../src/pool-registry/registry-writes";

const MINT = "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN";
const WSOL = "So11111111111111111111111111111111111111112";
const related = { baseVault: address("11111111111111111111111111111111"), quoteVault: address("SysvarRent111111111111111111111111111111111") };

const swapIn = (pool: string, slot: number): RegistryBlock => ({ slot, pools: [{ address: address(pool), kind: "pumpswap", baseMint: address(MINT), quoteMint: address(WSOL), related }], events: [] });
const createdIn = (pool: string, slot: number, type: "create" | "migrate" = "create"): RegistryBlock => ({
  slot,
  pools: [],
  events: [{ pool, kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, related: {}, type }],
});

async function write(...blocks: RegistryBlock[]): Promise<void> {
  for (const b of blocks) await env.DB.batch(poolUpsertStatements(env.DB, [b]));
}

const row = (pool: string) => env.DB.prepare("SELECT source, first_slot, last_slot, related FROM pools WHERE address = ?").bind(pool).first();

describe("pool rows whatever order their blocks arrive in", () => {
  it("a creation written after a later block's swap: the row is the creation's, from its slot to the swap's", async () => {
    await write(swapIn("29d2S7vB453rNYFdR5Ycwt7y9haRT5fwVwL9zTmBhfV2", 200), createdIn("29d2S7vB453rNYFdR5Ycwt7y9haRT5fwVwL9zTmBhfV2", 150));
    expect(await row("29d2S7vB453rNYFdR5Ycwt7y9haRT5fwVwL9zTmBhfV2")).toEqual({ source: "creation", first_slot: 150, last_slot: 200, related: JSON.stringify(related) });
  });

  it("in slot order it is the same row", async () => {
    await write(createdIn("3JF3sEqM796hk5WFqA6EtmEwJQ9quALszsfJyvXNQKy3", 150), swapIn("3JF3sEqM796hk5WFqA6EtmEwJQ9quALszsfJyvXNQKy3", 200));
    expect(await row("3JF3sEqM796hk5WFqA6EtmEwJQ9quALszsfJyvXNQKy3")).toEqual({ source: "creation", first_slot: 150, last_slot: 200, related: JSON.stringify(related) });
  });

  it("a pool a first-ask scan registered becomes the creation once the index reads its creation block", async () => {
    await registerScannedPools(env.DB, [{ address: "4Ss5JMkXAD9Z7cktFEdrqeMuT6jGMF1pVozTyPHZ6zT4", kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, slot: 300 }]);
    await write(createdIn("4Ss5JMkXAD9Z7cktFEdrqeMuT6jGMF1pVozTyPHZ6zT4", 120));
    expect(await row("4Ss5JMkXAD9Z7cktFEdrqeMuT6jGMF1pVozTyPHZ6zT4")).toMatchObject({ source: "creation", first_slot: 120, last_slot: 300 });
  });

  it("a migration event outranks a swap, a creation outranks both, and a later swap changes neither", async () => {
    const pool = "5bV6jUfhDHCQVA1WfKBUnXUsboJgoKgkzkKcxr3joew5";
    await write(swapIn(pool, 90), createdIn(pool, 95, "migrate"));
    expect(await row(pool)).toMatchObject({ source: "migrate", first_slot: 90, last_slot: 95 });
    await write(createdIn(pool, 80), swapIn(pool, 99));
    expect(await row(pool)).toMatchObject({ source: "creation", first_slot: 80, last_slot: 99 });
  });

  it("a creation and the pool's swaps in later blocks of one stored page: the creation's row", async () => {
    // Given a migration's PumpSwap pool swapped two and five blocks later, all stored in one batch (one ingested page)
    const pool = "6MfRDJqEmBpnbFcJS1GRVkaFdp4fgJHfqzo3ZSRR8A8r";
    await env.DB.batch(poolUpsertStatements(env.DB, [createdIn(pool, 400, "create"), swapIn(pool, 402), swapIn(pool, 405)]));
    // Then the row is the creation, from its slot to the last swap's
    expect(await row(pool)).toEqual({ source: "creation", first_slot: 400, last_slot: 405, related: JSON.stringify(related) });
  });
});
