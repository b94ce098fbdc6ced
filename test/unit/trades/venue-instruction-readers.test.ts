/**
 * The venues' swap-reserve and pool-lifecycle readers against the programs' official IDLs: each instruction is built
 * from the IDL's facts (discriminator or tag, accounts by the IDL's own names, in the IDL's order), so every account
 * position the readers use is checked against the IDL rather than against our own reading of it. The facts live in
 * test/fixtures/program-facts/<idl>.facts.json, each naming the IDL (program, version, repository, path, commit) they
 * were read from.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../helpers/fixtures";
import { venueInstructionReaders } from "../../../src/trades/pool-legs";
import type { Address } from "@solana/kit";
import { WSOL } from "./transaction-fixtures";

/** One instruction of an IDL: an Anchor discriminator, or (Shank) its tag = its index in the IDL's instruction list. */
interface IdlInstruction {
  name: string;
  discriminator?: number[];
  tag?: number;
  accounts: string[];
}

const idls = new Map<string, IdlInstruction[]>();
function idlInstruction(file: string, name: string): IdlInstruction {
  if (!idls.has(file)) {
    const facts = JSON.parse(readFileSync(fixturePath(`program-facts/${file.replace(/\.json$/, ".facts.json")}`), "utf8")) as { instructions: IdlInstruction[] };
    idls.set(file, facts.instructions);
  }
  const found = idls.get(file)!.find((i) => i.name === name);
  if (!found) throw new Error(`${file}: no instruction ${name}`);
  return found;
}

const PROGRAMS: Record<string, string> = {
  "pump.json": "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P",
  "pump_amm.json": "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA",
  "raydium_amm_v4.json": "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8",
  "raydium_cpmm.json": "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
  "raydium_clmm.json": "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK",
  "meteora_dlmm.json": "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo",
  "meteora_damm_v1_dynamic_amm.json": "Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB",
  "meteora_damm_v2_cp_amm.json": "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG",
  "meteora_dbc_dynamic_bonding_curve_0.1.6.json": "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN",
};

const KINDS: Record<string, string> = {
  "pump.json": "pump-bonding-curve",
  "pump_amm.json": "pumpswap",
  "raydium_amm_v4.json": "raydium-amm-v4",
  "raydium_cpmm.json": "raydium-cpmm",
  "raydium_clmm.json": "raydium-clmm",
  "meteora_dlmm.json": "meteora-dlmm",
  "meteora_damm_v1_dynamic_amm.json": "meteora-damm-v1",
  "meteora_damm_v2_cp_amm.json": "meteora-damm-v2",
  "meteora_dbc_dynamic_bonding_curve_0.1.6.json": "meteora-dbc",
};

/** The instruction's data (Anchor discriminator, or the AMM v4 tag = its index in the IDL) padded with zero args. */
function instructionData(file: string, ix: IdlInstruction): Uint8Array {
  const data = new Uint8Array(64);
  if (ix.discriminator) data.set(ix.discriminator);
  else if (ix.tag !== undefined) data[0] = ix.tag;
  else throw new Error(`${file} ${ix.name}: neither discriminator nor tag`);
  return data;
}

/** Reads `name` of the IDL with the venue's readers; accounts are their IDL names (`rename` swaps some for real keys). */
function read(file: string, name: string, rename: Record<string, string> = {}, drop: string[] = []) {
  const ix = idlInstruction(file, name);
  const names = ix.accounts.filter((n) => !drop.includes(n)).map((n) => rename[n] ?? n);
  const readers = venueInstructionReaders.get(PROGRAMS[file]!)!;
  const key = (p: number) => names[p] as Address | undefined;
  const data = instructionData(file, ix);
  return { swap: readers.swapReserves(data, key, names.length), events: readers.lifecycle(data, key, names.length) };
}

const token = (account: string, mint?: string) => ({ account, mint });

describe("swap readers name the pool, reserves and user the IDL names", () => {
  const swaps: (readonly [file: string, ix: string, pool: string, reserves: readonly unknown[], order: string, user: string])[] = [
    ...["buy", "sell", "buy_exact_sol_in"].map(
      (ix) => ["pump.json", ix, "bonding_curve", [token("associated_bonding_curve", "mint"), { account: "bonding_curve", mint: WSOL, lamports: true }], "given", "user"] as const,
    ),
    ...["buy_v2", "sell_v2", "buy_exact_quote_in_v2"].map(
      (ix) =>
        ["pump.json", ix, "bonding_curve", [token("associated_base_bonding_curve", "base_mint"), token("associated_quote_bonding_curve", "quote_mint")], "given", "user"] as const,
    ),
    ...["buy", "sell", "buy_exact_quote_in"].map(
      (ix) => ["pump_amm.json", ix, "pool", [token("pool_base_token_account", "base_mint"), token("pool_quote_token_account", "quote_mint")], "given", "user"] as const,
    ),
    ...["swapBaseIn", "swapBaseOut"].map(
      (ix) => ["raydium_amm_v4.json", ix, "amm", [token("poolCoinTokenAccount"), token("poolPcTokenAccount")], "given", "userSourceOwner"] as const,
    ),
    ...["swap_base_input", "swap_base_output"].map(
      (ix) => ["raydium_cpmm.json", ix, "pool_state", [token("input_vault", "input_token_mint"), token("output_vault", "output_token_mint")], "mint-bytes", "payer"] as const,
    ),
    ["raydium_clmm.json", "swap", "pool_state", [token("input_vault"), token("output_vault")], "mint-bytes", "payer"],
    ["raydium_clmm.json", "swap_v2", "pool_state", [token("input_vault", "input_vault_mint"), token("output_vault", "output_vault_mint")], "mint-bytes", "payer"],
    ...["swap", "swap2", "swap_exact_out", "swap_exact_out2", "swap_with_price_impact", "swap_with_price_impact2"].map(
      (ix) => ["meteora_dlmm.json", ix, "lb_pair", [token("reserve_x", "token_x_mint"), token("reserve_y", "token_y_mint")], "given", "user"] as const,
    ),
    ["meteora_damm_v1_dynamic_amm.json", "swap", "pool", [token("a_token_vault"), token("b_token_vault")], "given", "user"],
    ...["swap", "swap2"].map(
      (ix) => ["meteora_damm_v2_cp_amm.json", ix, "pool", [token("token_a_vault", "token_a_mint"), token("token_b_vault", "token_b_mint")], "given", "payer"] as const,
    ),
    ...["swap", "swap2"].map(
      (ix) => ["meteora_dbc_dynamic_bonding_curve_0.1.6.json", ix, "pool", [token("base_vault", "base_mint"), token("quote_vault", "quote_mint")], "given", "payer"] as const,
    ),
  ];
  for (const [file, ix, pool, reserves, order, user] of swaps) {
    it(`${file} ${ix}: pool ${pool}, reserves and user ${user} by the IDL's names`, () => {
      const { swap, events } = read(file, ix);
      expect(swap).toEqual({ kind: KINDS[file], pool, reserves, order, user });
      expect(events).toEqual([]);
    });
  }

  it("raydium AMM v4 swap with 17 accounts (no target_orders): the vaults one position earlier", () => {
    const { swap } = read("raydium_amm_v4.json", "swapBaseIn", {}, ["ammTargetOrders"]);
    expect(swap?.reserves).toEqual([token("poolCoinTokenAccount"), token("poolPcTokenAccount")]);
    expect(swap?.user).toBe("userSourceOwner");
  });

  it("pump buy_v2 on a SOL-paired curve: the quote reserve is the curve's lamports (native SOL moves, BUY.md)", () => {
    const { swap } = read("pump.json", "buy_v2", { quote_mint: WSOL });
    expect(swap?.reserves[1]).toEqual({ account: "bonding_curve", mint: WSOL, lamports: true });
  });

  it("an instruction with too few accounts is not read as a swap", () => {
    const { swap } = read("meteora_dbc_dynamic_bonding_curve_0.1.6.json", "swap", {}, ["base_vault", "quote_vault", "base_mint", "quote_mint", "payer", "token_base_program", "token_quote_program", "referral_token_account", "event_authority", "program"]);
    expect(swap).toBeUndefined();
  });
});

describe("lifecycle readers: pool creations and migrations by the IDL's names", () => {
  const create = (kind: string, pool: string, mints: string[], related: Record<string, string>) => ({ type: "create", kind, pool, mints, related });
  const cases: [file: string, ix: string, expected: unknown[]][] = [
    ["pump.json", "create", [create("pump-bonding-curve", "bonding_curve", ["mint", WSOL], { global: "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" })]],
    ["pump.json", "create_v2", [create("pump-bonding-curve", "bonding_curve", ["mint", WSOL], { global: "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" })]],
    [
      "pump.json",
      "migrate",
      [
        { type: "migrate", kind: "pump-bonding-curve", pool: "bonding_curve", mints: ["mint", "wsol_mint"], related: { global: "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" } },
        create("pumpswap", "pool", ["mint", "wsol_mint"], { baseVault: "pool_base_token_account", quoteVault: "pool_quote_token_account" }),
      ],
    ],
    [
      "pump.json",
      "migrate_v2",
      [
        { type: "migrate", kind: "pump-bonding-curve", pool: "bonding_curve", mints: ["base_mint", "quote_mint"], related: { global: "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf" } },
        create("pumpswap", "pool", ["base_mint", "quote_mint"], { baseVault: "pool_base_token_account", quoteVault: "pool_quote_token_account" }),
      ],
    ],
    ["pump_amm.json", "create_pool", [create("pumpswap", "pool", ["base_mint", "quote_mint"], { baseVault: "pool_base_token_account", quoteVault: "pool_quote_token_account" })]],
    ["raydium_amm_v4.json", "initialize2", [create("raydium-amm-v4", "amm", ["coinMint", "pcMint"], { coinVault: "poolCoinTokenAccount", pcVault: "poolPcTokenAccount" })]],
    ["raydium_cpmm.json", "initialize", [create("raydium-cpmm", "pool_state", ["token_0_mint", "token_1_mint"], { vault0: "token_0_vault", vault1: "token_1_vault" })]],
    ["raydium_clmm.json", "create_pool", [create("raydium-clmm", "pool_state", ["token_mint_0", "token_mint_1"], { vault0: "token_vault_0", vault1: "token_vault_1" })]],
    ...[
      "initialize_lb_pair",
      "initialize_lb_pair2",
      "initialize_customizable_permissionless_lb_pair",
      "initialize_customizable_permissionless_lb_pair2",
      "initialize_permission_lb_pair",
    ].map((ix) => ["meteora_dlmm.json", ix, [create("meteora-dlmm", "lb_pair", ["token_mint_x", "token_mint_y"], { reserveX: "reserve_x", reserveY: "reserve_y" })]] as [string, string, unknown[]]),
    ...[
      "initialize_permissioned_pool",
      "initialize_permissionless_pool",
      "initialize_permissionless_pool_with_fee_tier",
      "initialize_permissionless_constant_product_pool_with_config",
      "initialize_permissionless_constant_product_pool_with_config2",
      "initialize_customizable_permissionless_constant_product_pool",
    ].map(
      (ix) =>
        [
          "meteora_damm_v1_dynamic_amm.json",
          ix,
          [create("meteora-damm-v1", "pool", ["token_a_mint", "token_b_mint"], { aVault: "a_vault", bVault: "b_vault", aVaultLp: "a_vault_lp", bVaultLp: "b_vault_lp" })],
        ] as [string, string, unknown[]],
    ),
    ...["initialize_pool", "initialize_customizable_pool", "initialize_pool_with_dynamic_config"].map(
      (ix) =>
        ["meteora_damm_v2_cp_amm.json", ix, [create("meteora-damm-v2", "pool", ["token_a_mint", "token_b_mint"], { vaultA: "token_a_vault", vaultB: "token_b_vault" })]] as [
          string,
          string,
          unknown[],
        ],
    ),
    ...["initialize_virtual_pool_with_spl_token", "initialize_virtual_pool_with_token2022"].map(
      (ix) => ["meteora_dbc_dynamic_bonding_curve_0.1.6.json", ix, [create("meteora-dbc", "pool", ["base_mint", "quote_mint"], { config: "config" })]] as [string, string, unknown[]],
    ),
    [
      "meteora_dbc_dynamic_bonding_curve_0.1.6.json",
      "migrate_meteora_damm",
      [
        { type: "migrate", kind: "meteora-dbc", pool: "virtual_pool", mints: ["token_a_mint", "token_b_mint"], related: { config: "config" } },
        create("meteora-damm-v1", "pool", ["token_a_mint", "token_b_mint"], { aVault: "a_vault", bVault: "b_vault", aVaultLp: "a_vault_lp", bVaultLp: "b_vault_lp" }),
      ],
    ],
    [
      "meteora_dbc_dynamic_bonding_curve_0.1.6.json",
      "migration_damm_v2",
      [
        { type: "migrate", kind: "meteora-dbc", pool: "virtual_pool", mints: ["base_mint", "quote_mint"], related: { config: "config" } },
        create("meteora-damm-v2", "pool", ["base_mint", "quote_mint"], { vaultA: "token_a_vault", vaultB: "token_b_vault" }),
      ],
    ],
  ];
  for (const [file, ix, expected] of cases) {
    it(`${file} ${ix}`, () => {
      const { swap, events } = read(file, ix);
      expect(swap).toBeUndefined();
      expect(events).toEqual(expected);
    });
  }
});
