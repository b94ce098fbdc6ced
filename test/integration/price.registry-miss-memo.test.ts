/**
 * The registry memo of pool-candidates.ts at its limits: a mint's registry rows are reused `limits.registryMemoMs`, but
 * a mint with none (a pool the chain tail is about to register as it reads the pool's first block) only
 * `limits.registryMissMemoMs`, so a client that asked before the registration still gets a price within the issue's
 * 5 s of the block. Real D1, registered by the chain tail's own statements (`poolUpsertStatements`).
 */
import type { Address } from "@solana/kit";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { registryCandidates } from "../../src/pricing/pool-candidates";
import { poolUpsertStatements } from "../../src/pool-registry/registry-writes";

const WSOL = "So11111111111111111111111111111111111111112";

/** A pool creation event as the tail reads it from a block, registering `pool` (raydium-amm-v4) for `mint`. */
async function register(mint: string, pool: string, slot: number): Promise<void> {
  const event = { slot, txIndex: 0, ordinal: 0, signature: "sig", type: "create" as const, pool, kind: "raydium-amm-v4" as const, baseMint: mint, quoteMint: WSOL, related: { baseVault: pool, quoteVault: pool } };
  await env.DB.batch(poolUpsertStatements(env.DB, [{ slot, events: [event], pools: [] }]));
}

describe("registry memo: hits kept registryMemoMs, misses registryMissMemoMs", () => {
  it(`a mint with no registered pool is asked again after ${limits.registryMissMemoMs} ms, not before; a registered one is kept ${limits.registryMemoMs} ms`, async () => {
    expect(limits.registryMissMemoMs).toBeLessThan(limits.registryMemoMs);
    // Given a mint the registry does not have yet, asked at t0 (a miss)
    const mint = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" as Address;
    const pool = "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2";
    const t0 = 1_000_000;
    expect((await registryCandidates(env.DB, [mint], t0)).get(mint)).toEqual([]);

    // When the chain tail registers its new pool right after
    await register(mint, pool, 100);

    // Then the miss is still reused 1 ms before registryMissMemoMs is up, and D1 is asked again at registryMissMemoMs
    expect((await registryCandidates(env.DB, [mint], t0 + limits.registryMissMemoMs - 1)).get(mint)).toEqual([]);
    const t1 = t0 + limits.registryMissMemoMs;
    expect((await registryCandidates(env.DB, [mint], t1)).get(mint)?.map((c) => c.pool)).toEqual([pool]);

    // and a hit is reused for registryMemoMs: a second pool registered now is seen only once that is up
    const second = "HWHvQhFmJB3NUcu1aihKmrKegfVxBEHzwVX6yZCKEsi1";
    await register(mint, second, 101);
    expect((await registryCandidates(env.DB, [mint], t1 + limits.registryMemoMs - 1)).get(mint)?.map((c) => c.pool)).toEqual([pool]);
    expect(new Set((await registryCandidates(env.DB, [mint], t1 + limits.registryMemoMs)).get(mint)?.map((c) => c.pool))).toEqual(new Set([pool, second]));
  });
});
