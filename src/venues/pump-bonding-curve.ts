/**
 * pump.fun bonding curve (program 6EF8…). Price = virtual quote / virtual token reserves; the curve
 * stores no mint, so pricing takes the mint the curve PDA was derived from. Layout: BondingCurve and Global of the
 * pump IDL in pump-fun/pump-public-docs @1b82215 (2026-05-19); is_mayhem_mode / is_cashback_coin only route fees.
 */
import { getAddressDecoder, getBase16Encoder, getBooleanDecoder, getU64Decoder, address, type Address } from "@solana/kit";
import { ratio } from "../math/fixed-point";
import { PUMP_PROGRAM_ADDRESS, WSOL_MINT, findAssociatedTokenAddress } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda } from "./pda";
import { reservePrice } from "./pool-price";
import type { DecimalsOf, PoolCandidate, PoolLifecycleReader, PoolPrice, RelatedAccounts, RelatedAddresses, SwapReservesReader } from "./types";
import { anchorEventPrefix, isAnchorEvent } from "./anchor-event";
import { completionEventReader } from "./instruction-readers";
import { accountsAt, instructionTag } from "./instruction-tag";
import { definePoolAdapter } from "./pool-adapter";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "pump-bonding-curve": true;
  }
}

export { PUMP_PROGRAM_ADDRESS };

export const PUMP_BONDING_CURVE_DISCRIMINATOR = getBase16Encoder().encode("17b7f83760d8ac60");
/**
 * Legacy curves are 49 bytes (up to `complete`); newer ones 81 (creator), 115 (flags, quote_mint) and longer: 125, 150,
 * 151 and 256 bytes are all on mainnet (the program reallocates curves as fields are appended; nothing past quote_mint is
 * read here).
 */
export const PUMP_BONDING_CURVE_MIN_SIZE = 49;
/** Curves shorter than this predate `quote_mint` and are SOL-paired; from it on, quote_mint @83 says the quote (USDC, another coin…). */
const QUOTE_MINT_END = 115;
export const PUMP_GLOBAL_ADDRESS = address("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
export const PUMP_GLOBAL_DISCRIMINATOR = getBase16Encoder().encode("a7e8e8b1c86c727f");
/** Global grew from 512 B (fixtures) to 1045 B (IDL); pricing reads up to initial_real_token_reserves. */
const PUMP_GLOBAL_MIN_SIZE = 97;

export interface PumpBondingCurve {
  readonly virtualTokenReserves: bigint;
  readonly virtualQuoteReserves: bigint;
  readonly realTokenReserves: bigint;
  readonly realQuoteReserves: bigint;
  readonly tokenTotalSupply: bigint;
  readonly complete: boolean;
  /** wSOL for SOL-paired curves (`Pubkey::default()` or a pre-USDC layout) */
  readonly quoteMint: Address;
}

export interface PumpGlobal {
  readonly initialRealTokenReserves: bigint;
}

const curveDecoder = getFieldsDecoder({
  virtualTokenReserves: [8, getU64Decoder()],
  virtualQuoteReserves: [16, getU64Decoder()],
  realTokenReserves: [24, getU64Decoder()],
  realQuoteReserves: [32, getU64Decoder()],
  tokenTotalSupply: [40, getU64Decoder()],
  complete: [48, getBooleanDecoder()],
});
const quoteMintDecoder = getFieldsDecoder({ quoteMint: [83, getAddressDecoder()] });
const globalDecoder = getFieldsDecoder({ initialRealTokenReserves: [89, getU64Decoder()] });
const DEFAULT_PUBKEY = address("11111111111111111111111111111111");

/** Decodes a BondingCurve of any size since the 49-byte legacy layout. */
export function decodePumpBondingCurve(account: AccountBytes): PumpBondingCurve {
  assertAccountShape(account, {
    layout: "PumpBondingCurve",
    owners: [PUMP_PROGRAM_ADDRESS],
    size: [PUMP_BONDING_CURVE_MIN_SIZE],
    discriminator: PUMP_BONDING_CURVE_DISCRIMINATOR,
  });
  const storedQuote =
    account.data.length >= QUOTE_MINT_END ? quoteMintDecoder.decode(account.data).quoteMint : DEFAULT_PUBKEY;
  return { ...curveDecoder.decode(account.data), quoteMint: storedQuote === DEFAULT_PUBKEY ? WSOL_MINT : storedQuote };
}

/** Decodes the pump Global account (curve constants). */
export function decodePumpGlobal(account: AccountBytes): PumpGlobal {
  assertAccountShape(account, {
    layout: "PumpGlobal",
    owners: [PUMP_PROGRAM_ADDRESS],
    size: [PUMP_GLOBAL_MIN_SIZE],
    discriminator: PUMP_GLOBAL_DISCRIMINATOR,
  });
  return globalDecoder.decode(account.data);
}

/** BondingCurve PDA of a mint: ["bonding-curve", mint]. */
export function findPumpBondingCurveAddress(mint: Address): Promise<Address> {
  return findPda(PUMP_PROGRAM_ADDRESS, ["bonding-curve", addressBytes(mint)]);
}

/** The curve's token vault: ATA(curve, mint's token program, mint). The SOL side is the curve's own lamports. */
export async function findPumpBondingCurveTokenVault(mint: Address, tokenProgram?: Address): Promise<Address> {
  return findAssociatedTokenAddress(await findPumpBondingCurveAddress(mint), mint, tokenProgram);
}

/** The single candidate for a mint; its quote mint is known only once the curve is decoded. */
export async function listPumpBondingCurveCandidates(mint: Address): Promise<PoolCandidate[]> {
  return [{ pool: await findPumpBondingCurveAddress(mint), kind: "pump-bonding-curve", quoteMint: null }];
}

type Related = "global";

/** Reserves live in the curve itself; only Global (for graduation progress) is read besides it. */
export function requiredAccountsForPumpBondingCurve(): RelatedAddresses<Related> {
  return { global: PUMP_GLOBAL_ADDRESS };
}

/**
 * Spot price of `mint` on its curve: virtual quote / virtual token reserves. Liquidity is the real quote
 * reserve; progress = 1 − real_token_reserves / Global.initial_real_token_reserves.
 */
export function priceFromPumpBondingCurve(
  curve: PumpBondingCurve,
  mint: Address,
  related: RelatedAccounts<Related>,
  decimalsOf: DecimalsOf,
): PoolPrice {
  const { initialRealTokenReserves } = decodePumpGlobal(related.global);
  const sold = initialRealTokenReserves - curve.realTokenReserves;
  return {
    kind: "pump-bonding-curve",
    baseMint: mint,
    quoteMint: curve.quoteMint,
    priceQuotePerBase: reservePrice(
      "PumpBondingCurve",
      curve.virtualTokenReserves,
      curve.virtualQuoteReserves,
      decimalsOf(mint),
      decimalsOf(curve.quoteMint),
    ),
    quoteLiquidity: curve.realQuoteReserves,
    baseReserve: curve.realTokenReserves,
    tradable: !curve.complete,
    extra: {
      curveProgress: ratio(sold > 0n ? sold : 0n, initialRealTokenReserves > 0n ? initialRealTokenReserves : 1n),
      complete: curve.complete,
    },
  };
}

/** The pump.fun curve of a mint, derived from the mint alone. */
export const pumpBondingCurveAdapter = definePoolAdapter({
  kind: "pump-bonding-curve",
  candidates: listPumpBondingCurveCandidates,
  decode: decodePumpBondingCurve,
  required: requiredAccountsForPumpBondingCurve,
  price: priceFromPumpBondingCurve,
});

/** buy, buy_exact_sol_in, sell: mint 2, bonding_curve 3, associated_bonding_curve 4, user 6 (pump IDL, pump-public-docs @1b822158). */
const pumpLegacySwaps = new Set(["66063d1201daebea", "38fc74089edfcd5f", "33e685a4017f83ad"]);
/** buy_v2, sell_v2, buy_exact_quote_in_v2: base/quote mint 1/2, bonding_curve 10, associated base/quote bonding curve 11/12, user 13. */
const pumpV2Swaps = new Set(["b817ee6167c5d33d", "5df6823ce7e940b2", "c2ab1c46684d5b2f"]);

/**
 * The curve and reserves of a pump.fun swap: the curve's token account and, for SOL-paired curves, the curve's own
 * lamports (v2 instructions with quote mint wSOL move native SOL too, BUY.md / SELL.md); otherwise its quote token account.
 */
export const pumpBondingCurveSwapReserves: SwapReservesReader = (data, key, count) => {
  const tag = instructionTag(data);
  if (pumpLegacySwaps.has(tag) && count >= 7) {
    const at = accountsAt(key, [2, 3, 4, 6]);
    if (!at) return undefined;
    const [mint, curve, curveTokens, user] = at as [Address, Address, Address, Address];
    return { kind: "pump-bonding-curve", pool: curve, reserves: [{ account: curveTokens, mint }, { account: curve, mint: WSOL_MINT, lamports: true }], order: "given", user };
  }
  if (pumpV2Swaps.has(tag) && count >= 14) {
    const at = accountsAt(key, [1, 2, 10, 11, 12, 13]);
    if (!at) return undefined;
    const [baseMint, quoteMint, curve, curveBase, curveQuote, user] = at as [Address, Address, Address, Address, Address, Address];
    const quote = quoteMint === WSOL_MINT ? { account: curve, mint: WSOL_MINT, lamports: true } : { account: curveQuote, mint: quoteMint };
    return { kind: "pump-bonding-curve", pool: curve, reserves: [{ account: curveBase, mint: baseMint }, quote], order: "given", user };
  }
  return undefined;
};

/**
 * create / create_v2 (mint 0, bonding_curve 2) → a created curve; migrate (mint 2, bonding_curve 3, pool 9, pool
 * base/quote token account 17/18) and migrate_v2 (base/quote mint 2/3, bonding_curve 4, pool 10, vaults 17/18) → the
 * curve migrated and the canonical PumpSwap pool it created.
 */
export const pumpBondingCurvePoolLifecycle: PoolLifecycleReader = (data, key, count) => {
  const tag = instructionTag(data);
  const related = requiredAccountsForPumpBondingCurve();
  if ((tag === "181ec828051c0777" || tag === "d6904cec5f8b31b4") && count >= 3) {
    const at = accountsAt(key, [0, 2]);
    if (!at) return [];
    const [mint, curve] = at as [Address, Address];
    return [{ type: "create", kind: "pump-bonding-curve", pool: curve, mints: [mint, WSOL_MINT], related }];
  }
  const v2 = tag === "bbcb121fceedfe29";
  if ((tag === "9beae792ec9ea21e" || v2) && count >= 19) {
    const at = accountsAt(key, v2 ? [2, 3, 4, 10, 17, 18] : [2, 14, 3, 9, 17, 18]);
    if (!at) return [];
    const [baseMint, quoteMint, curve, pool, baseVault, quoteVault] = at as [Address, Address, Address, Address, Address, Address];
    return [
      { type: "migrate", kind: "pump-bonding-curve", pool: curve, mints: [baseMint, quoteMint], related },
      { type: "create", kind: "pumpswap", pool, mints: [baseMint, quoteMint], related: { baseVault, quoteVault } },
    ];
  }
  return [];
};

/** The TradeEvent every swap emits (sha256("event:TradeEvent")[0..8] = bddb7fd34ee661ee). */
const PUMP_TRADE_EVENT_PREFIX = anchorEventPrefix("bddb7fd34ee661ee");

/**
 * The pump TradeEvent a swap emits as a self-CPI (instruction data = prefix ‖ borsh): mint @16, sol_amount u64 @48,
 * token_amount @56, is_buy @64. sol_amount is what the curve's lamports gained (buy) or lost (sell) — a sell pays out
 * with direct lamport debits, which no CPI shows. Undefined when `data` is not such an event (or is truncated).
 */
export function decodePumpTradeEventInstruction(data: Uint8Array): { mint: Address; solAmount: bigint; tokenAmount: bigint; isBuy: boolean } | undefined {
  if (data.length < 65 || !isAnchorEvent(data, PUMP_TRADE_EVENT_PREFIX)) return undefined;
  const u64 = getU64Decoder();
  return {
    mint: getAddressDecoder().decode(data, 16),
    solAmount: u64.decode(data, 48),
    tokenAmount: u64.decode(data, 56),
    isBuy: data[64] === 1,
  };
}

/**
 * CompleteEvent (pump IDL, pump-fun/pump-public-docs @1b822158, 2026-05-19; sha256("event:CompleteEvent")[0..8] =
 * 5f72619cd42e9808): user @16, mint @48, bonding_curve @80, timestamp i64 @112, then quote_mint @120 (appended for
 * USDC-paired coins: older events end at 120 B; fields appended later are accepted, up to 256 B, and not read). The buy
 * that takes the curve's last tokens emits it: the curve graduated. Its pair is the swap's (the quote is wSOL for
 * SOL-paired curves, where the event's quote_mint is absent or the default key).
 */
export const pumpBondingCurvePoolGraduation = completionEventReader({
  kind: "pump-bonding-curve",
  discriminator: "5f72619cd42e9808",
  minSize: 120,
  maxSize: 256,
  poolOffset: 80,
  baseMintOffset: 48,
  related: () => requiredAccountsForPumpBondingCurve(),
});

/** pump.fun bonding curves: venue-a, `dex` "pumpfun". The curve account holds the SOL and owns the token vault; no activation gate. */
export const pumpBondingCurveVenue = defineVenue({
  kind: "pump-bonding-curve",
  dex: "pumpfun",
  venue: "venue-a",
  program: PUMP_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [],
  adapter: pumpBondingCurveAdapter,
  instructions: { swapReserves: pumpBondingCurveSwapReserves, lifecycle: pumpBondingCurvePoolLifecycle, graduation: pumpBondingCurvePoolGraduation },
  activation: null,
});
