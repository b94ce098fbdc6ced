import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { discoverPoolsInTransaction, type JsonTransaction } from "../../../src/pool-registry/swap-pools";

// Real mainnet transactions from ../shared/fixtures (read at test time, never copied into the project).
function fixture(path: string): JsonTransaction & { meta: { postTokenBalances: { accountIndex: number; mint: string }[] } } {
  const raw = JSON.parse(readFileSync(new URL(`../../../../shared/fixtures/transactions/${path}`, import.meta.url), "utf8"));
  return Array.isArray(raw) ? raw[0] : raw;
}

/** Independent check: a related vault's token balance entry names one of the pool's mints. */
function vaultMints(tx: ReturnType<typeof fixture>, vault: string): string[] {
  // Keys as the transaction resolves them: static, then address-table loaded (writable, readonly).
  const loaded = (tx.meta as { loadedAddresses?: { writable: string[]; readonly: string[] } }).loadedAddresses;
  const keys = [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const index = keys.indexOf(vault);
  return tx.meta.postTokenBalances.filter((b) => b.accountIndex === index).map((b) => b.mint);
}

const cases = [
  { file: "raydium-amm-v4/vixen_54MFrVcf_rpcjson.json", kind: "raydium-amm-v4", pool: "E2LhpiJdbHx6Fbz2zGAcbbrbMPkn88TpMHP4g236oBZi", vaults: ["coinVault", "pcVault"] },
  { file: "raydium-amm-v4/txparser_swap_0.json", kind: "raydium-amm-v4", pool: "9xNtkAhkGNG6fPazLe7ZFmmiJ5Mss37sBx9eoya33o4q", vaults: ["coinVault", "pcVault"] },
  { file: "raydium-amm-v4/txparser_swap_1.json", kind: "raydium-amm-v4", pool: "2mF8wbzawjPzDoCiGBqoinbaVxMJAwRm5wQ1dtgSLZdD", vaults: ["coinVault", "pcVault"] },
  { file: "pumpswap/vixen_4pCgZ28W_rpcjson.json", kind: "pumpswap", pool: "89aDWhVE39VYX8XCYT9PSNh7A7txWmkKLXZiSBs9D7ur", vaults: ["baseVault", "quoteVault"] },
  { file: "raydium-cpmm/vixen_4RoVbE9H_rpcjson.json", kind: "raydium-cpmm", pool: "HnrJu2mqgHKUhSmZRnwVPTPUW1GwCxbhggGmuF11oW8G", vaults: ["inVault", "outVault"] },
  { file: "raydium-clmm/vixen_vRYNRDqs_rpcjson.json", kind: "raydium-clmm", pool: "CYbD9RaToYMtWKA7QZyoLahnHdWq553Vm62Lh6qWtuxq", vaults: ["inputVault", "outputVault"] },
  { file: "raydium-clmm/vixen_nexzRp8Z_rpcjson.json", kind: "raydium-clmm", pool: "94KAY4LgDHjFggk4hL1QQZ4fMdfvQDsbdRk35iq1HJ9T", vaults: ["inputVault", "outputVault"] },
  { file: "meteora-dlmm/vixen_2DfsmTYv_rpcjson.json", kind: "meteora-dlmm", pool: "HTvjzsfX3yU6BUodCjZ5vZkUrAxMDTrBs3CJaq43ashR", vaults: ["reserveX", "reserveY"] },
  { file: "meteora-damm-v2/vixen_N2jtQtjj_rpcjson.json", kind: "meteora-damm-v2", pool: "CtNzfCHW6CPXD4d2C7K8PTJjUovK24UG8iJ1CEdGKH4J", vaults: ["vaultA", "vaultB"] },
] as const;

describe("pool discovery from swap instructions (real mainnet transactions)", () => {
  for (const c of cases) {
    it(`${c.kind}: ${c.file}`, () => {
      // Given a real swap transaction / When parsed
      const tx = fixture(c.file);
      const pools = discoverPoolsInTransaction(tx);
      // Then exactly the swapped pool is found, and its vaults hold the pool's two mints
      expect(pools.map((p) => p.address)).toEqual([c.pool]);
      const pool = pools[0]!;
      expect(pool.kind).toBe(c.kind);
      expect(pool.baseMint).not.toBe(pool.quoteMint);
      const held = c.vaults.flatMap((v) => vaultMints(tx, (pool.related as Record<string, string>)[v]!));
      expect(new Set(held)).toEqual(new Set([pool.baseMint, pool.quoteMint]));
    });
  }

  it("meteora-dbc: pool CQLuGpgx with config GydFpD4E (VENUES.md §11, ✔fx 23BXcBmn)", () => {
    const [pool] = discoverPoolsInTransaction(fixture("meteora-dbc/vixen_23BXcBmn_rpcjson.json"));
    expect(pool).toMatchObject({ kind: "meteora-dbc", address: "CQLuGpgxg5qmuw5BnHCG8zHquKn3jxXuVrgSLYGBk48t", related: { config: "GydFpD4ERr8kR3UA8VKH8getkcgmzLpfF1EFwgXENnN4" } });
    expect(pool!.quoteMint).toBe("So11111111111111111111111111111111111111112");
  });

  it("ignores failed transactions and unknown programs", () => {
    const tx = fixture("pumpswap/vixen_4pCgZ28W_rpcjson.json");
    expect(discoverPoolsInTransaction({ ...tx, meta: { ...tx.meta, err: { InstructionError: [0, "Custom"] } } })).toEqual([]);
    const generic = fixture("generic/carbon_core_simple_tx.json");
    expect(() => discoverPoolsInTransaction(generic)).not.toThrow();
  });
});
