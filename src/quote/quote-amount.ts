/**
 * The size of a quote as the caller gives it (`amount` in `unit`) and what it is in a pool's atoms. Bad input is a
 * 400 naming the parameter; a size a pool cannot express (a pool quoted in a third token for a SOL or USD size) is
 * that pool's refusal, not the request's.
 */
import type { Address } from "@solana/kit";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { fromPow10, mul, ratio, type Ratio } from "../math/fixed-point";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import { U64_MAX } from "./swap-math";

export const quoteUnits = ["token", "sol", "usd"] as const;
export type QuoteUnit = (typeof quoteUnits)[number];
export const quoteSides = ["buy", "sell"] as const;
export type QuoteSide = (typeof quoteSides)[number];

/** A positive decimal as an integer and its scale: "1.25" → {digits: 125n, scale: 2}. */
export interface DecimalAmount {
  readonly digits: bigint;
  readonly scale: number;
  readonly text: string;
}

const SOL_DECIMALS = 9;
const STABLE_DECIMALS = 6;

/** Reads `amount`: digits with at most one decimal point, above zero. Decimal places are checked per unit later. */
export function parseAmount(text: string): DecimalAmount {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) {
    const why = trimmed.startsWith("-") ? "must be positive" : "must be a decimal number such as 1.5";
    throw new ApiError("BAD_REQUEST", `Invalid amount "${text.slice(0, 40)}": ${why}`);
  }
  const [whole, fraction = ""] = trimmed.split(".") as [string, string?];
  const digits = BigInt(whole + fraction);
  if (digits === 0n) throw new ApiError("BAD_REQUEST", "Invalid amount: must be greater than zero");
  return { digits, scale: fraction.length, text: trimmed };
}

/** The amount in atoms of a `decimals`-place token: too many places, or past u64, is a 400 naming `amount`. */
export function amountInAtoms(amount: DecimalAmount, decimals: number, what: string): bigint {
  if (amount.scale > decimals) throw new ApiError("BAD_REQUEST", `Invalid amount: ${amount.text} has ${amount.scale} decimal places; ${what} has ${decimals}`);
  const atoms = amount.digits * 10n ** BigInt(decimals - amount.scale);
  if (atoms > U64_MAX) throw new ApiError("BAD_REQUEST", `Invalid amount: ${amount.text} is ${atoms} atoms of ${what}, beyond the largest amount a token holds (2^64 − 1)`);
  return atoms;
}

/** Checks a SOL or USD amount before anything is read (a token amount waits for the mint's decimals). */
export function checkUnitAmount(amount: DecimalAmount, unit: QuoteUnit): void {
  if (unit === "sol") amountInAtoms(amount, SOL_DECIMALS, "SOL");
  if (unit === "usd") amountInAtoms(amount, limits.maxUsdAmountDecimals, "a USD amount");
}

/**
 * A SOL or USD amount in atoms of a pool's quote mint: SOL is wSOL's lamports; USD is USDC's or USDT's atoms; across
 * them by SOL/USD, rounded down. Undefined when the quote mint is neither (the pool is refused with a reason).
 */
export function unitInQuoteAtoms(amount: DecimalAmount, unit: Exclude<QuoteUnit, "token">, quoteMint: Address, solUsd: Ratio): bigint | undefined {
  const value = ratio(amount.digits, 10n ** BigInt(amount.scale));
  const stable = quoteMint === USDC_MINT || quoteMint === USDT_MINT;
  if (quoteMint !== WSOL_MINT && !stable) return undefined;
  // value in the quote mint's whole units
  let whole: Ratio = value;
  if (unit === "sol" && stable) whole = mul(value, solUsd);
  if (unit === "usd" && !stable) whole = mul(value, { num: solUsd.den, den: solUsd.num });
  const atoms = mul(whole, fromPow10(stable ? STABLE_DECIMALS : SOL_DECIMALS));
  return atoms.num / atoms.den;
}
