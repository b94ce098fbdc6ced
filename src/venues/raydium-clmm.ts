/**
 * Raydium CLMM (program CAMMCzo5…): spot price from the Q64.64 sqrt price; depth from the vaults net of
 * the protocol and fund fees they also hold. Layout: PoolState of raydium-clmm @03b44b7 (limit orders, dynamic fees;
 * raydium-sdk-V2 0.2.58-alpha): 1,544 B as before, fee_on and dynamic_fee_info taken from padding.
 */
import { getAddressDecoder, getBase16Encoder, getI32Decoder, getU128Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { RAYDIUM_CLMM_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, derivedQuoteMints, pairCandidates } from "./candidates";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { netOfFees, sqrtPriceX64Price } from "./pool-price";
import { raydiumConfigPools } from "./raydium-config-pools";
import { readVaultAmount } from "../solana/accounts/spl-token";
import type { PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses, SwappedPoolRoles, SwapReservesReader } from "./types";
import { accountsAt, instructionTag } from "./instruction-tag";
import { poolCreationsAt } from "./instruction-readers";
import { definePoolAdapter } from "./pool-adapter";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "raydium-clmm": true;
  }
}

export { RAYDIUM_CLMM_PROGRAM_ADDRESS };

export const RAYDIUM_CLMM_POOL_DISCRIMINATOR = getBase16Encoder().encode("f7ede3f5d7c3de46");
export const RAYDIUM_CLMM_POOL_SIZE = 1544;
/** Configs 0–4 and 8 are known to exist on mainnet; 5–7 are derived but unconfirmed. */
export const RAYDIUM_CLMM_CONFIG_INDICES: readonly number[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const SWAP_DISABLED_BIT = 1 << 4;

export interface RaydiumClmmPool {
  readonly mint0: Address;
  readonly mint1: Address;
  readonly vault0: Address;
  readonly vault1: Address;
  readonly mint0Decimals: number;
  readonly mint1Decimals: number;
  readonly liquidity: bigint;
  readonly sqrtPriceX64: bigint;
  readonly tickCurrent: number;
  readonly protocolFees0: bigint;
  readonly protocolFees1: bigint;
  /** bit4 set = swaps disabled */
  readonly status: number;
  readonly fundFees0: bigint;
  readonly fundFees1: bigint;
  /** swaps are accepted once the unix time is past it (swap.rs / swap_v2.rs: require_gt!(now, open_time)) */
  readonly openTime: bigint;
}

const poolDecoder = getFieldsDecoder({
  mint0: [73, getAddressDecoder()],
  mint1: [105, getAddressDecoder()],
  vault0: [137, getAddressDecoder()],
  vault1: [169, getAddressDecoder()],
  mint0Decimals: [233, getU8Decoder()],
  mint1Decimals: [234, getU8Decoder()],
  liquidity: [237, getU128Decoder()],
  sqrtPriceX64: [253, getU128Decoder()],
  tickCurrent: [269, getI32Decoder()],
  protocolFees0: [309, getU64Decoder()],
  protocolFees1: [317, getU64Decoder()],
  status: [389, getU8Decoder()],
  fundFees0: [1064, getU64Decoder()],
  fundFees1: [1072, getU64Decoder()],
  openTime: [1080, getU64Decoder()],
});

/** Decodes a CLMM PoolState (the "PoolState" discriminator is shared with CPMM and LaunchLab). */
export function decodeRaydiumClmmPool(account: AccountBytes): RaydiumClmmPool {
  assertAccountShape(account, {
    layout: "RaydiumClmmPool",
    owners: [RAYDIUM_CLMM_PROGRAM_ADDRESS],
    size: RAYDIUM_CLMM_POOL_SIZE,
    discriminator: RAYDIUM_CLMM_POOL_DISCRIMINATOR,
  });
  return poolDecoder.decode(account.data);
}

const seeds = raydiumConfigPools(RAYDIUM_CLMM_PROGRAM_ADDRESS);

/** AmmConfig PDA of an index: ["amm_config", index u16 BE] (memoised). */
export const findRaydiumClmmConfigAddress = seeds.findConfigAddress;

/** Pool PDA: ["pool", amm_config, mint0, mint1] with byte-sorted mints. */
export const findRaydiumClmmPoolAddress = seeds.findPoolAddress;

/** Pools of `mint` against each quote mint over the given configs. */
export function listRaydiumClmmPoolCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
  configIndices: readonly number[] = RAYDIUM_CLMM_CONFIG_INDICES,
): Promise<PoolCandidate[]> {
  return pairCandidates(
    "raydium-clmm",
    mint,
    quoteMints,
    configIndices.map((index) => async (quoteMint) => findRaydiumClmmPoolAddress(await findRaydiumClmmConfigAddress(index), mint, quoteMint)),
  );
}

type Related = "vault0" | "vault1";

/** The two vault token accounts (for depth; the price itself needs only the pool). */
export function requiredAccountsForRaydiumClmmPool(pool: RaydiumClmmPool): RelatedAddresses<Related> {
  return { vault0: pool.vault0, vault1: pool.vault1 };
}

/**
 * Price token1 per token0 = (sqrt_price_x64 / 2^64)^2, exact. Depth = vaults − protocol − fund fees
 * (unclaimed LP fees stay inside: they are not separable without reading every position).
 */
export function priceFromRaydiumClmmPool(pool: RaydiumClmmPool, related: RelatedAccounts<Related>): PoolPrice {
  const vault0 = readVaultAmount("RaydiumClmmPool", related.vault0, pool.mint0);
  const vault1 = readVaultAmount("RaydiumClmmPool", related.vault1, pool.mint1);
  return {
    kind: "raydium-clmm",
    baseMint: pool.mint0,
    quoteMint: pool.mint1,
    priceQuotePerBase: sqrtPriceX64Price("RaydiumClmmPool", pool.sqrtPriceX64, pool.mint0Decimals, pool.mint1Decimals),
    quoteLiquidity: netOfFees(vault1, pool.protocolFees1, pool.fundFees1),
    baseReserve: netOfFees(vault0, pool.protocolFees0, pool.fundFees0),
    tradable: (pool.status & SWAP_DISABLED_BIT) === 0,
    extra: {},
  };
}

export const raydiumClmmPoolAdapter = definePoolAdapter({
  kind: "raydium-clmm",
  candidates: (mint) => listRaydiumClmmPoolCandidates(mint, derivedQuoteMints(mint)),
  decode: decodeRaydiumClmmPool,
  required: requiredAccountsForRaydiumClmmPool,
  price: (state, _mint, related) => priceFromRaydiumClmmPool(state, related),
});

/** CLMM swap and swap_v2. Pools are derived against wSOL only (per config): the registry learns the others from swaps. */
const clmmSwap = "f8c69e91e17587c8";
const clmmSwapV2 = "2b04ed0b1ac91e62";
/** The pricer and the registry name the vaults (token0, token1) by these roles. */
const VAULT_ROLES = ["vault0", "vault1"] as const;
/**
 * The payer (0), pool and vaults of swap (pool 2, input/output vault 5/6; mints from the token balances) and swap_v2 (+ input/output
 * vault mint 11/12) (raydium-clmm amm_v3 0.1.0 IDL). Listed by direction; the pool orders its mints by bytes.
 * swap_router_base_in names its pools in remaining accounts and is not read.
 */
export const raydiumClmmSwapReserves: SwapReservesReader = (data, key, count) => {
  const tag = instructionTag(data);
  const v2 = tag === clmmSwapV2 && count >= 13;
  if (!v2 && !(tag === clmmSwap && count >= 10)) return undefined;
  const at = accountsAt(key, [2, 5, 6, 0]);
  if (!at) return undefined;
  const [pool, inputVault, outputVault, user] = at as [Address, Address, Address, Address];
  return {
    kind: "raydium-clmm",
    pool,
    reserves: [{ account: inputVault, mint: v2 ? key(11) : undefined }, { account: outputVault, mint: v2 ? key(12) : undefined }],
    order: "mint-bytes",
    user,
  };
};

/** A CLMM pool seen swapped is registered with its vaults in the pool's token0 / token1 order, which its pricer reads. */
export const raydiumClmmSwappedPool: SwappedPoolRoles = { reserveRoles: VAULT_ROLES };

/** create_pool: pool 2, token_mint_0/1 3/4, token_vault_0/1 5/6 → a created pool. */
export const raydiumClmmPoolLifecycle = poolCreationsAt("raydium-clmm", new Map([["e992d18ecf6840bc", [2, 3, 4, 5, 6]]]), VAULT_ROLES);

/**
 * Raydium CLMM: venue-b. Swaps need the unix time strictly past `open_time` (raydium-clmm @03b44b7 swap.rs, swap_v2.rs
 * `require_gt!(block_timestamp, open_time)`), so the first second they go through is open_time + 1. Vaults are owned by
 * the pool account itself (no program-wide authority).
 */
export const raydiumClmmVenue = defineVenue({
  kind: "raydium-clmm",
  dex: "raydium-clmm",
  venue: "venue-b",
  program: RAYDIUM_CLMM_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [],
  adapter: raydiumClmmPoolAdapter,
  instructions: { swapReserves: raydiumClmmSwapReserves, lifecycle: raydiumClmmPoolLifecycle, swappedPool: raydiumClmmSwappedPool },
  activation: (account) => ({ unit: "unix-time", opensAt: decodeRaydiumClmmPool(account).openTime + 1n }),
});
