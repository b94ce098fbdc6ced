/**
 * Exact rational arithmetic on bigint. Prices stay exact from account bytes to the final decimal string:
 * no float is involved anywhere before `toDecimalString`.
 */

/** An exact rational number `num / den`; `den` is always positive. Not necessarily reduced. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

/** Builds a ratio, moving the sign to the numerator. Throws `RangeError` on a zero denominator. */
export function ratio(num: bigint, den: bigint = 1n): Ratio {
  if (den === 0n) throw new RangeError("ratio: zero denominator");
  return den < 0n ? { num: -num, den: -den } : { num, den };
}

/** a × b. */
export function mul(a: Ratio, b: Ratio): Ratio {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** a ÷ b. Throws `RangeError` when b is zero. */
export function div(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den, a.den * b.num);
}

/** 1 ÷ r. Throws `RangeError` when r is zero. */
export function invert(r: Ratio): Ratio {
  return ratio(r.den, r.num);
}

/** 10^exponent exactly (a negative exponent gives 1 / 10^-exponent). */
export function fromPow10(exponent: number): Ratio {
  if (!Number.isSafeInteger(exponent)) throw new RangeError("fromPow10: exponent must be an integer");
  return exponent >= 0 ? { num: 10n ** BigInt(exponent), den: 1n } : { num: 1n, den: 10n ** BigInt(-exponent) };
}

/** Sign of a − b: -1, 0 or 1. */
export function compare(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Plain decimal rendering (no exponent) rounded half away from zero to `significantDigits` significant digits,
 * trailing fractional zeros removed: 2.8123456789e-8 → "0.000000028123456789". A number whose integer part
 * already has at least that many digits is rendered as its rounded integer, every digit kept.
 */
export function toDecimalString(r: Ratio, significantDigits: number): string {
  if (!Number.isSafeInteger(significantDigits) || significantDigits < 1) {
    throw new RangeError("toDecimalString: significantDigits must be a positive integer");
  }
  const negative = r.num < 0n;
  const n = negative ? -r.num : r.num;
  if (n === 0n) return "0";
  const d = r.den;
  const fractionDigits = Math.max(0, significantDigits - 1 - decimalExponent(n, d));
  const scale = 10n ** BigInt(fractionDigits);
  const scaled = (2n * n * scale + d) / (2n * d);
  if (scaled === 0n) return "0";
  const digits = scaled.toString().padStart(fractionDigits + 1, "0");
  const integerPart = digits.slice(0, digits.length - fractionDigits);
  const fraction = digits.slice(digits.length - fractionDigits).replace(/0+$/, "");
  return (negative ? "-" : "") + integerPart + (fraction === "" ? "" : "." + fraction);
}

/** floor(log10(n / d)) for positive n, d, from digit counts plus one exact comparison. */
function decimalExponent(n: bigint, d: bigint): number {
  const estimate = n.toString().length - d.toString().length;
  const atLeast =
    estimate >= 0 ? n >= d * 10n ** BigInt(estimate) : n * 10n ** BigInt(-estimate) >= d;
  return atLeast ? estimate : estimate - 1;
}
