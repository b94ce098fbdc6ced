/**
 * The pump fee program (pump-fees, `pfeeUx…`): the fee schedules pump.fun curves and canonical PumpSwap pools pay, by
 * market cap. pump and pump_amm pass their `FeeConfig` to each buy and sell and take the fees its `get_fees` returns:
 * the market-cap tier of `fee_tiers` for SOL-quoted coins, of `stable_fee_tiers` for USDC-quoted ones, `exotic_flat_fees`
 * (or `flat_fees` while that is unset) for any other quote, and `flat_fees` for PumpSwap pools that are not a graduated
 * coin's canonical pool.
 *
 * Source, encoded here as our own table and code: @pump-fun/pump-sdk 2.0.0 (`src/fees.ts` `computeFeesBps`,
 * `selectCurveFeeSchedule`, `calculateFeeTier`; `src/sdk.ts` `decodeFeeConfig`; `src/idl/pump_fees.json`) and
 * @pump-fun/pump-swap-sdk 1.20.0 (`src/sdk/fees.ts` `computeFeesBps`, `feesForQuoteMint`; `src/sdk/util.ts`
 * `poolMarketCap`, `isPumpPool`), which name the program functions they mirror (pump-fees `FeeConfig::fees_for_quote_mint`,
 * pump-fees-math `calculate_fee_tier`, pump-amm `Pool::market_cap`); pump-fun/pump-public-docs @1b82215
 * `docs/FEE_PROGRAM_README.md` for the canonical-pool rule and the market-cap formulas.
 */
import { address, getBase16Encoder, type Address } from "@solana/kit";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { findProgramAddressSync } from "../solana/program-address";
import { PUMP_PROGRAM_ADDRESS, USDC_MINT, WSOL_MINT } from "../solana/well-known";
import { addressBytes } from "./pda";

export const PUMP_FEE_PROGRAM_ADDRESS = address("pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ");
/** pump's FeeConfig: PDA(["fee_config", pump program], pump-fees) (derivation tested). */
export const PUMP_FEE_CONFIG_ADDRESS = address("8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt");
/** PumpSwap's FeeConfig: PDA(["fee_config", pump_amm program], pump-fees) (derivation tested). */
export const PUMPSWAP_FEE_CONFIG_ADDRESS = address("5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx");

/**
 * FeeConfig layout (pump_fees IDL in @pump-fun/pump-sdk 2.0.0; versioning as its `decodeFeeConfig`, which mirrors the
 * program's `FeeConfig::deserialize_versioned`): discriminator, bump u8 @8, admin @9, flat_fees (3 × u64 bps: lp,
 * protocol, creator) @41, `fee_tiers` Vec<FeeTier> (u32 count) @65, then `stable_fee_tiers` and `exotic_flat_fees`.
 * FeeTier = market_cap_lamports_threshold u128 + Fees (40 bytes). The account length selects the version: below
 * `postStable` bytes there are no stable tiers, below `current` no exotic fees (they read empty / all-zero).
 */
export const PUMP_FEE_CONFIG_LAYOUT = {
  discriminator: getBase16Encoder().encode("8f3492bbdb7b4c9b"),
  flatFees: 41,
  feeTiers: 65,
  tierBytes: 40,
  feesBytes: 24,
  /** pump-fees MAX_FEE_TIERS_SUPPORTED: no upsert writes a longer vector */
  maxTiers: 50,
  sizes: { initialize: 2512, postStable: 4073, current: 4097 },
} as const;

/** Token-2022's native mint: pump-fees counts it as SOL (`is_sol_like_quote_mint`). */
const NATIVE_MINT_2022 = address("9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP");
const DEFAULT_ADDRESS = address("11111111111111111111111111111111");
/** pump-fees `STABLE_QUOTE_MINTS` (hardcoded in the program): mainnet USDC only. */
const STABLE_QUOTE_MINTS: ReadonlySet<Address> = new Set([USDC_MINT]);
const SOL_LIKE_QUOTE_MINTS: ReadonlySet<Address> = new Set([DEFAULT_ADDRESS, WSOL_MINT, NATIVE_MINT_2022]);

/** The fee rates of a schedule, in basis points. */
export interface PumpFeeRates {
  readonly lpBps: bigint;
  readonly protocolBps: bigint;
  readonly creatorBps: bigint;
}

export interface PumpFeeTier {
  /** market cap, in the quote's atoms (lamports for SOL), from which the tier applies */
  readonly marketCapThreshold: bigint;
  readonly fees: PumpFeeRates;
}

export interface PumpFeeConfig {
  readonly flatFees: PumpFeeRates;
  readonly feeTiers: readonly PumpFeeTier[];
  readonly stableFeeTiers: readonly PumpFeeTier[];
  /** all-zero = unset (accounts older than the field) */
  readonly exoticFlatFees: PumpFeeRates;
}

/** Which schedule applied, for the quote's own account of itself. */
export interface PumpFeeChoice {
  readonly fees: PumpFeeRates;
  /** e.g. "market-cap tier 2 of 25 (from 1470000000000)", "flat fees (not a canonical pump pool)" */
  readonly schedule: string;
}

const u64 = (view: DataView, at: number) => view.getBigUint64(at, true);

function feesAt(view: DataView, at: number): PumpFeeRates {
  return { lpBps: u64(view, at), protocolBps: u64(view, at + 8), creatorBps: u64(view, at + 16) };
}

/** The tier vector whose u32 count sits at `at`, refused when the program could not have written it. */
function tiersAt(view: DataView, at: number, length: number): { tiers: PumpFeeTier[]; end: number } {
  const L = PUMP_FEE_CONFIG_LAYOUT;
  if (at + 4 > length) throw new AccountDecodeError("PumpFeeConfig", "truncated", `tier count at ${at} past ${length} bytes`);
  const count = view.getUint32(at, true);
  if (count > L.maxTiers) throw new AccountDecodeError("PumpFeeConfig", "too-many-items", `${count} fee tiers (the program writes at most ${L.maxTiers})`);
  const end = at + 4 + count * L.tierBytes;
  if (end > length) throw new AccountDecodeError("PumpFeeConfig", "truncated", `${count} fee tiers at ${at} run past ${length} bytes`);
  const tiers: PumpFeeTier[] = [];
  for (let i = 0, o = at + 4; i < count; i++, o += L.tierBytes) {
    tiers.push({ marketCapThreshold: u64(view, o) | (u64(view, o + 8) << 64n), fees: feesAt(view, o + 16) });
  }
  return { tiers, end };
}

const ZERO_FEES: PumpFeeRates = { lpBps: 0n, protocolBps: 0n, creatorBps: 0n };

/** Decodes a pump-fees FeeConfig as the program reads it (the version its length selects). */
export function decodePumpFeeConfig(account: AccountBytes): PumpFeeConfig {
  const L = PUMP_FEE_CONFIG_LAYOUT;
  assertAccountShape(account, { layout: "PumpFeeConfig", owners: [PUMP_FEE_PROGRAM_ADDRESS], size: [L.sizes.initialize], discriminator: L.discriminator });
  const { data } = account;
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const fee = tiersAt(view, L.feeTiers, data.length);
  if (fee.tiers.length === 0) throw new AccountDecodeError("PumpFeeConfig", "value", "no fee tiers");
  let stableFeeTiers: PumpFeeTier[] = [];
  let exoticFlatFees = ZERO_FEES;
  if (data.length >= L.sizes.postStable) {
    const stable = tiersAt(view, fee.end, data.length);
    stableFeeTiers = stable.tiers;
    if (data.length >= L.sizes.current) {
      if (stable.end + L.feesBytes > data.length) throw new AccountDecodeError("PumpFeeConfig", "truncated", "exotic flat fees past the end");
      exoticFlatFees = feesAt(view, stable.end);
    }
  }
  return { flatFees: feesAt(view, L.flatFees), feeTiers: fee.tiers, stableFeeTiers, exoticFlatFees };
}

/**
 * pump-fees-math `calculate_fee_tier`: under the first tier's threshold the first tier; otherwise the last tier (in
 * stored order) whose threshold the market cap reaches.
 */
export function feeTierIndex(tiers: readonly PumpFeeTier[], marketCap: bigint): number {
  if (tiers.length === 0) throw new AccountDecodeError("PumpFeeConfig", "value", "empty fee tier schedule");
  if (marketCap < tiers[0]!.marketCapThreshold) return 0;
  for (let i = tiers.length - 1; i >= 0; i--) if (marketCap >= tiers[i]!.marketCapThreshold) return i;
  return 0;
}

function tierChoice(tiers: readonly PumpFeeTier[], marketCap: bigint, name: string): PumpFeeChoice {
  const i = feeTierIndex(tiers, marketCap);
  return { fees: tiers[i]!.fees, schedule: `${name} ${i} of ${tiers.length} (market cap ${marketCap} ≥ ${tiers[i]!.marketCapThreshold})` };
}

const isZero = (f: PumpFeeRates) => f.lpBps === 0n && f.protocolBps === 0n && f.creatorBps === 0n;

/**
 * pump-fees `FeeConfig::fees_for_quote_mint`: a pool that is not a canonical pump pool pays `flat_fees`; a curve or a
 * canonical pool pays the market-cap tier of `fee_tiers` when quoted in SOL (the zero key, wSOL or Token-2022's native
 * mint), of `stable_fee_tiers` when quoted in USDC (the SOL tiers while an older account has none), and otherwise
 * `exotic_flat_fees`, or `flat_fees` while those are unset.
 */
export function pumpFeeSchedule(config: PumpFeeConfig, opts: { isPumpPool: boolean; quoteMint: Address; marketCap: bigint }): PumpFeeChoice {
  if (!opts.isPumpPool) return { fees: config.flatFees, schedule: "flat fees (not a canonical pump pool)" };
  if (SOL_LIKE_QUOTE_MINTS.has(opts.quoteMint)) return tierChoice(config.feeTiers, opts.marketCap, "market-cap tier");
  if (STABLE_QUOTE_MINTS.has(opts.quoteMint)) {
    return config.stableFeeTiers.length > 0 ? tierChoice(config.stableFeeTiers, opts.marketCap, "stable market-cap tier") : tierChoice(config.feeTiers, opts.marketCap, "market-cap tier");
  }
  return isZero(config.exoticFlatFees) ? { fees: config.flatFees, schedule: "flat fees (other quote)" } : { fees: config.exoticFlatFees, schedule: "exotic flat fees (other quote)" };
}

/** pump-amm TOTAL_TOKEN_SUPPLY / the pump SDK's ONE_BILLION_SUPPLY: 10^9 tokens of 6 decimals. */
export const PUMP_TOTAL_TOKEN_SUPPLY = 1_000_000_000_000_000n;

/**
 * A curve's market cap in quote atoms (pump SDK `bondingCurveMarketCap` as `getFee` calls it): virtual quote × supply /
 * virtual tokens, the supply being 10^15 for ordinary coins and the mint's own supply for mayhem-mode coins.
 */
export function curveMarketCap(virtualQuote: bigint, virtualTokens: bigint, mayhem: boolean, mintSupply: bigint): bigint {
  if (virtualTokens === 0n) throw new AccountDecodeError("PumpBondingCurve", "value", "zero virtual token reserves");
  return (virtualQuote * (mayhem ? mintSupply : PUMP_TOTAL_TOKEN_SUPPLY)) / virtualTokens;
}

/**
 * A PumpSwap pool's market cap in quote atoms (pump-amm `Pool::market_cap`): effective quote reserve (vault + virtual) ×
 * supply / base reserve, the supply being the base mint's own and 10^15 for mayhem-mode pools.
 */
export function poolMarketCap(effectiveQuote: bigint, base: bigint, mayhem: boolean, baseMintSupply: bigint): bigint {
  if (base === 0n) throw new AccountDecodeError("PumpSwapPool", "value", "empty base reserve");
  return (effectiveQuote * (mayhem ? PUMP_TOTAL_TOKEN_SUPPLY : baseMintSupply)) / base;
}

/** A PumpSwap pool is a canonical pump pool when its creator is pump's ["pool-authority", base mint] PDA. */
export function isCanonicalPumpPool(baseMint: Address, poolCreator: Address): boolean {
  return findProgramAddressSync(PUMP_PROGRAM_ADDRESS, ["pool-authority", addressBytes(baseMint) as Uint8Array])[0] === poolCreator;
}

/** The receipt's reading of a FeeConfig: each schedule as "threshold: lp/protocol/creator bps" items. */
export function pumpFeeConfigFields(account: AccountBytes): Record<string, string | number> {
  const c = decodePumpFeeConfig(account);
  const rates = (f: PumpFeeRates) => `${f.lpBps}/${f.protocolBps}/${f.creatorBps}`;
  const tiers = (t: readonly PumpFeeTier[]) => t.map((x) => `${x.marketCapThreshold}: ${rates(x.fees)}`).join("; ");
  return {
    ratesAre: "lp/protocol/creator bps",
    flatFees: rates(c.flatFees),
    feeTiers: tiers(c.feeTiers),
    stableFeeTiers: tiers(c.stableFeeTiers),
    exoticFlatFees: rates(c.exoticFlatFees),
  };
}
