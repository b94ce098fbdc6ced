/**
 * Meteora DAMM v2 (cp_amm, program cpamdpZC…): concentrated constant-product between sqrt_min and
 * sqrt_max, or compounding x·y=k (collect_fee_mode 2). Reserves follow from the pool account alone.
 * Layout: the `Pool` of cp_amm 0.2.1 (MeteoraAg/damm-v2 @a3d3827, damm-v2-sdk 1.4.3), 1,112 B since 0.1.0.
 */
import { address, getAddressDecoder, getBase16Encoder, getU128Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { METEORA_DAMM_V2_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, derivedQuoteMints, pairCandidates } from "./candidates";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda, memoizeByIndex, sortedMintBytes, u64Le } from "./pda";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { reservePrice, sqrtPriceX64Price } from "./pool-price";
import type { DecimalsOf, PoolCandidate, PoolPrice, SwappedPoolRoles } from "./types";
import { poolCreationsAt, swapReservesAt } from "./instruction-readers";
import { definePoolAdapter } from "./pool-adapter";
import { defineVenue, slotOrTimeActivation } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "meteora-damm-v2": true;
  }
}

export { METEORA_DAMM_V2_PROGRAM_ADDRESS };

export const METEORA_DAMM_V2_POOL_DISCRIMINATOR = getBase16Encoder().encode("f19a6d0411b16dbc");
export const METEORA_DAMM_V2_POOL_SIZE = 1112;
/** Configs DBC pools migrate to (FixedBps 25, 30, 100, 200, 400, 600, Customizable), from the DBC SDK. */
export const METEORA_DAMM_V2_DBC_MIGRATION_CONFIGS: readonly Address[] = [
  address("7F6dnUcRuyM2TwR8myT1dYypFXpPSxqwKNSFNkxyNESd"),
  address("2nHK1kju6XjphBLbNxpM5XRGFj7p9U8vvNzyZiha1z6k"),
  address("Hv8Lmzmnju6m7kcokVKvwqz7QPmdX9XfKjJsXz8RXcjp"),
  address("2c4cYd4reUYVRAB9kUUkrq55VPyy2FNQ3FDL4o12JXmq"),
  address("AkmQWebAwFvWk55wBoCr5D62C6VVDTzi84NJuD9H7cFD"),
  address("DbCRBj8McvPYHJG1ukj8RE15h2dCNUdTAESG49XpQ44u"),
  address("A8gMrEPJkacWkcb3DGwtJwTe16HktSEfvwtuDh2MCtck"),
];
/** Config indices with a pool or Config account on the fixtures (E8zRkDw3 → 52, TBuzuEMM → 38). */
export const METEORA_DAMM_V2_KNOWN_CONFIG_INDICES: readonly number[] = [38, 52];
const COMPOUNDING = 2;
/** layout_version 1 (cp_amm ≥ 0.2.0): token_a/b_amount track the reserves; 0: those bytes were never written */
const TRACKED_RESERVES_LAYOUT = 1;
const Q128 = 1n << 128n;

export interface MeteoraDammV2Pool {
  readonly tokenAMint: Address;
  readonly tokenBMint: Address;
  /** slot or unix second (activation type 0 / 1) from which swaps are accepted */
  readonly activationPoint: bigint;
  readonly activationType: number;
  readonly liquidity: bigint;
  readonly sqrtMinPrice: bigint;
  readonly sqrtMaxPrice: bigint;
  readonly sqrtPrice: bigint;
  /** 0 enabled */
  readonly poolStatus: number;
  /** 0 fees in both tokens, 1 only in B, 2 compounding (reserves tracked in token_a/b_amount) */
  readonly collectFeeMode: number;
  readonly tokenAAmount: bigint;
  readonly tokenBAmount: bigint;
  /** 0 pools older than cp_amm 0.2.0 (token_a/b_amount unset), 1 reserves tracked */
  readonly layoutVersion: number;
}

const poolDecoder = getFieldsDecoder({
  tokenAMint: [168, getAddressDecoder()],
  tokenBMint: [200, getAddressDecoder()],
  liquidity: [360, getU128Decoder()],
  sqrtMinPrice: [424, getU128Decoder()],
  sqrtMaxPrice: [440, getU128Decoder()],
  sqrtPrice: [456, getU128Decoder()],
  activationPoint: [472, getU64Decoder()],
  activationType: [480, getU8Decoder()],
  poolStatus: [481, getU8Decoder()],
  collectFeeMode: [484, getU8Decoder()],
  tokenAAmount: [680, getU64Decoder()],
  tokenBAmount: [688, getU64Decoder()],
  layoutVersion: [696, getU8Decoder()],
});

/**
 * Decodes a cp_amm Pool (the "Pool" discriminator is shared with PumpSwap and DAMM v1). A compounding pool
 * whose layout_version is not 1 is refused: its reserves would be untracked bytes (the program creates
 * compounding pools at layout 1 only).
 */
export function decodeMeteoraDammV2Pool(account: AccountBytes): MeteoraDammV2Pool {
  assertAccountShape(account, {
    layout: "MeteoraDammV2Pool",
    owners: [METEORA_DAMM_V2_PROGRAM_ADDRESS],
    size: METEORA_DAMM_V2_POOL_SIZE,
    discriminator: METEORA_DAMM_V2_POOL_DISCRIMINATOR,
  });
  const pool = poolDecoder.decode(account.data);
  if (pool.collectFeeMode === COMPOUNDING && pool.layoutVersion !== TRACKED_RESERVES_LAYOUT) {
    throw new AccountDecodeError("MeteoraDammV2Pool", "value", "compounding pool without tracked reserves");
  }
  return pool;
}

/** Config PDA of an index: ["config", index u64 LE] (memoised). */
export const findMeteoraDammV2ConfigAddress = memoizeByIndex((index) =>
  findPda(METEORA_DAMM_V2_PROGRAM_ADDRESS, ["config", u64Le(index)]),
);

/** Pool of a config: ["pool", config, max(a, b), min(a, b)] — the larger mint (bytes) first. */
export function findMeteoraDammV2PoolAddress(config: Address, mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DAMM_V2_PROGRAM_ADDRESS, ["pool", addressBytes(config), high, low]);
}

/** Customizable pool: ["cpool", max(a, b), min(a, b)]. */
export function findMeteoraDammV2CustomizablePoolAddress(mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DAMM_V2_PROGRAM_ADDRESS, ["cpool", high, low]);
}

/**
 * Pools of `mint` against each quote mint: customizable, the DBC migration configs, and config indices.
 * The indices in use are not published (SOL/USDC CGPxT5d1 is outside 0..2999): callers that enumerate
 * Config accounts (gPA on disc 9b0caae01efacc82) pass them instead of the known ones.
 */
export function listMeteoraDammV2PoolCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
  configIndices: readonly number[] = METEORA_DAMM_V2_KNOWN_CONFIG_INDICES,
): Promise<PoolCandidate[]> {
  return pairCandidates("meteora-damm-v2", mint, quoteMints, [
    (quoteMint) => findMeteoraDammV2CustomizablePoolAddress(mint, quoteMint),
    ...METEORA_DAMM_V2_DBC_MIGRATION_CONFIGS.map((config) => (quoteMint: Address) => findMeteoraDammV2PoolAddress(config, mint, quoteMint)),
    ...configIndices.map(
      (index) => async (quoteMint: Address) =>
        findMeteoraDammV2PoolAddress(await findMeteoraDammV2ConfigAddress(index), mint, quoteMint),
    ),
  ]);
}

/** ceil(n / d) for positive values, as the program rounds reserves up. */
function divCeil(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/**
 * Reserves backing swaps, as the program's `get_reserves_amount` computes them: compounding pools track
 * them; concentrated ones hold a = L·(√max − √P)/(√P·√max) and b = L·(√P − √min)/2^128 (rounded up).
 * Protocol fees and unclaimed position fees sit in the vaults on top of these, so no vault is read.
 */
export function meteoraDammV2Reserves(pool: MeteoraDammV2Pool): { a: bigint; b: bigint } {
  if (pool.collectFeeMode === COMPOUNDING) return { a: pool.tokenAAmount, b: pool.tokenBAmount };
  const { liquidity, sqrtPrice, sqrtMinPrice, sqrtMaxPrice } = pool;
  return {
    a: divCeil(liquidity * (sqrtMaxPrice - sqrtPrice), sqrtPrice * sqrtMaxPrice),
    b: divCeil(liquidity * (sqrtPrice - sqrtMinPrice), Q128),
  };
}

/**
 * Price B per A; needs no account besides the pool. Concentrated pools: (sqrt_price / 2^64)^2, exact.
 * Compounding pools trade x·y=k on token_b_amount / token_a_amount, exactly that ratio; their sqrt_price is
 * only a rounded-down cache of it, refreshed on swaps and not on deposits or withdrawals.
 */
export function priceFromMeteoraDammV2Pool(pool: MeteoraDammV2Pool, decimalsOf: DecimalsOf): PoolPrice {
  const reserves = meteoraDammV2Reserves(pool);
  const [baseDecimals, quoteDecimals] = [decimalsOf(pool.tokenAMint), decimalsOf(pool.tokenBMint)];
  return {
    kind: "meteora-damm-v2",
    baseMint: pool.tokenAMint,
    quoteMint: pool.tokenBMint,
    priceQuotePerBase:
      pool.collectFeeMode === COMPOUNDING
        ? reservePrice("MeteoraDammV2Pool", reserves.a, reserves.b, baseDecimals, quoteDecimals)
        : sqrtPriceX64Price("MeteoraDammV2Pool", pool.sqrtPrice, baseDecimals, quoteDecimals),
    quoteLiquidity: reserves.b,
    baseReserve: reserves.a,
    tradable: pool.poolStatus === 0,
    extra: {},
  };
}

/** Static config indices the price service derives: the low ones carry most launches, plus the indices seen on mainnet. */
export const METEORA_DAMM_V2_DERIVED_CONFIG_INDICES: readonly number[] = [0, 1, 2, 3, ...METEORA_DAMM_V2_KNOWN_CONFIG_INDICES];

export const meteoraDammV2PoolAdapter = definePoolAdapter({
  kind: "meteora-damm-v2",
  candidates: (mint) => listMeteoraDammV2PoolCandidates(mint, derivedQuoteMints(mint), METEORA_DAMM_V2_DERIVED_CONFIG_INDICES),
  decode: decodeMeteoraDammV2Pool,
  // Price and reserves come from the pool alone (sqrt price and liquidity).
  required: () => ({}),
  price: (state, _mint, _related, decimalsOf) => priceFromMeteoraDammV2Pool(state, decimalsOf),
});

/** The registry names the pool's vaults by these roles. */
const VAULT_ROLES = ["vaultA", "vaultB"] as const;
/** DAMM v2 swap / swap2. */
const dammV2Swaps = new Set(["f8c69e91e17587c8", "414b3f4ceb5b5b88"]);
/** The pool and vaults of swap / swap2 (cp_amm 0.2.0 IDL): pool 1, token_a/b vault 4/5, token_a/b mint 6/7, payer 8. */
export const meteoraDammV2SwapReserves = swapReservesAt("meteora-damm-v2", dammV2Swaps, { pool: 1, vaults: [4, 5], mints: [6, 7], user: 8 }, "given");

/**
 * A DAMM v2 pool seen swapped is registered with its two vaults, as its creation names them (its pricer reads the pool
 * alone; the registry keeps a pool's related accounts non-empty).
 */
export const meteoraDammV2SwappedPool: SwappedPoolRoles = { reserveRoles: VAULT_ROLES };

/** Pool initialisations (cp_amm 0.2.0 IDL) → positions of [pool, mint a, mint b, vault a, vault b]. */
const dammV2PoolCreations = new Map<string, number[]>([
  ["5fb40aac54aee828", [6, 8, 9, 10, 11]], // initialize_pool
  ["14a1f118bdddb402", [5, 7, 8, 9, 10]], // initialize_customizable_pool
  ["955248c5fdfc440f", [7, 9, 10, 11, 12]], // initialize_pool_with_dynamic_config
]);

/** A pool initialisation → a created pool. */
export const meteoraDammV2PoolLifecycle = poolCreationsAt("meteora-damm-v2", dammV2PoolCreations, VAULT_ROLES);

/** The program-wide authority PDA ["pool_authority"]: owner of every pool's vaults. */
export const METEORA_DAMM_V2_AUTHORITY = address("HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC");

/**
 * Meteora DAMM v2: venue-c. Swaps are refused while the current slot / unix time is below activation_point (damm-v2
 * @a3d3827 pool_action_access/permissionless.rs can_swap; the pool's whitelisted vault may buy earlier).
 */
export const meteoraDammV2Venue = defineVenue({
  kind: "meteora-damm-v2",
  dex: "meteora-damm-v2",
  venue: "venue-c",
  program: METEORA_DAMM_V2_PROGRAM_ADDRESS,
  authorities: [METEORA_DAMM_V2_AUTHORITY],
  liquidityPrograms: [],
  adapter: meteoraDammV2PoolAdapter,
  instructions: { swapReserves: meteoraDammV2SwapReserves, lifecycle: meteoraDammV2PoolLifecycle, swappedPool: meteoraDammV2SwappedPool },
  activation: (account) => {
    const pool = decodeMeteoraDammV2Pool(account);
    return slotOrTimeActivation(pool.activationType, pool.activationPoint);
  },
});
