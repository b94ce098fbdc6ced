/**
 * Raydium LaunchLab (raydium_launchpad, program LanMV9sA…): the launchpad behind bonk.fun and other sites. A pool sells
 * its base token on a bonding curve (constant product, fixed price or linear, set by its GlobalConfig) against a quote
 * mint (wSOL or another quote the config names) until `real_quote` reaches `total_quote_fund_raising`; it then waits for
 * migration (status 1) to Raydium AMM v4 (migrate_type 0) or CPMM (1) and is done (status 2). Swaps need status 0.
 *
 * Layouts: `PoolState` (429 B), `GlobalConfig` (371 B) and `PlatformConfig` (940 B + its curve-parameter vector) of
 * raydium-io/raydium-cpi @62606b0 `programs/launch-cpi/src/states.rs` (2025-08-28), the same as raydium-sdk-V2
 * 0.2.58-alpha @124c625 (2026-07-02) `src/raydium/launchpad/layout.ts` (`LaunchpadPool`, `LaunchpadConfig`,
 * `PlatformConfig`); curve prices of that SDK's `curve/*.ts` `getPoolPrice`. Instruction accounts of raydium-cpi's
 * `context.rs`, discriminators and events of the raydium_launchpad 0.2.0 IDL (the official repository ships no IDL; a
 * third-party copy, andi-nugroho/raydium-cpi @b5dda28, agrees with raydium-cpi on every position read here). The facts
 * the tests check live in test/fixtures/program-facts/raydium_launchlab.facts.json.
 */
import { address, getAddressDecoder, getBase16Encoder, getU16Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { ratio, type Ratio } from "../math/fixed-point";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { base58Bytes } from "../solana/base58";
import { RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS } from "../solana/well-known";
import { anchorEventPrefix, isAnchorEvent } from "./anchor-event";
import { derivedQuoteMints } from "./candidates";
import { accountsAt, instructionTag } from "./instruction-tag";
import { addressBytes, findPda } from "./pda";
import { toHumanPrice } from "./pool-price";
import type { RelatedAccounts, RelatedAddresses } from "./types";
import {
  compareAddressBytes,
  defineUnlistedPoolAdapter,
  type VenuePoolCandidate,
  type VenuePoolLifecycle,
  type VenuePoolPrice,
  type VenueSwapReserves,
  type WithKind,
} from "./unlisted-kind";
import type { PoolLifecycle } from "./types";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "raydium-launchlab": true;
  }
}

export const RAYDIUM_LAUNCHLAB_KIND = "raydium-launchlab" as const;
export type RaydiumLaunchLabKind = typeof RAYDIUM_LAUNCHLAB_KIND;

export { RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS };
/** PDA ["vault_auth_seed"]: owns every pool's base and quote vaults (the liquidity owner of the venue). */
export const RAYDIUM_LAUNCHLAB_AUTHORITY_ADDRESS = address("WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh");
/** Raydium's own platform (raydium-sdk-V2 `src/common/programId.ts` LAUNCHPAD_PLATFORM). */
export const RAYDIUM_LAUNCHLAB_DEFAULT_PLATFORM_ADDRESS = address("4Bu96XjU84XjPDSpveTVf6LYGCkfW5FK7SNkREWcEfV4");

/** sha256("account:PoolState")[0..8]: shared with Raydium CPMM and CLMM, so the owner tells them apart. */
export const RAYDIUM_LAUNCHLAB_POOL_DISCRIMINATOR = getBase16Encoder().encode("f7ede3f5d7c3de46");
export const RAYDIUM_LAUNCHLAB_POOL_SIZE = 429;
/** sha256("account:GlobalConfig")[0..8]: shared with PumpSwap's GlobalConfig. */
export const RAYDIUM_LAUNCHLAB_GLOBAL_CONFIG_DISCRIMINATOR = getBase16Encoder().encode("95089ccaa0fcb0d9");
export const RAYDIUM_LAUNCHLAB_GLOBAL_CONFIG_SIZE = 371;
export const RAYDIUM_LAUNCHLAB_PLATFORM_CONFIG_DISCRIMINATOR = getBase16Encoder().encode("a04e8000f853e6a0");
/** PlatformConfig without its curve-parameter vector (the vector's u32 length is its last 4 bytes). */
export const RAYDIUM_LAUNCHLAB_PLATFORM_CONFIG_MIN_SIZE = 944;
/** Offsets a getProgramAccounts scan filters on (memcmp): the pool's base and quote mints. */
export const RAYDIUM_LAUNCHLAB_BASE_MINT_OFFSET = 205;
export const RAYDIUM_LAUNCHLAB_QUOTE_MINT_OFFSET = 237;

/** GlobalConfig `curve_type`. */
export const LAUNCHLAB_CURVE_TYPES = ["constant-product", "fixed-price", "linear-price"] as const;
export type LaunchLabCurveType = (typeof LAUNCHLAB_CURVE_TYPES)[number];

/** PoolState `status`: 0 Fund (swaps), 1 Migrate (fund raising done, awaiting migration), 2 Trade (migrated). */
export const LAUNCHLAB_POOL_STATUSES = ["trading", "awaiting-migration", "migrated"] as const;
export type LaunchLabPoolStatus = (typeof LAUNCHLAB_POOL_STATUSES)[number];

/** Fee rates are in millionths (FEE_RATE_DENOMINATOR_VALUE = 1,000,000). */
export const LAUNCHLAB_FEE_RATE_DENOMINATOR = 1_000_000n;
const Q64 = 1n << 64n;

export interface RaydiumLaunchLabPool {
  readonly epoch: bigint;
  readonly status: number;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
  /** 0 → Raydium AMM v4, 1 → CPMM */
  readonly migrateType: number;
  readonly supply: bigint;
  readonly totalBaseSell: bigint;
  /** constant product: virtual reserves; fixed: initial price quote/base; linear: `virtual_base` is the slope a (Q64) */
  readonly virtualBase: bigint;
  readonly virtualQuote: bigint;
  /** base sold so far and quote raised so far */
  readonly realBase: bigint;
  readonly realQuote: bigint;
  readonly totalQuoteFundRaising: bigint;
  readonly quoteProtocolFee: bigint;
  readonly platformFee: bigint;
  readonly migrateFee: bigint;
  readonly vestingTotalLocked: bigint;
  readonly globalConfig: Address;
  readonly platformConfig: Address;
  readonly baseMint: Address;
  readonly quoteMint: Address;
  readonly baseVault: Address;
  readonly quoteVault: Address;
  readonly creator: Address;
  /** bit0: base mint is Token-2022; bit1: quote mint is Token-2022 */
  readonly tokenProgramFlag: number;
}

export interface RaydiumLaunchLabGlobalConfig {
  readonly epoch: bigint;
  readonly curveType: number;
  readonly index: number;
  readonly migrateFee: bigint;
  /** protocol trade fee rate (1e-6) */
  readonly tradeFeeRate: bigint;
  readonly maxShareFeeRate: bigint;
  readonly minBaseSupply: bigint;
  readonly maxLockRate: bigint;
  readonly minBaseSellRate: bigint;
  readonly minBaseMigrateRate: bigint;
  readonly minQuoteFundRaising: bigint;
  readonly quoteMint: Address;
  readonly protocolFeeOwner: Address;
  readonly migrateFeeOwner: Address;
  readonly migrateToAmmWallet: Address;
  readonly migrateToCpswapWallet: Address;
}

export interface RaydiumLaunchLabPlatformConfig {
  readonly platformFeeWallet: Address;
  /** platform fee rate (1e-6) */
  readonly feeRate: bigint;
  /** the CPMM AmmConfig the pool's CPMM pool is created with at migration */
  readonly cpswapConfig: Address;
  /** creator fee rate (1e-6) */
  readonly creatorFeeRate: bigint;
}

const u64 = getU64Decoder();
const pk = getAddressDecoder();
const u8 = getU8Decoder();

const poolDecoder = getFieldsDecoder({
  epoch: [8, u64],
  status: [17, u8],
  baseDecimals: [18, u8],
  quoteDecimals: [19, u8],
  migrateType: [20, u8],
  supply: [21, u64],
  totalBaseSell: [29, u64],
  virtualBase: [37, u64],
  virtualQuote: [45, u64],
  realBase: [53, u64],
  realQuote: [61, u64],
  totalQuoteFundRaising: [69, u64],
  quoteProtocolFee: [77, u64],
  platformFee: [85, u64],
  migrateFee: [93, u64],
  vestingTotalLocked: [101, u64],
  globalConfig: [141, pk],
  platformConfig: [173, pk],
  baseMint: [RAYDIUM_LAUNCHLAB_BASE_MINT_OFFSET, pk],
  quoteMint: [RAYDIUM_LAUNCHLAB_QUOTE_MINT_OFFSET, pk],
  baseVault: [269, pk],
  quoteVault: [301, pk],
  creator: [333, pk],
  tokenProgramFlag: [365, u8],
});

const globalConfigDecoder = getFieldsDecoder({
  epoch: [8, u64],
  curveType: [16, u8],
  index: [17, getU16Decoder()],
  migrateFee: [19, u64],
  tradeFeeRate: [27, u64],
  maxShareFeeRate: [35, u64],
  minBaseSupply: [43, u64],
  maxLockRate: [51, u64],
  minBaseSellRate: [59, u64],
  minBaseMigrateRate: [67, u64],
  minQuoteFundRaising: [75, u64],
  quoteMint: [83, pk],
  protocolFeeOwner: [115, pk],
  migrateFeeOwner: [147, pk],
  migrateToAmmWallet: [179, pk],
  migrateToCpswapWallet: [211, pk],
});

const platformConfigDecoder = getFieldsDecoder({
  platformFeeWallet: [16, pk],
  feeRate: [104, u64],
  cpswapConfig: [688, pk],
  creatorFeeRate: [720, u64],
});

/** Decodes a LaunchLab PoolState (owner checked: CPMM and CLMM pools share the discriminator). */
export function decodeRaydiumLaunchLabPool(account: AccountBytes): RaydiumLaunchLabPool {
  assertAccountShape(account, {
    layout: "RaydiumLaunchLabPool",
    owners: [RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS],
    size: RAYDIUM_LAUNCHLAB_POOL_SIZE,
    discriminator: RAYDIUM_LAUNCHLAB_POOL_DISCRIMINATOR,
  });
  return poolDecoder.decode(account.data);
}

/** Decodes a LaunchLab GlobalConfig (owner checked: PumpSwap's GlobalConfig shares the discriminator). */
export function decodeRaydiumLaunchLabGlobalConfig(account: AccountBytes): RaydiumLaunchLabGlobalConfig {
  assertAccountShape(account, {
    layout: "RaydiumLaunchLabGlobalConfig",
    owners: [RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS],
    size: RAYDIUM_LAUNCHLAB_GLOBAL_CONFIG_SIZE,
    discriminator: RAYDIUM_LAUNCHLAB_GLOBAL_CONFIG_DISCRIMINATOR,
  });
  return globalConfigDecoder.decode(account.data);
}

/** Decodes the fee fields of a PlatformConfig (its curve-parameter vector, appended per platform, is not read). */
export function decodeRaydiumLaunchLabPlatformConfig(account: AccountBytes): RaydiumLaunchLabPlatformConfig {
  assertAccountShape(account, {
    layout: "RaydiumLaunchLabPlatformConfig",
    owners: [RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS],
    size: [RAYDIUM_LAUNCHLAB_PLATFORM_CONFIG_MIN_SIZE],
    discriminator: RAYDIUM_LAUNCHLAB_PLATFORM_CONFIG_DISCRIMINATOR,
  });
  return platformConfigDecoder.decode(account.data);
}

/** The curve of a GlobalConfig `curve_type`; any other value is refused (the program has no other curve). */
export function launchLabCurveType(curveType: number): LaunchLabCurveType {
  const curve = LAUNCHLAB_CURVE_TYPES[curveType];
  if (curve === undefined) throw new AccountDecodeError("RaydiumLaunchLabGlobalConfig", "invalid-tag", `curve_type ${curveType}`);
  return curve;
}

/** The pool's status word; any other value is refused. */
export function launchLabPoolStatus(pool: RaydiumLaunchLabPool): LaunchLabPoolStatus {
  const status = LAUNCHLAB_POOL_STATUSES[pool.status];
  if (status === undefined) throw new AccountDecodeError("RaydiumLaunchLabPool", "invalid-tag", `status ${pool.status}`);
  return status;
}

/**
 * Raw spot price (quote atoms per base atom) on the pool's curve, as raydium-sdk-V2's `Curve.getPrice`:
 * constant product (virtual_quote + real_quote) / (virtual_base − real_base); fixed price virtual_quote / virtual_base;
 * linear virtual_base × real_base / 2^64 (the slope a is Q64, the price a·x grows with the base sold x).
 */
export function launchLabRawPrice(pool: RaydiumLaunchLabPool, curve: LaunchLabCurveType): Ratio {
  let price: Ratio;
  if (curve === "constant-product") {
    const baseLeft = pool.virtualBase - pool.realBase;
    if (baseLeft <= 0n) throw new AccountDecodeError("RaydiumLaunchLabPool", "value", "virtual base exhausted");
    price = { num: pool.virtualQuote + pool.realQuote, den: baseLeft };
  } else if (curve === "fixed-price") {
    if (pool.virtualBase <= 0n) throw new AccountDecodeError("RaydiumLaunchLabPool", "value", "zero virtual base");
    price = { num: pool.virtualQuote, den: pool.virtualBase };
  } else {
    price = { num: pool.virtualBase * pool.realBase, den: Q64 };
  }
  // A linear curve starts at price 0 (nothing sold yet): such a pool has no price to give, like an empty reserve.
  if (price.num <= 0n) throw new AccountDecodeError("RaydiumLaunchLabPool", "value", "zero price on the curve");
  return ratio(price.num, price.den);
}

/** Share of the fund raising reached: real_quote / total_quote_fund_raising, in [0, 1] (1 once funding ended). */
export function launchLabCurveProgress(pool: RaydiumLaunchLabPool): Ratio {
  if (pool.status !== 0 || pool.totalQuoteFundRaising <= 0n || pool.realQuote >= pool.totalQuoteFundRaising) return ratio(1n);
  return ratio(pool.realQuote, pool.totalQuoteFundRaising);
}

/** Fee rates of a swap (each in millionths of the quote amount): protocol (GlobalConfig), platform and creator (PlatformConfig). */
export function launchLabFeeRates(global: RaydiumLaunchLabGlobalConfig, platform: RaydiumLaunchLabPlatformConfig) {
  return { protocol: global.tradeFeeRate, platform: platform.feeRate, creator: platform.creatorFeeRate };
}

type Related = "globalConfig";

/** The pool's GlobalConfig (its curve type); reserves and decimals are in the pool itself. */
export function requiredAccountsForRaydiumLaunchLabPool(pool: RaydiumLaunchLabPool): RelatedAddresses<Related> {
  return { globalConfig: pool.globalConfig };
}

/**
 * Price quote per base in human units on the pool's curve (exact). Liquidity = quote raised (`real_quote`; the quote
 * vault also holds the fee buckets); base reserve = base still for sale on the curve. Tradable only in status 0 (the
 * program refuses swaps once funding ended); complete once funding ended or the fund raising is reached.
 */
export function priceFromRaydiumLaunchLabPool(
  pool: RaydiumLaunchLabPool,
  related: RelatedAccounts<Related>,
): VenuePoolPrice<RaydiumLaunchLabKind> {
  const global = decodeRaydiumLaunchLabGlobalConfig(related.globalConfig);
  if (global.quoteMint !== pool.quoteMint) throw new AccountDecodeError("RaydiumLaunchLabPool", "mismatch", "global config of another quote mint");
  const status = launchLabPoolStatus(pool);
  const raw = launchLabRawPrice(pool, launchLabCurveType(global.curveType));
  const complete = status !== "trading" || pool.realQuote >= pool.totalQuoteFundRaising;
  const forSale = pool.totalBaseSell - pool.realBase;
  return {
    kind: RAYDIUM_LAUNCHLAB_KIND,
    baseMint: pool.baseMint,
    quoteMint: pool.quoteMint,
    priceQuotePerBase: toHumanPrice(raw, pool.baseDecimals, pool.quoteDecimals),
    quoteLiquidity: pool.realQuote,
    baseReserve: forSale > 0n ? forSale : 0n,
    tradable: status === "trading",
    extra: { curveProgress: launchLabCurveProgress(pool), complete },
  };
}

/** Pool PDA: ["pool", base_mint, quote_mint] (base first, not sorted). */
export function findRaydiumLaunchLabPoolAddress(baseMint: Address, quoteMint: Address): Promise<Address> {
  return findPda(RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, ["pool", addressBytes(baseMint), addressBytes(quoteMint)]);
}

/** Vault PDA: ["pool_vault", pool, mint]. */
export function findRaydiumLaunchLabVaultAddress(pool: Address, mint: Address): Promise<Address> {
  return findPda(RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, ["pool_vault", addressBytes(pool), addressBytes(mint)]);
}

/** GlobalConfig PDA: ["global_config", quote_mint, curve_type u8, index u16 LE] (raydium-sdk-V2 pda.ts). */
export function findRaydiumLaunchLabGlobalConfigAddress(quoteMint: Address, curveType: number, index: number): Promise<Address> {
  return findPda(RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, ["global_config", addressBytes(quoteMint), Uint8Array.of(curveType), Uint8Array.of(index & 0xff, (index >> 8) & 0xff)]);
}

/** Event authority PDA ["__event_authority"]: the one account of the program's self-CPI events. */
export function findRaydiumLaunchLabEventAuthorityAddress(): Promise<Address> {
  return findPda(RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, ["__event_authority"]);
}

/** Pools of `mint` as base against each quote mint (a launch pool is keyed by its two mints alone). */
export async function listRaydiumLaunchLabPoolCandidates(mint: Address, quoteMints: readonly Address[]): Promise<VenuePoolCandidate<RaydiumLaunchLabKind>[]> {
  const quotes = quoteMints.filter((quote) => quote !== mint);
  return Promise.all(quotes.map(async (quoteMint) => ({ pool: await findRaydiumLaunchLabPoolAddress(mint, quoteMint), kind: RAYDIUM_LAUNCHLAB_KIND, quoteMint })));
}

export const raydiumLaunchLabPoolAdapter = defineUnlistedPoolAdapter({
  kind: RAYDIUM_LAUNCHLAB_KIND,
  candidates: (mint) => listRaydiumLaunchLabPoolCandidates(mint, derivedQuoteMints(mint)),
  decode: decodeRaydiumLaunchLabPool,
  required: requiredAccountsForRaydiumLaunchLabPool,
  price: (state, _mint, related) => priceFromRaydiumLaunchLabPool(state, related),
});

/** buy_exact_in, buy_exact_out, sell_exact_in, sell_exact_out (args: amount, limit, share_fee_rate — u64 each). */
const LAUNCHLAB_SWAPS: ReadonlyMap<string, { side: "buy" | "sell"; exactIn: boolean }> = new Map([
  ["faea0d7bd59c13ec", { side: "buy", exactIn: true }],
  ["18d3742869039938", { side: "buy", exactIn: false }],
  ["9527de9bd37c981a", { side: "sell", exactIn: true }],
  ["5fc8472208090ba6", { side: "sell", exactIn: false }],
]);
/** Swap accounts: payer 0, authority 1, global_config 2, platform_config 3, pool_state 4, user_base_token 5,
 * user_quote_token 6, base_vault 7, quote_vault 8, base_token_mint 9, quote_token_mint 10, base/quote token program
 * 11/12, event_authority 13, program 14 (then, on newer clients, system program and the platform / creator fee vaults). */
const SWAP_ACCOUNTS = { payer: 0, globalConfig: 2, platformConfig: 3, pool: 4, userBase: 5, userQuote: 6, baseVault: 7, quoteVault: 8, baseMint: 9, quoteMint: 10 } as const;
const SWAP_MIN_ACCOUNTS = 13;

/** A LaunchLab swap as its instruction names it: the pool's reserves, and who swapped with which token accounts. */
export interface RaydiumLaunchLabSwap extends VenueSwapReserves<RaydiumLaunchLabKind> {
  readonly side: "buy" | "sell";
  readonly exactIn: boolean;
  /** the signer paying and receiving (the user of the swap) */
  readonly wallet: Address;
  /** the user's base and quote token accounts */
  readonly userTokenAccounts: readonly [base: Address, quote: Address];
  readonly globalConfig: Address;
  readonly platformConfig: Address;
}

/** Reads a LaunchLab swap instruction; undefined for any other instruction or too few accounts. */
export function raydiumLaunchLabSwap(data: Uint8Array, key: (position: number) => Address | undefined, count: number): RaydiumLaunchLabSwap | undefined {
  const shape = LAUNCHLAB_SWAPS.get(instructionTag(data));
  if (!shape || count < SWAP_MIN_ACCOUNTS) return undefined;
  const at = accountsAt(key, Object.values(SWAP_ACCOUNTS));
  if (!at) return undefined;
  const [payer, globalConfig, platformConfig, pool, userBase, userQuote, baseVault, quoteVault, baseMint, quoteMint] = at as [Address, Address, Address, Address, Address, Address, Address, Address, Address, Address];
  return {
    kind: RAYDIUM_LAUNCHLAB_KIND,
    pool,
    reserves: [{ account: baseVault, mint: baseMint }, { account: quoteVault, mint: quoteMint }],
    order: "given",
    side: shape.side,
    exactIn: shape.exactIn,
    user: payer,
    wallet: payer,
    userTokenAccounts: [userBase, userQuote],
    globalConfig,
    platformConfig,
  };
}

/** The swap-reserves reader shape (pool and both reserves, base then quote). */
export function raydiumLaunchLabSwapReserves(
  data: Uint8Array,
  key: (position: number) => Address | undefined,
  count: number,
): VenueSwapReserves<RaydiumLaunchLabKind> | undefined {
  const swap = raydiumLaunchLabSwap(data, key, count);
  return swap && { kind: swap.kind, pool: swap.pool, reserves: swap.reserves, order: swap.order, user: swap.user };
}

/** A pool seen swapped is registered with its GlobalConfig (swap account 2), which its pricer reads. */
export const raydiumLaunchLabSwappedPool = {
  related: (key: (position: number) => Address | undefined): Record<string, Address> | undefined => {
    const globalConfig = key(SWAP_ACCOUNTS.globalConfig);
    return globalConfig && { globalConfig };
  },
};

/** initialize / initialize_v2 / initialize_with_token_2022: global_config 2, pool_state 5, base/quote mint 6/7. */
const LAUNCHLAB_CREATES = new Set(["afaf6d1f0d989bed", "4399af27da102620", "25be7ede2c9aab11"]);
const MIGRATE_TO_AMM = "cf52c091fecf91df";
const MIGRATE_TO_CPSWAP = "885cc8671cda908c";

type LifecycleOut = VenuePoolLifecycle<RaydiumLaunchLabKind> | PoolLifecycle;

/**
 * Pool events of LaunchLab instructions: a created pool (initialize*, with its GlobalConfig); a migration (the pool is
 * done) and the pool it created — migrate_to_amm (base/quote mint 1/2, amm_pool 13, amm base/quote vault 17/18,
 * pool_state 23, global_config 24) makes a Raydium AMM v4 pool (coin = base, pc = quote); migrate_to_cpswap (base/quote
 * mint 1/2, cpswap_pool 5, cpswap base/quote vault 8/9, pool_state 18, global_config 19) a CPMM pool (its pair sorted
 * by bytes, vaults token0 / token1).
 */
export function raydiumLaunchLabPoolLifecycle(data: Uint8Array, key: (position: number) => Address | undefined, count: number): LifecycleOut[] {
  const tag = instructionTag(data);
  if (LAUNCHLAB_CREATES.has(tag) && count >= 10) {
    const at = accountsAt(key, [2, 5, 6, 7]);
    if (!at) return [];
    const [globalConfig, pool, baseMint, quoteMint] = at as [Address, Address, Address, Address];
    return [{ type: "create", kind: RAYDIUM_LAUNCHLAB_KIND, pool, mints: [baseMint, quoteMint], related: { globalConfig } }];
  }
  if (tag === MIGRATE_TO_AMM && count >= 25) {
    const at = accountsAt(key, [1, 2, 13, 17, 18, 23, 24]);
    if (!at) return [];
    const [baseMint, quoteMint, ammPool, coinVault, pcVault, pool, globalConfig] = at as [Address, Address, Address, Address, Address, Address, Address];
    return [
      { type: "migrate", kind: RAYDIUM_LAUNCHLAB_KIND, pool, mints: [baseMint, quoteMint], related: { globalConfig } },
      { type: "create", kind: "raydium-amm-v4", pool: ammPool, mints: [baseMint, quoteMint], related: { coinVault, pcVault } },
    ];
  }
  if (tag === MIGRATE_TO_CPSWAP && count >= 20) {
    const at = accountsAt(key, [1, 2, 5, 8, 9, 18, 19]);
    if (!at) return [];
    const [baseMint, quoteMint, cpmmPool, baseVault, quoteVault, pool, globalConfig] = at as [Address, Address, Address, Address, Address, Address, Address];
    const baseFirst = compareAddressBytes(addressBytes(baseMint), addressBytes(quoteMint)) < 0;
    return [
      { type: "migrate", kind: RAYDIUM_LAUNCHLAB_KIND, pool, mints: [baseMint, quoteMint], related: { globalConfig } },
      {
        type: "create",
        kind: "raydium-cpmm",
        pool: cpmmPool,
        mints: baseFirst ? [baseMint, quoteMint] : [quoteMint, baseMint],
        related: baseFirst ? { vault0: baseVault, vault1: quoteVault } : { vault0: quoteVault, vault1: baseVault },
      },
    ];
  }
  return [];
}

/** TradeEvent (log `Program data:` and self-CPI), 147 B after its discriminator's 8. */
export interface RaydiumLaunchLabTradeEvent {
  readonly pool: Address;
  readonly totalBaseSell: bigint;
  readonly virtualBase: bigint;
  readonly virtualQuote: bigint;
  readonly realBaseBefore: bigint;
  readonly realQuoteBefore: bigint;
  readonly realBaseAfter: bigint;
  readonly realQuoteAfter: bigint;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly protocolFee: bigint;
  readonly platformFee: bigint;
  readonly creatorFee: bigint;
  readonly shareFee: bigint;
  readonly side: "buy" | "sell";
  /** the pool's status after the trade: "awaiting-migration" = this trade ended the fund raising */
  readonly poolStatus: LaunchLabPoolStatus;
  readonly exactIn: boolean;
}

const TRADE_EVENT = getBase16Encoder().encode("bddb7fd34ee661ee");
const TRADE_EVENT_CPI = anchorEventPrefix("bddb7fd34ee661ee");
/** disc 8 + pool 32 + 13 u64 + direction, status, exact_in. Newer programs may append fields: read by prefix. */
const TRADE_EVENT_SIZE = 8 + 32 + 13 * 8 + 3;

const tradeEventDecoder = getFieldsDecoder({
  pool: [8, pk],
  totalBaseSell: [40, u64],
  virtualBase: [48, u64],
  virtualQuote: [56, u64],
  realBaseBefore: [64, u64],
  realQuoteBefore: [72, u64],
  realBaseAfter: [80, u64],
  realQuoteAfter: [88, u64],
  amountIn: [96, u64],
  amountOut: [104, u64],
  protocolFee: [112, u64],
  platformFee: [120, u64],
  creatorFee: [128, u64],
  shareFee: [136, u64],
  direction: [144, u8],
  poolStatus: [145, u8],
  exactIn: [146, u8],
});

/**
 * Decodes a TradeEvent from its bytes: a log's `Program data:` (discriminator first) or a self-CPI's data (the event
 * instruction tag, then the discriminator). Undefined for any other event or a short payload.
 */
export function decodeRaydiumLaunchLabTradeEvent(bytes: Uint8Array): RaydiumLaunchLabTradeEvent | undefined {
  const body = isAnchorEvent(bytes, TRADE_EVENT_CPI) ? bytes.subarray(8) : isAnchorEvent(bytes, TRADE_EVENT as Uint8Array) ? bytes : undefined;
  if (!body || body.length < TRADE_EVENT_SIZE) return undefined;
  const { direction, poolStatus, exactIn, ...amounts } = tradeEventDecoder.decode(body);
  const status = LAUNCHLAB_POOL_STATUSES[poolStatus];
  if (direction > 1 || status === undefined || exactIn > 1) return undefined;
  return { ...amounts, side: direction === 0 ? "buy" : "sell", poolStatus: status, exactIn: exactIn === 1 };
}

/**
 * The graduation a swap's TradeEvent tells: the trade left its pool awaiting migration (the fund raising is reached;
 * the program refuses further swaps). Undefined for another pool's event or a trade that left the pool trading.
 */
export function raydiumLaunchLabPoolGraduation(
  event: RaydiumLaunchLabTradeEvent,
  swap: { readonly pool: Address; readonly reserves: readonly [{ readonly mint: Address | undefined }, { readonly mint: Address | undefined }] },
  globalConfig: Address,
): WithKind<PoolLifecycle, RaydiumLaunchLabKind> | undefined {
  if (event.pool !== swap.pool || event.poolStatus === "trading") return undefined;
  const [base, quote] = swap.reserves;
  if (!base.mint || !quote.mint) return undefined;
  return { type: "graduate", kind: RAYDIUM_LAUNCHLAB_KIND, pool: swap.pool, mints: [base.mint, quote.mint], related: { globalConfig } };
}

/** TradeEvent self-CPI data is 8 + 8 + 147 bytes (longer if the program appends fields): ~220 base58 characters. */
const TRADE_EVENT_CPI_MIN_TEXT = Math.floor((TRADE_EVENT_SIZE + 8 - 1) * 1.3657);

/**
 * The `PoolGraduationReader` shape: a self-CPI event's data (base58, as the transaction holds it) inside one of the
 * pool's swaps → the graduation its TradeEvent tells, with the swap's GlobalConfig when the swap is a
 * `RaydiumLaunchLabSwap` (what the pricer reads). Text too short for a TradeEvent is refused before decoding.
 */
export function raydiumLaunchLabPoolGraduationFromEvent(
  eventData: string,
  swap: VenueSwapReserves<RaydiumLaunchLabKind> & { readonly globalConfig?: Address },
): WithKind<PoolLifecycle, RaydiumLaunchLabKind> | undefined {
  if (typeof eventData !== "string" || eventData.length < TRADE_EVENT_CPI_MIN_TEXT) return undefined;
  const bytes = base58Bytes(eventData);
  const event = bytes && isAnchorEvent(bytes, TRADE_EVENT_CPI) ? decodeRaydiumLaunchLabTradeEvent(bytes) : undefined;
  if (!event) return undefined;
  const graduation = raydiumLaunchLabPoolGraduation(event, swap, swap.globalConfig ?? event.pool);
  return graduation && swap.globalConfig === undefined ? { ...graduation, related: {} } : graduation;
}

/**
 * Raydium LaunchLab: venue-b (Raydium's own launchpad), `dex` "raydium-launchlab". Its swaps are read with their
 * GlobalConfig (what the graduation and the registry keep); the TradeEvent a swap emits tells when it ended the fund
 * raising (a graduation); migrate_to_amm / migrate_to_cpswap tell the migration and the pool it made. The program has
 * no opening time: a pool trades from creation while its status is 0 (`tradable`).
 */
export const raydiumLaunchLabVenue = defineVenue({
  kind: RAYDIUM_LAUNCHLAB_KIND,
  dex: RAYDIUM_LAUNCHLAB_KIND,
  venue: "venue-b",
  program: RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS,
  authorities: [RAYDIUM_LAUNCHLAB_AUTHORITY_ADDRESS],
  liquidityPrograms: [],
  adapter: raydiumLaunchLabPoolAdapter,
  instructions: {
    swapReserves: raydiumLaunchLabSwap,
    lifecycle: raydiumLaunchLabPoolLifecycle,
    swappedPool: raydiumLaunchLabSwappedPool,
    // the swap read is a RaydiumLaunchLabSwap: its GlobalConfig rides along for the graduation's pricer
    graduation: (eventData, swap) => raydiumLaunchLabPoolGraduationFromEvent(eventData, swap as RaydiumLaunchLabSwap),
  },
  activation: null,
});
