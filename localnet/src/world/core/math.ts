/** Integer helpers for the venues' fixed-point math (all amounts are bigint atoms; Q64.64 prices). */
export const Q64 = 1n << 64n;
export const Q128 = 1n << 128n;

export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError("isqrt of negative");
  if (n < 2n) return n;
  // Newton's method from a power of two at or above the root: it falls monotonically onto floor(sqrt(n))
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export function minB(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
export function maxB(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** sqrt(price) as Q64.64 from a float price (raw units). */
export function sqrtPriceX64FromPrice(price: number): bigint {
  const s = Math.sqrt(price);
  // Split to keep precision for both tiny and huge prices.
  const exp = Math.floor(Math.log2(s));
  const mant = s / 2 ** exp; // in [1, 2)
  const m = BigInt(Math.round(mant * 2 ** 52));
  const shift = 64 + exp - 52;
  return shift >= 0 ? m << BigInt(shift) : m >> BigInt(-shift);
}

/** price (raw units, float) from sqrt Q64.64. */
export function priceFromSqrtX64(sqrt: bigint): number {
  const s = Number(sqrt) / 2 ** 64;
  return s * s;
}

/** Raydium/Uniswap tick at a sqrt price: floor(log_{1.0001}(price)). */
export function tickAtSqrtPrice(sqrt: bigint): number {
  const p = priceFromSqrtX64(sqrt);
  let t = Math.floor(Math.log(p) / Math.log(1.0001));
  // Correct float edge cases against the exact definition.
  while (sqrtPriceAtTick(t + 1) <= sqrt) t++;
  while (sqrtPriceAtTick(t) > sqrt) t--;
  return t;
}

export function sqrtPriceAtTick(tick: number): bigint {
  return sqrtPriceX64FromPrice(1.0001 ** tick);
}

export function toUi(amount: bigint, decimals: number): string {
  const neg = amount < 0n;
  const a = neg ? -amount : amount;
  const base = 10n ** BigInt(decimals);
  const whole = a / base;
  const frac = a % base;
  let s = whole.toString();
  if (decimals > 0 && frac > 0n) {
    s += "." + frac.toString().padStart(decimals, "0").replace(/0+$/, "");
  }
  return (neg ? "-" : "") + s;
}
