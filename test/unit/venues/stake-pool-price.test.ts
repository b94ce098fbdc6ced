import { address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import {
  DEPEG_TYPE,
  depegStakeAccountAddress,
  lidoVirtualPrice,
  lstSolRate,
  marinadeVirtualPrice,
  STAKE_POOL_LSTS,
  splStakePoolVirtualPrice,
  stakePoolVirtualPrice,
} from "../../../src/venues/stake-pool-price";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { flipByte, loadAccountFixture, withData, withOwner } from "../../helpers/fixtures";

/** Marinade's State from the HcjZvfeS (mSOL/SOL) mainnet account set of damm-v1-sdk's dynamic-amm-quote tests. */
const marinadeState = loadAccountFixture("meteora-damm-v1/HcjZvfeS_pool_set/8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC.json");
const LIDO_PROGRAM = "CrX7kMhLC3cSsXJdT7JDgqrRVWGnUpX3gfEfxxU2NVLi";
const SPL_STAKE_POOL_PROGRAM = "SPoo1Ku8WFXoNDMHPsrGSTSG1Y47rzgn41SLUNakuHy";
const JITOSOL_MINT = "J1toso1uCk3RCmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn";
const STSOL_MINT = "7dHbWXmci3dT8UFYWYZweBLXgycu7Y3iL6trKn1Y7ARj";
const key = (a: string) => getAddressEncoder().encode(address(a));

/**
 * No Lido or SPL stake-pool account is among the shared mainnet fixtures, so these are built from the official layouts,
 * field by field (values are illustrative):
 * - Lido v1 (what the DAMM v1 program's offsets 73/81 were written for): lido_version u8 @0, manager @1, st_sol_mint @33,
 *   exchange_rate { computed_in_epoch u64 @65, st_sol_supply u64 @73, sol_balance u64 @81 }.
 * - Lido v2 (lidofinance/solido @81abead `program/src/state.rs` `struct Lido`): account_type u8 @0 (1 = Lido),
 *   lido_version @1, manager @2, st_sol_mint @34, exchange_rate { computed_in_epoch @66, st_sol_supply @74, sol_balance @82 }.
 */
function lidoState(version: 1 | 2, stSolSupply: bigint, solBalance: bigint, epoch = 580n): AccountBytes {
  const shift = version === 2 ? 1 : 0;
  const data = new Uint8Array(1_000); // the real account is larger (reward distribution, metrics, …); only the prefix is read
  const view = new DataView(data.buffer);
  if (version === 2) data[0] = 1; // AccountType::Lido
  data[shift] = version === 2 ? 1 : 0; // lido_version
  data.set(key(STSOL_MINT), 33 + shift);
  view.setBigUint64(65 + shift, epoch, true);
  view.setBigUint64(73 + shift, stSolSupply, true);
  view.setBigUint64(81 + shift, solBalance, true);
  return { owner: address(LIDO_PROGRAM), data };
}

/**
 * SPL stake-pool `StakePool` borsh (solana-program-library stake-pool `state.rs`, as dynamic-amm-sdk @b21e2efb
 * `ts-client/src/amm/types/index.ts` StakePoolLayout reads it): account_type u8 @0 (1 = StakePool), manager @1,
 * staker @33, stake_deposit_authority @65, stake_withdraw_bump_seed u8 @97, validator_list @98, reserve_stake @130,
 * pool_mint @162, manager_fee_account @194, token_program_id @226, total_lamports u64 @258, pool_token_supply u64 @266,
 * last_update_epoch u64 @274, then the fee fields (Option<…>, variable) the price does not need.
 */
function splStakePool(totalLamports: bigint, poolTokenSupply: bigint, owner = SPL_STAKE_POOL_PROGRAM): AccountBytes {
  const data = new Uint8Array(611);
  const view = new DataView(data.buffer);
  data[0] = 1;
  data.set(key(JITOSOL_MINT), 162);
  data.set(key("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"), 226);
  view.setBigUint64(258, totalLamports, true);
  view.setBigUint64(266, poolTokenSupply, true);
  view.setBigUint64(274, 700n, true);
  return { owner: address(owner), data };
}

describe("Marinade State → mSOL virtual price (real mainnet bytes)", () => {
  it("is msol_price × 10⁶ / 2³², floor — 1,198,483, the value the mSOL/SOL pool cached from it", () => {
    // Given the State's msol_price read straight from its bytes (u64 @512: discriminator + the IDL's fields)
    const msolPrice = new DataView(marinadeState.data.buffer, marinadeState.data.byteOffset).getBigUint64(512, true);
    // When the virtual price is computed
    const price = marinadeVirtualPrice(marinadeState);
    // Then it is the SDK's formula on that field, and the program's own cached value in pool HcjZvfeS
    expect(price).toBe((msolPrice * 1_000_000n) / 4_294_967_296n);
    expect(price).toBe(1_198_483n);
    expect(stakePoolVirtualPrice(DEPEG_TYPE.marinade, marinadeState)).toBe(price);
  });

  it("refuses another owner, a truncated State and another account type", () => {
    expect(() => marinadeVirtualPrice(withOwner(marinadeState, LIDO_PROGRAM))).toThrow(/MarinadeState: owner/);
    expect(() => marinadeVirtualPrice(withData(marinadeState, (d) => d.subarray(0, 519)))).toThrow(/MarinadeState: size/);
    expect(() => marinadeVirtualPrice(flipByte(marinadeState, 0))).toThrow(/MarinadeState: discriminator/);
  });
});

describe("Lido state → stSOL virtual price (bytes built from the official layouts)", () => {
  it("is sol_balance × 10⁶ / st_sol_supply, floor, at the program's offsets 73/81", () => {
    const state = lidoState(1, 1_963_604_090_792_835n, 2_010_312_053_965_162n);
    expect(lidoVirtualPrice(state)).toBe((2_010_312_053_965_162n * 1_000_000n) / 1_963_604_090_792_835n);
    expect(lidoVirtualPrice(state)).toBe(1_023_786n);
    expect(stakePoolVirtualPrice(DEPEG_TYPE.lido, state)).toBe(1_023_786n);
  });

  it("gives the same price on the v2 layout (fields one byte on: both read × 256, same ratio)", () => {
    for (const [supply, balance] of [
      [1_963_604_090_792_835n, 2_010_312_053_965_162n],
      [999_999_999n, 1_234_567_891n],
      [3n, 10n],
    ] as const) {
      expect(lidoVirtualPrice(lidoState(2, supply, balance))).toBe(lidoVirtualPrice(lidoState(1, supply, balance)));
    }
  });

  it("refuses another owner, a short account and a zero supply", () => {
    const state = lidoState(1, 1_000n, 1_100n);
    expect(() => lidoVirtualPrice(withOwner(state, SPL_STAKE_POOL_PROGRAM))).toThrow(/LidoState: owner/);
    expect(() => lidoVirtualPrice(withData(state, (d) => d.subarray(0, 88)))).toThrow(/LidoState: size/);
    expect(() => lidoVirtualPrice(lidoState(1, 0n, 1_100n))).toThrow(/LidoState: value: zero supply/);
  });
});

describe("SPL stake pool → LST virtual price (bytes built from the official layout)", () => {
  it("is total_lamports × 10⁶ / pool_token_supply, floor", () => {
    const pool = splStakePool(12_345_678_901_234_567n, 10_101_010_101_010_101n);
    expect(splStakePoolVirtualPrice(pool)).toBe((12_345_678_901_234_567n * 1_000_000n) / 10_101_010_101_010_101n);
    expect(splStakePoolVirtualPrice(pool)).toBe(1_222_222n);
    expect(stakePoolVirtualPrice(DEPEG_TYPE.splStake, pool)).toBe(1_222_222n);
  });

  it("accepts Sanctum's deployments of the program, and refuses other owners, other account types, short data", () => {
    expect(splStakePoolVirtualPrice(splStakePool(2n, 1n, "SPMBzsVUuoHA4Jm6KunbsotaahvVikZs1JyTW6iJvbn"))).toBe(2_000_000n);
    expect(splStakePoolVirtualPrice(splStakePool(2n, 1n, "SP12tWFxD9oJsVWNavTTBZvMbA6gkAmxtVgxdqvyvhY"))).toBe(2_000_000n);
    const pool = splStakePool(2n, 1n);
    expect(() => splStakePoolVirtualPrice(withOwner(pool, LIDO_PROGRAM))).toThrow(/SplStakePool: owner/);
    expect(() => splStakePoolVirtualPrice(withData(pool, (d) => ((d[0] = 2), d)))).toThrow(/SplStakePool: discriminator/); // ValidatorList
    expect(() => splStakePoolVirtualPrice(withData(pool, (d) => d.subarray(0, 273)))).toThrow(/SplStakePool: size/);
    expect(() => splStakePoolVirtualPrice(splStakePool(2n, 0n))).toThrow(/zero supply/);
  });

  it("refuses a price beyond u64 (the program's checked conversion fails there)", () => {
    expect(() => splStakePoolVirtualPrice(splStakePool(2n ** 64n - 1n, 1n))).toThrow(/overflows u64/);
  });
});

describe("which stake-pool account a depeg type reads", () => {
  it("fixed Marinade and Lido states, the pool's own stake field for SPL stake pools, none otherwise", () => {
    const stake = address("Jito4APyf642JPZPx3hGc6WWJ8zPKtRbRs4P815Awbb");
    expect(depegStakeAccountAddress(DEPEG_TYPE.marinade, stake)).toBe("8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC");
    expect(depegStakeAccountAddress(DEPEG_TYPE.lido, stake)).toBe("49Yi1TKkNyYjPAFdR9LBvoHcUjuPX4Df5T5yv39w2XTn");
    expect(depegStakeAccountAddress(DEPEG_TYPE.splStake, stake)).toBe(stake);
    expect(depegStakeAccountAddress(DEPEG_TYPE.none, stake)).toBeUndefined();
    expect(() => stakePoolVirtualPrice(DEPEG_TYPE.none, marinadeState)).toThrow(/no stake pool for depeg type 0/);
  });
});

describe("stake-pool LSTs as quote assets: SOL per LST from the stake pool's own account", () => {
  /** Jito's StakePool Jito4APy… (the JitoSOL pool), a mainnet capture from igneous-labs/S test fixtures. */
  const jitoPool = loadAccountFixture("spl-stake-pool/stake_pool_Jito4APy_jitosol.json");
  const JITOSOL = address("J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn");
  const MSOL = address("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So");
  const u64At = (d: Uint8Array, o: number) => new DataView(d.buffer, d.byteOffset).getBigUint64(o, true);

  it("JitoSOL is total_lamports / pool_token_supply of the real Jito stake pool, exactly", () => {
    // Given the real Jito stake pool account, which the table names for JitoSOL
    expect(STAKE_POOL_LSTS.get(JITOSOL)?.account).toBe(jitoPool.address);
    // When its rate is read
    const rate = lstSolRate(JITOSOL, jitoPool);
    // Then it is the two u64s at 258 and 266 of the StakePool layout, read here independently (≈1.0725 SOL per JitoSOL)
    const total = u64At(jitoPool.data, 258);
    const supply = u64At(jitoPool.data, 266);
    expect(total).toBe(6_639_028_734_407_647n);
    expect(supply).toBe(6_189_948_258_688_516n);
    expect(rate.num * supply).toBe(total * rate.den);
    expect(Number(rate.num) / Number(rate.den)).toBeCloseTo(1.07255, 5);
  });

  it("mSOL is msol_price / 2³² of the real Marinade State", () => {
    const rate = lstSolRate(MSOL, marinadeState);
    expect(rate.num * (1n << 32n)).toBe(u64At(marinadeState.data, 512) * rate.den);
    // the DAMM v1 virtual price of the same account is this rate × 10⁶, floored
    expect((rate.num * 1_000_000n) / rate.den).toBe(marinadeVirtualPrice(marinadeState));
  });

  it("refuses a stake pool of another mint, another owner, an empty pool and a mint the table does not know", () => {
    // A stake pool whose pool_mint (@162) is not the LST asked for: the table row would be wrong, so no rate
    expect(() => lstSolRate(address("bSo13r4TkiE4KumL71LsHTPpL2euBYLFx6h9HP3piy1"), jitoPool)).toThrow(/SplStakePool: mismatch: stake pool mints J1toso1u/);
    expect(() => lstSolRate(JITOSOL, withOwner(jitoPool, LIDO_PROGRAM))).toThrow(/SplStakePool: owner/);
    expect(() => lstSolRate(JITOSOL, withData(jitoPool, (d) => (d.fill(0, 266, 274), d)))).toThrow(/empty stake pool/);
    expect(() => lstSolRate(address(STSOL_MINT), jitoPool)).toThrow(/not a stake-pool token we read/);
  });
});
