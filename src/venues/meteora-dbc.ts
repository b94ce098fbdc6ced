/**
 * Meteora Dynamic Bonding Curve (program dbcij3LW…). The VirtualPool tracks its own reserves and sqrt
 * price; its PoolConfig gives the quote mint, the base decimals and the graduation threshold. Configs
 * are arbitrary partner keys, so pools are found by scanning on base_mint, not derived from the mint.
 * Layout: dynamic_bonding_curve 0.1.10 (MeteoraAg/dynamic-bonding-curve @b4f9547, DBC SDK 1.5.7); the fields read
 * have not moved since 0.1.6, and the sizes (424 / 1048 B) never changed.
 */
import { address, getAddressDecoder, getBase16Encoder, getU128Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { ratio } from "../math/fixed-point";
import { METEORA_DBC_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda, sortedMintBytes } from "./pda";
import { sqrtPriceX64Price } from "./pool-price";
import type { DecimalsOf, PoolPrice, RelatedAccounts, RelatedAddresses, PoolLifecycleReader, SwappedPoolRoles } from "./types";
import { completionEventReader, swapReservesAt } from "./instruction-readers";
import { accountsAt, instructionTag } from "./instruction-tag";
import { definePoolAdapter, registryOnlyCandidates } from "./pool-adapter";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "meteora-dbc": true;
  }
}

export { METEORA_DBC_PROGRAM_ADDRESS };

export const METEORA_DBC_POOL_DISCRIMINATOR = getBase16Encoder().encode("d5e005d16245775c");
export const METEORA_DBC_POOL_SIZE = 424;
export const METEORA_DBC_CONFIG_DISCRIMINATOR = getBase16Encoder().encode("1a6c0e7b74e6812b");
export const METEORA_DBC_CONFIG_SIZE = 1048;
const BASE_MINT_OFFSET = 136;

export interface MeteoraDbcPool {
  readonly config: Address;
  readonly baseMint: Address;
  /** curve reserves; the fee buckets sit in the vaults on top of them */
  readonly baseReserve: bigint;
  readonly quoteReserve: bigint;
  readonly sqrtPrice: bigint;
  readonly isMigrated: boolean;
  /** 0 PreBondingCurve, 1 PostBondingCurve, 2 LockedVesting, 3 CreatedPool */
  readonly migrationProgress: number;
}

export interface MeteoraDbcConfig {
  readonly quoteMint: Address;
  /** 0 DAMM v1, 1 DAMM v2 */
  readonly migrationOption: number;
  /** decimals of every base mint created under this config */
  readonly tokenDecimal: number;
  readonly migrationQuoteThreshold: bigint;
}

const poolDecoder = getFieldsDecoder({
  config: [72, getAddressDecoder()],
  baseMint: [BASE_MINT_OFFSET, getAddressDecoder()],
  baseReserve: [232, getU64Decoder()],
  quoteReserve: [240, getU64Decoder()],
  sqrtPrice: [280, getU128Decoder()],
  isMigrated: [305, getU8Decoder()],
  migrationProgress: [308, getU8Decoder()],
});

const configDecoder = getFieldsDecoder({
  quoteMint: [8, getAddressDecoder()],
  migrationOption: [233, getU8Decoder()],
  tokenDecimal: [235, getU8Decoder()],
  migrationQuoteThreshold: [264, getU64Decoder()],
});

/** Decodes a VirtualPool. */
export function decodeMeteoraDbcPool(account: AccountBytes): MeteoraDbcPool {
  assertAccountShape(account, {
    layout: "MeteoraDbcPool",
    owners: [METEORA_DBC_PROGRAM_ADDRESS],
    size: METEORA_DBC_POOL_SIZE,
    discriminator: METEORA_DBC_POOL_DISCRIMINATOR,
  });
  const raw = poolDecoder.decode(account.data);
  return { ...raw, isMigrated: raw.isMigrated !== 0 };
}

/** Decodes a PoolConfig. */
export function decodeMeteoraDbcConfig(account: AccountBytes): MeteoraDbcConfig {
  assertAccountShape(account, {
    layout: "MeteoraDbcConfig",
    owners: [METEORA_DBC_PROGRAM_ADDRESS],
    size: METEORA_DBC_CONFIG_SIZE,
    discriminator: METEORA_DBC_CONFIG_DISCRIMINATOR,
  });
  return configDecoder.decode(account.data);
}

/** Pool of a known config: ["pool", config, max(base, quote), min(base, quote)]. */
export function findMeteoraDbcPoolAddress(config: Address, baseMint: Address, quoteMint: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(baseMint, quoteMint);
  return findPda(METEORA_DBC_PROGRAM_ADDRESS, ["pool", addressBytes(config), high, low]);
}

type Related = "config";

/** The pool's PoolConfig (quote mint, base decimals, threshold); the reserves are in the pool itself. */
export function requiredAccountsForMeteoraDbcPool(pool: MeteoraDbcPool): RelatedAddresses<Related> {
  return { config: pool.config };
}

/**
 * Price quote per base = (sqrt_price / 2^64)^2, exact. Liquidity = quote_reserve; the curve is complete
 * once quote_reserve reaches migration_quote_threshold (swaps stop until the pool migrates).
 */
export function priceFromMeteoraDbcPool(
  pool: MeteoraDbcPool,
  related: RelatedAccounts<Related>,
  decimalsOf: DecimalsOf,
): PoolPrice {
  const config = decodeMeteoraDbcConfig(related.config);
  const threshold = config.migrationQuoteThreshold;
  const complete = pool.quoteReserve >= threshold;
  return {
    kind: "meteora-dbc",
    baseMint: pool.baseMint,
    quoteMint: config.quoteMint,
    priceQuotePerBase: sqrtPriceX64Price("MeteoraDbcPool", pool.sqrtPrice, config.tokenDecimal, decimalsOf(config.quoteMint)),
    quoteLiquidity: pool.quoteReserve,
    baseReserve: pool.baseReserve,
    tradable: !complete,
    extra: {
      curveProgress: complete ? ratio(1n) : ratio(pool.quoteReserve, threshold),
      complete,
    },
  };
}

/** DBC configs are arbitrary partner keys: only the registry (and getProgramAccounts) finds these curves. */
export const meteoraDbcPoolAdapter = definePoolAdapter({
  kind: "meteora-dbc",
  candidates: registryOnlyCandidates,
  decode: decodeMeteoraDbcPool,
  required: requiredAccountsForMeteoraDbcPool,
  price: (state, _mint, related, decimalsOf) => priceFromMeteoraDbcPool(state, related, decimalsOf),
});

/** DBC swap / swap2. */
const dbcSwaps = new Set(["f8c69e91e17587c8", "414b3f4ceb5b5b88"]);
/** The pool and vaults of swap / swap2 (DBC IDL 0.1.6): config 1, pool 2, base/quote vault 5/6, base/quote mint 7/8, payer 9. */
export const meteoraDbcSwapReserves = swapReservesAt("meteora-dbc", dbcSwaps, { pool: 2, vaults: [5, 6], mints: [7, 8], user: 9 }, "given");

/** A DBC pool seen swapped is registered with its config (swap account 1), which its pricer reads. */
export const meteoraDbcSwappedPool: SwappedPoolRoles = {
  related: (key) => {
    const config = key(1);
    return config && { config };
  },
};

/**
 * DBC IDL 0.1.6: initialize_virtual_pool_with_spl_token / _with_token2022 (config 0, base/quote mint 3/4, pool 5) → a
 * created pool; migrate_meteora_damm (virtual_pool 0, damm pool 4, token a/b mint 7/8, a/b vault 9/10, a/b vault lp
 * 15/16) and migration_damm_v2 (virtual_pool 0, damm pool 4, base/quote mint 13/14, token a/b vault 15/16) → the curve
 * migrated and the DAMM pool it created (token a = the curve's base).
 */
export const meteoraDbcPoolLifecycle: PoolLifecycleReader = (data, key, count) => {
  const tag = instructionTag(data);
  if ((tag === "8c55d7b06636684f" || tag === "a976334e916edc9b") && count >= 6) {
    const at = accountsAt(key, [0, 3, 4, 5]);
    if (!at) return [];
    const [config, baseMint, quoteMint, pool] = at as [Address, Address, Address, Address];
    return [{ type: "create", kind: "meteora-dbc", pool, mints: [baseMint, quoteMint], related: { config } }];
  }
  if (tag === "1b013016b43f76d9" && count >= 17) {
    const at = accountsAt(key, [0, 2, 4, 7, 8, 9, 10, 15, 16]);
    if (!at) return [];
    const [virtualPool, config, pool, mintA, mintB, aVault, bVault, aVaultLp, bVaultLp] = at as [Address, Address, Address, Address, Address, Address, Address, Address, Address];
    const related: Record<string, Address> = { aVault, bVault, aVaultLp, bVaultLp };
    return [
      { type: "migrate", kind: "meteora-dbc", pool: virtualPool, mints: [mintA, mintB], related: { config } },
      { type: "create", kind: "meteora-damm-v1", pool, mints: [mintA, mintB], related },
    ];
  }
  if (tag === "9ca9e66735e45040" && count >= 17) {
    const at = accountsAt(key, [0, 2, 4, 13, 14, 15, 16]);
    if (!at) return [];
    const [virtualPool, config, pool, baseMint, quoteMint, vaultA, vaultB] = at as [Address, Address, Address, Address, Address, Address, Address];
    const related: Record<string, Address> = { vaultA, vaultB };
    return [
      { type: "migrate", kind: "meteora-dbc", pool: virtualPool, mints: [baseMint, quoteMint], related: { config } },
      { type: "create", kind: "meteora-damm-v2", pool, mints: [baseMint, quoteMint], related },
    ];
  }
  return [];
};

/**
 * EvtCurveComplete (dynamic_bonding_curve IDL 0.1.10, MeteoraAg/dynamic-bonding-curve-sdk @ce9afb7;
 * sha256("event:EvtCurveComplete")[0..8] = e5e756549c864b18): pool @16, config @48, base_reserve u64 @80,
 * quote_reserve u64 @88 — 96 B. The swap whose quote reserve reaches the config's migration threshold emits it: the
 * pool graduated (it awaits migration), with its config (what its pricer reads).
 */
export const meteoraDbcPoolGraduation = completionEventReader({
  kind: "meteora-dbc",
  discriminator: "e5e756549c864b18",
  minSize: 96,
  maxSize: 96,
  poolOffset: 16,
  related: (data) => ({ config: getAddressDecoder().decode(data, 48) }),
});

/** The program-wide authority PDA ["pool_authority"]: owner of every curve's vaults. */
export const METEORA_DBC_AUTHORITY = address("FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM");

/**
 * Meteora DBC: venue-c. Its activation_point only schedules fees (the fee scheduler's start), it does not gate swaps:
 * no activation rule.
 */
export const meteoraDbcVenue = defineVenue({
  kind: "meteora-dbc",
  dex: "meteora-dbc",
  venue: "venue-c",
  program: METEORA_DBC_PROGRAM_ADDRESS,
  authorities: [METEORA_DBC_AUTHORITY],
  liquidityPrograms: [],
  adapter: meteoraDbcPoolAdapter,
  instructions: { swapReserves: meteoraDbcSwapReserves, lifecycle: meteoraDbcPoolLifecycle, swappedPool: meteoraDbcSwappedPool, graduation: meteoraDbcPoolGraduation },
  activation: null,
});
