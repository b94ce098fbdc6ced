/**
 * Raydium CPMM (cp-swap, program CPMMoo8L…): constant product on vault balances net of the protocol,
 * fund and creator fee buckets the program keeps in the same vaults. Layout: PoolState of raydium-cp-swap 0.2.0
 * @609780f (creator fees since b0b2a08), 637 B.
 */
import { address, getAddressDecoder, getBase16Encoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { RAYDIUM_CPMM_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, derivedQuoteMints, pairCandidates } from "./candidates";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { netOfFees, reservePrice } from "./pool-price";
import { raydiumConfigPools } from "./raydium-config-pools";
import { readVaultAmount } from "../solana/accounts/spl-token";
import type { PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses, SwappedPoolRoles } from "./types";
import { poolCreationsAt, swapReservesAt } from "./instruction-readers";
import { definePoolAdapter } from "./pool-adapter";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "raydium-cpmm": true;
  }
}

export { RAYDIUM_CPMM_PROGRAM_ADDRESS };

export const RAYDIUM_CPMM_POOL_DISCRIMINATOR = getBase16Encoder().encode("f7ede3f5d7c3de46");
export const RAYDIUM_CPMM_POOL_SIZE = 637;
/** Config indices 0–6 are derived and in use; fee rates of 1–6 and any index ≥ 7 are unconfirmed. */
export const RAYDIUM_CPMM_CONFIG_INDICES: readonly number[] = [0, 1, 2, 3, 4, 5, 6];
const MINT_0_OFFSET = 168;
const MINT_1_OFFSET = 200;
const SWAP_DISABLED_BIT = 1 << 2;

export interface RaydiumCpmmPool {
  readonly vault0: Address;
  readonly vault1: Address;
  readonly mint0: Address;
  readonly mint1: Address;
  /** bit set = disabled: bit0 deposit, bit1 withdraw, bit2 swap */
  readonly status: number;
  readonly mint0Decimals: number;
  readonly mint1Decimals: number;
  readonly protocolFees0: bigint;
  readonly protocolFees1: bigint;
  readonly fundFees0: bigint;
  readonly fundFees1: bigint;
  /** creator fees sit in former padding (zero on pools older than the creator-fee upgrade) */
  readonly creatorFees0: bigint;
  readonly creatorFees1: bigint;
  /** unix second from which swaps are accepted (swap_base_input/output refuse `now < open_time`) */
  readonly openTime: bigint;
}

const poolDecoder = getFieldsDecoder({
  vault0: [72, getAddressDecoder()],
  vault1: [104, getAddressDecoder()],
  mint0: [MINT_0_OFFSET, getAddressDecoder()],
  mint1: [MINT_1_OFFSET, getAddressDecoder()],
  status: [329, getU8Decoder()],
  mint0Decimals: [331, getU8Decoder()],
  mint1Decimals: [332, getU8Decoder()],
  protocolFees0: [341, getU64Decoder()],
  protocolFees1: [349, getU64Decoder()],
  fundFees0: [357, getU64Decoder()],
  fundFees1: [365, getU64Decoder()],
  creatorFees0: [397, getU64Decoder()],
  creatorFees1: [405, getU64Decoder()],
  openTime: [373, getU64Decoder()],
});

/** Decodes a CPMM PoolState (the "PoolState" discriminator is shared with CLMM and LaunchLab). */
export function decodeRaydiumCpmmPool(account: AccountBytes): RaydiumCpmmPool {
  assertAccountShape(account, {
    layout: "RaydiumCpmmPool",
    owners: [RAYDIUM_CPMM_PROGRAM_ADDRESS],
    size: RAYDIUM_CPMM_POOL_SIZE,
    discriminator: RAYDIUM_CPMM_POOL_DISCRIMINATOR,
  });
  return poolDecoder.decode(account.data);
}

const seeds = raydiumConfigPools(RAYDIUM_CPMM_PROGRAM_ADDRESS);

/** AmmConfig PDA of an index: ["amm_config", index u16 BE] (memoised). */
export const findRaydiumCpmmConfigAddress = seeds.findConfigAddress;

/** Pool PDA: ["pool", amm_config, mint0, mint1] with byte-sorted mints. */
export const findRaydiumCpmmPoolAddress = seeds.findPoolAddress;

/** PDA pools of `mint` against each quote mint over the given configs. */
export function listRaydiumCpmmPoolCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
  configIndices: readonly number[] = RAYDIUM_CPMM_CONFIG_INDICES,
): Promise<PoolCandidate[]> {
  return pairCandidates(
    "raydium-cpmm",
    mint,
    quoteMints,
    configIndices.map((index) => async (quoteMint) => findRaydiumCpmmPoolAddress(await findRaydiumCpmmConfigAddress(index), mint, quoteMint)),
  );
}

type Related = "vault0" | "vault1";

/** The two vault token accounts. */
export function requiredAccountsForRaydiumCpmmPool(pool: RaydiumCpmmPool): RelatedAddresses<Related> {
  return { vault0: pool.vault0, vault1: pool.vault1 };
}

/** Price token1 per token0 from vault balances minus protocol, fund and creator fees (`vault_amount_without_fee`). */
export function priceFromRaydiumCpmmPool(pool: RaydiumCpmmPool, related: RelatedAccounts<Related>): PoolPrice {
  const vault0 = readVaultAmount("RaydiumCpmmPool", related.vault0, pool.mint0);
  const vault1 = readVaultAmount("RaydiumCpmmPool", related.vault1, pool.mint1);
  const reserve0 = netOfFees(vault0, pool.protocolFees0, pool.fundFees0, pool.creatorFees0);
  const reserve1 = netOfFees(vault1, pool.protocolFees1, pool.fundFees1, pool.creatorFees1);
  return {
    kind: "raydium-cpmm",
    baseMint: pool.mint0,
    quoteMint: pool.mint1,
    priceQuotePerBase: reservePrice("RaydiumCpmmPool", reserve0, reserve1, pool.mint0Decimals, pool.mint1Decimals),
    quoteLiquidity: reserve1,
    baseReserve: reserve0,
    tradable: (pool.status & SWAP_DISABLED_BIT) === 0,
    extra: {},
  };
}

export const raydiumCpmmPoolAdapter = definePoolAdapter({
  kind: "raydium-cpmm",
  candidates: (mint) => listRaydiumCpmmPoolCandidates(mint, derivedQuoteMints(mint)),
  decode: decodeRaydiumCpmmPool,
  required: requiredAccountsForRaydiumCpmmPool,
  price: (state, _mint, related) => priceFromRaydiumCpmmPool(state, related),
});

/** The pricer and the registry name the vaults (token0, token1) by these roles. */
const VAULT_ROLES = ["vault0", "vault1"] as const;
/** CPMM swap_base_input / swap_base_output. */
const cpmmSwaps = new Set(["8fbe5adac41e33de", "37d96256a34ab4ad"]);
/**
 * The pool and vaults of swap_base_input / swap_base_output (raydium-cp-swap 0.2.0 IDL): payer 0, pool 3, input/output vault
 * 6/7, input/output mint 10/11. Listed by direction; the pool orders its mints by bytes (token0 < token1).
 */
export const raydiumCpmmSwapReserves = swapReservesAt("raydium-cpmm", cpmmSwaps, { pool: 3, vaults: [6, 7], mints: [10, 11], user: 0 }, "mint-bytes");

/** A CPMM pool seen swapped is registered with its vaults in the pool's token0 / token1 order, which its pricer reads. */
export const raydiumCpmmSwappedPool: SwappedPoolRoles = { reserveRoles: VAULT_ROLES };

/** initialize: pool 3, token_0/1 mint 4/5, token_0/1 vault 10/11 → a created pool. */
export const raydiumCpmmPoolLifecycle = poolCreationsAt("raydium-cpmm", new Map([["afaf6d1f0d989bed", [3, 4, 5, 10, 11]]]), VAULT_ROLES);

/** The program-wide authority PDA ["vault_and_lp_mint_auth_seed"]: owner of every pool's vaults. */
export const RAYDIUM_CPMM_AUTHORITY = address("GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL");

/** Raydium CPMM: venue-b. Swaps open at `open_time` (raydium-cp-swap @609780f swap_base_input.rs: refused while now < open_time). */
export const raydiumCpmmVenue = defineVenue({
  kind: "raydium-cpmm",
  dex: "raydium-cpmm",
  venue: "venue-b",
  program: RAYDIUM_CPMM_PROGRAM_ADDRESS,
  authorities: [RAYDIUM_CPMM_AUTHORITY],
  liquidityPrograms: [],
  adapter: raydiumCpmmPoolAdapter,
  instructions: { swapReserves: raydiumCpmmSwapReserves, lifecycle: raydiumCpmmPoolLifecycle, swappedPool: raydiumCpmmSwappedPool },
  activation: (account) => ({ unit: "unix-time", opensAt: decodeRaydiumCpmmPool(account).openTime }),
});
