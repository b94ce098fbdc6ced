/**
 * ⌊√n⌋ of a non-negative integer, as the programs' `sqrt_u256` / integer square roots compute it: Newton's method from
 * a power of two at or above the root, which decreases to it (a start below a large root would climb one by one).
 */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
