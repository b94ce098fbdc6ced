/**
 * The registry rows blocks give (pool-registry/registry-writes.ts): one per pool, a pool event naming the source, over
 * every block of the batch (the index stores a page of blocks at once).
 */
import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { poolUpsertRows, type RegistryBlock } from "../../../src/pool-registry/registry-writes";

const POOL = "9hD4Xf1dHTBCvZxZ4V2bE3CBC7uSLG8t6YqZ2nY4vAr1";
const MINT = "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN";
const WSOL = "So11111111111111111111111111111111111111112";
const swapped = { address: address(POOL), kind: "pumpswap" as const, baseMint: address(MINT), quoteMint: address(WSOL), related: { baseVault: address("11111111111111111111111111111111"), quoteVault: address("SysvarRent111111111111111111111111111111111") } };

describe("registry rows of a block", () => {
  it("a pool created and swapped in the same block is a creation, with the swap's related accounts when the event has none", () => {
    const block: RegistryBlock = { slot: 77, pools: [swapped], events: [{ pool: POOL, kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, related: {}, type: "create" }] };
    expect(poolUpsertRows([block])).toEqual([[POOL, "pumpswap", MINT, WSOL, JSON.stringify(swapped.related), "creation", 77, 77]]);
  });

  it("an event's own related accounts win; a pool only swapped is a swap", () => {
    const created: RegistryBlock = { slot: 5, pools: [swapped], events: [{ pool: POOL, kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, related: { baseVault: "x" }, type: "create" }] };
    expect(poolUpsertRows([created])[0]![4]).toBe(JSON.stringify({ baseVault: "x" }));
    expect(poolUpsertRows([{ slot: 6, pools: [swapped], events: [] }])).toEqual([[POOL, "pumpswap", MINT, WSOL, JSON.stringify(swapped.related), "swap", 6, 6]]);
  });

  it("a pool created in one block of a page and swapped in later ones is a creation, from the creation's slot to the last swap's", () => {
    // Given a PumpSwap pool a migration created in slot 100, then swapped in slots 101 and 103 of the same page
    const migrated: RegistryBlock = { slot: 100, pools: [], events: [{ pool: POOL, kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, related: { baseVault: "x" }, type: "create" }] };
    const swappedIn = (slot: number): RegistryBlock => ({ slot, pools: [swapped], events: [] });
    // Then one row: the creation, its first slot the migration's and its last the last swap's, in any block order
    const want = [[POOL, "pumpswap", MINT, WSOL, JSON.stringify(swapped.related), "creation", 100, 103]];
    expect(poolUpsertRows([migrated, swappedIn(101), swappedIn(103)])).toEqual(want);
    expect(poolUpsertRows([swappedIn(103), migrated, swappedIn(101)])).toEqual(want);
  });

  it("a migration or graduation event outranks a swap in a later block of the page; a creation outranks it", () => {
    const event = (slot: number, type: "create" | "migrate" | "graduate"): RegistryBlock => ({ slot, pools: [], events: [{ pool: POOL, kind: "pumpswap", baseMint: MINT, quoteMint: WSOL, related: {}, type }] });
    const swappedIn = (slot: number): RegistryBlock => ({ slot, pools: [swapped], events: [] });
    expect(poolUpsertRows([swappedIn(8), event(9, "graduate"), swappedIn(10)])[0]!.slice(5)).toEqual(["graduate", 8, 10]);
    expect(poolUpsertRows([event(9, "migrate"), event(11, "create"), swappedIn(12)])[0]!.slice(5)).toEqual(["creation", 9, 12]);
  });
});
