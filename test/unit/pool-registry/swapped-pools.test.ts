/**
 * The pools the registry learns: what trade extraction reports as swapped, read by the same venue swap readers as the
 * trades, with the related accounts the kind's pricer reads. Real mainnet transactions from test/fixtures.
 */
import { describe, expect, it } from "vitest";
import { compareAddressBytes } from "../../../src/trades/instruction-data";
import type { JsonTransaction } from "../../../src/trades/json-transaction";
import { extractTrades } from "../../../src/trades/swap-extraction";
import { at, loadTransaction, resolvedKeys, WSOL } from "../trades/transaction-fixtures";

const poolsIn = (tx: JsonTransaction) => extractTrades(tx, at).pools;

/** Independent check: the mint the transaction's post token balances give a related vault. */
function vaultMint(tx: JsonTransaction, vault: string): string | undefined {
  const index = resolvedKeys(tx).indexOf(vault);
  return tx.meta!.postTokenBalances!.find((b) => b.accountIndex === index)?.mint;
}

const cases = [
  { file: "raydium-amm-v4/vixen_54MFrVcf_rpcjson.json", kind: "raydium-amm-v4", pool: "E2LhpiJdbHx6Fbz2zGAcbbrbMPkn88TpMHP4g236oBZi", vaults: ["coinVault", "pcVault"] },
  { file: "raydium-amm-v4/txparser_swap_0.json", kind: "raydium-amm-v4", pool: "9xNtkAhkGNG6fPazLe7ZFmmiJ5Mss37sBx9eoya33o4q", vaults: ["coinVault", "pcVault"] },
  { file: "raydium-amm-v4/txparser_swap_1.json", kind: "raydium-amm-v4", pool: "2mF8wbzawjPzDoCiGBqoinbaVxMJAwRm5wQ1dtgSLZdD", vaults: ["coinVault", "pcVault"] },
  { file: "pumpswap/vixen_4pCgZ28W_rpcjson.json", kind: "pumpswap", pool: "89aDWhVE39VYX8XCYT9PSNh7A7txWmkKLXZiSBs9D7ur", vaults: ["baseVault", "quoteVault"] },
  { file: "raydium-cpmm/vixen_4RoVbE9H_rpcjson.json", kind: "raydium-cpmm", pool: "HnrJu2mqgHKUhSmZRnwVPTPUW1GwCxbhggGmuF11oW8G", vaults: ["vault0", "vault1"] },
  { file: "raydium-clmm/vixen_vRYNRDqs_rpcjson.json", kind: "raydium-clmm", pool: "CYbD9RaToYMtWKA7QZyoLahnHdWq553Vm62Lh6qWtuxq", vaults: ["vault0", "vault1"] },
  { file: "raydium-clmm/vixen_nexzRp8Z_rpcjson.json", kind: "raydium-clmm", pool: "94KAY4LgDHjFggk4hL1QQZ4fMdfvQDsbdRk35iq1HJ9T", vaults: ["vault0", "vault1"] },
  { file: "meteora-dlmm/vixen_2DfsmTYv_rpcjson.json", kind: "meteora-dlmm", pool: "HTvjzsfX3yU6BUodCjZ5vZkUrAxMDTrBs3CJaq43ashR", vaults: ["reserveX", "reserveY"] },
  { file: "meteora-damm-v2/vixen_N2jtQtjj_rpcjson.json", kind: "meteora-damm-v2", pool: "CtNzfCHW6CPXD4d2C7K8PTJjUovK24UG8iJ1CEdGKH4J", vaults: ["vaultA", "vaultB"] },
] as const;

describe("pools learnt from swaps (real mainnet transactions)", () => {
  for (const c of cases) {
    it(`${c.kind}: ${c.file} gives the swapped pool, its vaults under the pricer's roles`, () => {
      // Given a real swap transaction / When its trades are extracted
      const tx = loadTransaction(c.file);
      const pools = poolsIn(tx);
      // Then exactly the swapped pool is found, and its related vaults (nothing else) hold the pool's two mints
      expect(pools.map((p) => p.address)).toEqual([c.pool]);
      const pool = pools[0]!;
      expect(pool.kind).toBe(c.kind);
      expect(pool.baseMint).not.toBe(pool.quoteMint);
      expect(Object.keys(pool.related).sort()).toEqual([...c.vaults].sort());
      const held = c.vaults.map((role) => vaultMint(tx, pool.related[role]!));
      expect(new Set(held)).toEqual(new Set([pool.baseMint, pool.quoteMint]));
      // And the registry's pool is the one the trade was read from
      expect(extractTrades(tx, at).swaps.some((s) => s.pool === c.pool && s.baseMint === pool.baseMint && s.quoteMint === pool.quoteMint)).toBe(true);
    });
  }

  it("raydium CPMM / CLMM: vault0 holds the pool's token0 (the smaller mint by bytes), whatever the swap's direction", () => {
    for (const file of ["raydium-cpmm/vixen_4RoVbE9H_rpcjson.json", "raydium-clmm/vixen_vRYNRDqs_rpcjson.json", "raydium-clmm/vixen_nexzRp8Z_rpcjson.json"]) {
      const tx = loadTransaction(file);
      const [pool] = poolsIn(tx);
      const mint0 = vaultMint(tx, pool!.related.vault0!)!;
      const mint1 = vaultMint(tx, pool!.related.vault1!)!;
      expect(compareAddressBytes(mint0, mint1), file).toBeLessThan(0);
    }
  });

  it("meteora-dbc: pool CQLuGpgx with config GydFpD4E (VENUES.md §11, ✔fx 23BXcBmn)", () => {
    const [pool, ...rest] = poolsIn(loadTransaction("meteora-dbc/vixen_23BXcBmn_rpcjson.json"));
    expect(rest).toEqual([]);
    expect(pool).toMatchObject({ kind: "meteora-dbc", address: "CQLuGpgxg5qmuw5BnHCG8zHquKn3jxXuVrgSLYGBk48t", related: { config: "GydFpD4ERr8kR3UA8VKH8getkcgmzLpfF1EFwgXENnN4" } });
    expect(pool!.quoteMint).toBe(WSOL);
  });

  it("pools derived from the mint alone (pump.fun curve, DAMM v1) are traded but not learnt", () => {
    for (const file of ["pumpfun/vixen_22K6ixTV_rpcjson.json", "meteora-damm-v1/vixen_2mHGPXMz_rpcjson.json"]) {
      const tx = loadTransaction(file);
      expect(extractTrades(tx, at).swaps.length, file).toBeGreaterThan(0);
      expect(poolsIn(tx), file).toEqual([]);
    }
  });

  it("ignores failed transactions and unknown programs", () => {
    const tx = loadTransaction("pumpswap/vixen_4pCgZ28W_rpcjson.json");
    expect(poolsIn({ ...tx, meta: { ...tx.meta!, err: { InstructionError: [0, "Custom"] } } })).toEqual([]);
    const generic = loadTransaction("generic/carbon_core_simple_tx.json");
    expect(poolsIn(generic)).toEqual([]);
  });
});
