/**
 * Integer swap math shared by the pool kinds, rounding exactly as the programs round (each function says which way).
 * Everything is bigint atoms or Q64.64 / Q128 fixed point; no float anywhere.
 */

export const Q64 = 1n << 64n;
export const Q128 = 1n << 128n;
export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;

/** ⌈a / b⌉ for a ≥ 0, b > 0. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

/** a·b / d, rounded up or down. */
export function mulDiv(a: bigint, b: bigint, d: bigint, up: boolean): bigint {
  return up ? ceilDiv(a * b, d) : (a * b) / d;
}

/** Constant product x·y = k, exact input: ⌊reserveOut · in / (reserveIn + in)⌋ (Raydium AMM v4 / CPMM, PumpSwap sell, Meteora DAMM v1). */
export function constantProductOut(reserveIn: bigint, reserveOut: bigint, amountIn: bigint): bigint {
  return (reserveOut * amountIn) / (reserveIn + amountIn);
}

// ---- Concentrated liquidity on one range (L constant between two sqrt prices) ----

/**
 * Token-0 / token-A amount between two Q64.64 sqrt prices: L·2^64·(b − a) / (a·b). Raydium CLMM rounds the two
 * divisions one after the other (`mul_div(_ceil)` by b, then by a); the nested floors equal one floor.
 */
export function deltaAmount0X64(a: bigint, b: bigint, liquidity: bigint, up: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const first = mulDiv(liquidity << 64n, hi - lo, hi, up);
  return up ? ceilDiv(first, lo) : first / lo;
}

/** Token-1 / token-B amount between two Q64.64 sqrt prices: L·(b − a) / 2^64. */
export function deltaAmount1X64(a: bigint, b: bigint, liquidity: bigint, up: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return mulDiv(liquidity, hi - lo, Q64, up);
}

/** Next Q64.64 sqrt price after adding token 0 (price falls), rounded up: ⌈L·2^64·s / (L·2^64 + in·s)⌉. */
export function nextSqrtFromAmount0X64(sqrt: bigint, liquidity: bigint, amountIn: bigint): bigint {
  if (amountIn === 0n) return sqrt;
  const numerator = liquidity << 64n;
  return ceilDiv(numerator * sqrt, numerator + amountIn * sqrt);
}

/** Next Q64.64 sqrt price after adding token 1 (price rises), rounded down: s + ⌊in·2^64 / L⌋. */
export function nextSqrtFromAmount1X64(sqrt: bigint, liquidity: bigint, amountIn: bigint): bigint {
  return sqrt + (amountIn << 64n) / liquidity;
}

// Meteora (DAMM v2, DBC) keeps liquidity scaled by 2^64 more (Q128 products): the same relations with other shifts.

/** Token A (base) between two sqrt prices, Meteora scaling: L·(b − a) / (a·b). */
export function meteoraDeltaA(a: bigint, b: bigint, liquidity: bigint, up: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return mulDiv(liquidity, hi - lo, lo * hi, up);
}

/** Token B (quote) between two sqrt prices, Meteora scaling: L·(b − a) / 2^128. */
export function meteoraDeltaB(a: bigint, b: bigint, liquidity: bigint, up: boolean): bigint {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return mulDiv(liquidity, hi - lo, Q128, up);
}

/** Next sqrt price after adding token A, rounded up: ⌈L·s / (L + in·s)⌉ (`get_next_sqrt_price_from_amount_a_rounding_up`). */
export function meteoraNextSqrtFromA(sqrt: bigint, liquidity: bigint, amountIn: bigint): bigint {
  if (amountIn === 0n) return sqrt;
  return ceilDiv(liquidity * sqrt, liquidity + amountIn * sqrt);
}

/** Next sqrt price after adding token B, rounded down: s + ⌊in·2^128 / L⌋ (`get_next_sqrt_price_from_amount_b_rounding_down`). */
export function meteoraNextSqrtFromB(sqrt: bigint, liquidity: bigint, amountIn: bigint): bigint {
  return sqrt + (amountIn << 128n) / liquidity;
}

// ---- Raydium CLMM tick math ----

export const RAYDIUM_MIN_TICK = -443636;
export const RAYDIUM_MAX_TICK = 443636;
/** Swap price limits with no explicit limit: MIN_SQRT_PRICE_X64 + 1 and MAX_SQRT_PRICE_X64 − 1 (tick_math.rs). */
export const RAYDIUM_MIN_SQRT_PRICE_X64 = 4295048016n;
export const RAYDIUM_MAX_SQRT_PRICE_X64 = 79226673521066979257578248091n;

/**
 * Raydium CLMM `tick_math::get_sqrt_price_at_tick` factors: √(1.0001^-(2^i)) in Q64.64, as the program truncates
 * them (raydium-io/raydium-clmm @03b44b7f programs/amm/src/libraries/tick_math.rs). Bit 0 first.
 */
const RAYDIUM_TICK_FACTORS = [
  0xfffcb933bd6fb800n, 0xfff97272373d4000n, 0xfff2e50f5f657000n, 0xffe5caca7e10f000n, 0xffcb9843d60f7000n,
  0xff973b41fa98e800n, 0xff2ea16466c9b000n, 0xfe5dee046a9a3800n, 0xfcbe86c7900bb000n, 0xf987a7253ac65800n,
  0xf3392b0822bb6000n, 0xe7159475a2caf000n, 0xd097f3bdfd2f2000n, 0xa9f746462d9f8000n, 0x70d869a156f31c00n,
  0x31be135f97ed3200n, 0x9aa508b5b85a500n, 0x5d6af8dedc582cn, 0x2216e584f5fan,
];

/** √(1.0001^tick)·2^64 exactly as Raydium CLMM computes it (the same bits, not the real number). */
export function raydiumSqrtPriceAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  let ratio = abs & 1 ? RAYDIUM_TICK_FACTORS[0]! : Q64;
  for (let i = 1; i < RAYDIUM_TICK_FACTORS.length; i++) {
    if (abs & (1 << i)) ratio = (ratio * RAYDIUM_TICK_FACTORS[i]!) >> 64n;
  }
  return tick > 0 ? U128_MAX / ratio : ratio;
}

/** The greatest tick whose sqrt price is ≤ `sqrt` (what the program stores as tick_current after a step). */
export function raydiumTickAtSqrtPrice(sqrt: bigint): number {
  let lo = RAYDIUM_MIN_TICK;
  let hi = RAYDIUM_MAX_TICK;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (raydiumSqrtPriceAtTick(mid) <= sqrt) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// ---- Orca Whirlpool tick math ----

export const ORCA_MIN_TICK = -443636;
export const ORCA_MAX_TICK = 443636;
/** The program's sqrt price bounds (tick_math.rs MIN/MAX_SQRT_PRICE_X64): the limits of a swap with no explicit limit. */
export const ORCA_MIN_SQRT_PRICE_X64 = 4295048016n;
export const ORCA_MAX_SQRT_PRICE_X64 = 79226673515401279992447579055n;

/**
 * Whirlpool `sqrt_price_from_tick_index` factors (orca-so/whirlpools @630c0e0 programs/whirlpool/src/math/tick_math.rs,
 * program 0.9.0): positive ticks multiply Q96 factors (`mul_shift_96`) and drop 32 bits at the end; negative ticks
 * multiply Q64 factors. Bit 0 first.
 */
const ORCA_POSITIVE_FACTORS = [
  79232123823359799118286999567n, 79236085330515764027303304731n, 79244008939048815603706035061n, 79259858533276714757314932305n,
  79291567232598584799939703904n, 79355022692464371645785046466n, 79482085999252804386437311141n, 79736823300114093921829183326n,
  80248749790819932309965073892n, 81282483887344747381513967011n, 83390072131320151908154831281n, 87770609709833776024991924138n,
  97234110755111693312479820773n, 119332217159966728226237229890n, 179736315981702064433883588727n, 407748233172238350107850275304n,
  2098478828474011932436660412517n, 55581415166113811149459800483533n, 38992368544603139932233054999993551n,
];
const ORCA_NEGATIVE_FACTORS = [
  18445821805675392311n, 18444899583751176498n, 18443055278223354162n, 18439367220385604838n, 18431993317065449817n,
  18417254355718160513n, 18387811781193591352n, 18329067761203520168n, 18212142134806087854n, 17980523815641551639n,
  17526086738831147013n, 16651378430235024244n, 15030750278693429944n, 12247334978882834399n, 8131365268884726200n,
  3584323654723342297n, 696457651847595233n, 26294789957452057n, 37481735321082n,
];
const Q96 = 1n << 96n;

/** √(1.0001^tick)·2^64 exactly as the Whirlpool program computes it. */
export function orcaSqrtPriceAtTick(tick: number): bigint {
  if (tick >= 0) {
    let ratio = tick & 1 ? ORCA_POSITIVE_FACTORS[0]! : Q96;
    for (let i = 1; i < ORCA_POSITIVE_FACTORS.length; i++) if (tick & (1 << i)) ratio = (ratio * ORCA_POSITIVE_FACTORS[i]!) >> 96n;
    return ratio >> 32n;
  }
  const abs = -tick;
  let ratio = abs & 1 ? ORCA_NEGATIVE_FACTORS[0]! : Q64;
  for (let i = 1; i < ORCA_NEGATIVE_FACTORS.length; i++) if (abs & (1 << i)) ratio = (ratio * ORCA_NEGATIVE_FACTORS[i]!) >> 64n;
  return ratio;
}

// ---- StableSwap (two coins), as Meteora DAMM v1's stable curve runs it ----

/**
 * Invariant D of two normalised balances by Newton's method, to within 1 (Saber stable-swap math `compute_d2`, which
 * DAMM v1 uses with its amp as both the initial and the target amplification): Ann = amp·2,
 * D ← (Ann·S + 2·Dp)·D / ((Ann − 1)·D + 3·Dp), Dp = ⌊⌊D²/2x⌋·D/2y⌋.
 */
export function stableSwapD(amp: bigint, x: bigint, y: bigint): bigint {
  const sum = x + y;
  if (sum === 0n) return 0n;
  const ann = amp * 2n;
  let d = sum;
  for (let i = 0; i < 256; i++) {
    const dProd = (((d * d) / (x * 2n)) * d) / (y * 2n);
    const previous = d;
    d = (d * (dProd * 2n + sum * ann)) / (d * (ann - 1n) + dProd * 3n);
    if (d - previous <= 1n && previous - d <= 1n) break;
  }
  return d;
}

/** The other balance y for a balance x on invariant D (`compute_y_raw2`): y ← (y² + c) / (2y + b − D), to within 1. */
export function stableSwapY(amp: bigint, x: bigint, d: bigint): bigint {
  const ann = amp * 2n;
  const c = (((d * d) / (x * 2n)) * d) / (ann * 2n);
  const b = d / ann + x;
  let y = d;
  for (let i = 0; i < 256; i++) {
    const previous = y;
    y = (y * y + c) / (y * 2n + b - d);
    if (y - previous <= 1n && previous - y <= 1n) break;
  }
  return y;
}

/** What `amountIn` (normalised) takes out of the other side (`swap_to2`, no fee inside): dest − y − 1, or undefined below 0. */
export function stableSwapOut(amp: bigint, amountIn: bigint, sourceReserve: bigint, destReserve: bigint): bigint | undefined {
  const y = stableSwapY(amp, sourceReserve + amountIn, stableSwapD(amp, sourceReserve, destReserve));
  const out = destReserve - y - 1n;
  return out >= 0n ? out : undefined;
}

/** `tick_index_from_sqrt_price`: the greatest tick whose Whirlpool sqrt price is ≤ `sqrt`. */
export function orcaTickAtSqrtPrice(sqrt: bigint): number {
  let lo = ORCA_MIN_TICK;
  let hi = ORCA_MAX_TICK;
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    if (orcaSqrtPriceAtTick(mid) <= sqrt) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
