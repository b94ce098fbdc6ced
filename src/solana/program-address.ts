import { getAddressEncoder, type Address } from "@solana/kit";
import { limits } from "../limits";
import { base58Encode } from "./base58";

/**
 * Synchronous program-derived addresses, the same results as kit's `getProgramDerivedAddress` at a fraction of the CPU:
 * pricing derives ~58 PDAs per never-seen mint (a 100-mint list: ~5,800 PDAs, ~11,600 hash + curve tests), and kit's
 * async SHA-256 plus BigInt exponentiation costs ~0.5 ms a PDA. Here, per bump attempt, without allocation:
 * - SHA-256 is our own compression function over one reused buffer; the blocks before the bump byte are compressed
 *   once per PDA (seeds of 64 bytes and more: most pool PDAs), and the schedules of the blocks after it (program,
 *   marker, padding) are computed once per PDA;
 * - the on-curve test is the Legendre symbol of u·v (x² = u/v) computed with field arithmetic in 16-bit limbs
 *   (doubles: two squarings, written out) and Lehmer's Euclid on 52-bit tops, the symbol read off the remainders'
 *   low bits (no BigInt but for a ~2^-25 fallback);
 * - the program's 32 bytes are decoded once per program (kit's BigInt decoder costs ~20 µs a call).
 * Node 20: ~7 µs a PDA, of which the Jacobi symbol ~45 %, SHA-256 ~20 %, the two squarings ~10 %, base58 ~8 % (was
 * ~70 µs with node:crypto's hash and a BigInt Jacobi symbol; ~9.5 µs with the odd-quotient Euclid and looped squaring,
 * 2026-12). Equivalence with kit is tested on thousands of random points and seed sets, the limb arithmetic and the
 * Jacobi symbol against BigInt on edge values (test/unit/solana/program-address.test.ts).
 */
// ---------------------------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4). Constants computed exactly at load (integer roots in BigInt) instead of a hand-typed table.

/** floor(root-th root of x) for x ≥ 0, by Newton's method on integers. */
function integerRoot(x: bigint, root: bigint): bigint {
  if (x < 2n) return x;
  let r = 1n << (BigInt(x.toString(2).length) / root + 1n); // above the root
  for (;;) {
    const next = ((root - 1n) * r + x / r ** (root - 1n)) / root;
    if (next >= r) return r;
    r = next;
  }
}
const FIRST_PRIMES: number[] = [];
for (let n = 2; FIRST_PRIMES.length < 64; n++) if (FIRST_PRIMES.every((p) => n % p !== 0)) FIRST_PRIMES.push(n);
/** First 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = Int32Array.from(FIRST_PRIMES, (p) => Number(BigInt.asIntN(32, integerRoot(BigInt(p) << 96n, 3n))));
/** First 32 bits of the fractional parts of the square roots of the first 8 primes. */
const H0 = Int32Array.from(FIRST_PRIMES.slice(0, 8), (p) => Number(BigInt.asIntN(32, integerRoot(BigInt(p) << 64n, 2n))));
const W = new Int32Array(64);

/** The message schedule of the 64 bytes of `m` at `at`, into `w` at `wAt` (64 words). */
function schedule(w: Int32Array, wAt: number, m: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4) w[wAt + i] = (m[at]! << 24) | (m[at + 1]! << 16) | (m[at + 2]! << 8) | m[at + 3]!;
  for (let i = wAt + 16; i < wAt + 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
}

/** One SHA-256 compression of the 64 bytes of `m` at `at` into `state`. */
function compress(state: Int32Array, m: Uint8Array, at: number): void {
  schedule(W, 0, m, at);
  rounds(state, W, 0);
}

/** The 64 rounds over a block's schedule (`w` at `wAt`), added into `state`. */
function rounds(state: Int32Array, w: Int32Array, wAt: number): void {
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[wAt + i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

// ---------------------------------------------------------------------------------------------------------------
// GF(2^255 − 19) in 16 limbs of 16 bits held in doubles: a product of two limbs is < 2^34 even when a limb is a few
// units outside [0, 2^16), a row of 16 such products times 38 (2^256 ≡ 38) stays far below 2^53, so all of it is exact.

type Fe = Float64Array;
const fe = (): Fe => new Float64Array(16);

export function feFromBigInt(value: bigint): Fe {
  const out = fe();
  for (let i = 0; i < 16; i++) out[i] = Number((value >> BigInt(16 * i)) & 0xffffn);
  return out;
}
const P_BIG = 2n ** 255n - 19n;
const P_LIMBS = feFromBigInt(P_BIG);
/** Edwards d = −121665/121666 mod p. */
export const D_BIG = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
/**
 * u·v = (y² − 1)(d·y² + 1) = d·(y⁴ + C1·y² + C0) with C1 = (1 − d)/d and C0 = −1/d (mod p), and d is not a square, so
 * u·v is a square iff y⁴ + C1·y² + C0 = (y² + A)² + B is not, with A = C1/2 and B = C0 − A² (the test checks all four):
 * two squarings.
 */
export const C1_BIG = 29203323570479832313932222820853031755424015489030106335172286495629888845890n;
export const C0_BIG = 28692721048178265397853269683490922171210976843790175684556505508326675974058n;
export const A_BIG = 14601661785239916156966111410426515877712007744515053167586143247814944422945n;
export const B_BIG = 43309908434708602038390757509173233814020214631906009000025975750854582184114n;
const A_LIMBS = feFromBigInt(A_BIG);
const B_LIMBS = feFromBigInt(B_BIG);

const INVERSE_2_16 = 2 ** -16;
/** Carries every limb into [0, 2^16); the value (mod p) is unchanged and ends in [0, 2^256). */
function feCarry(o: Fe): void {
  let c = 0;
  for (let i = 0; i < 16; i++) {
    const x = o[i]! + c;
    c = Math.floor(x * INVERSE_2_16); // × 2^−16 is exact; a division is several times dearer
    o[i] = x - c * 65536;
  }
  // 2^256 ≡ 38: the top carry goes back in at limb 0 and ripples only as far as it carries (mostly a limb or two)
  while (c !== 0) {
    c *= 38;
    for (let i = 0; i < 16 && c !== 0; i++) {
      const x = o[i]! + c;
      c = Math.floor(x * INVERSE_2_16);
      o[i] = x - c * 65536;
    }
  }
}

/**
 * o = a² mod p: each cross product once, doubled; 2^256 ≡ 38 folds the high columns in. Written out column by column
 * (the limbs in locals): V8 runs the same sums as nested loops over typed arrays ~2.7× slower. `o` may alias `a`.
 */
function feSquare(o: Fe, a: Fe): void {
  const a0 = a[0]!, a1 = a[1]!, a2 = a[2]!, a3 = a[3]!, a4 = a[4]!, a5 = a[5]!, a6 = a[6]!, a7 = a[7]!;
  const a8 = a[8]!, a9 = a[9]!, a10 = a[10]!, a11 = a[11]!, a12 = a[12]!, a13 = a[13]!, a14 = a[14]!, a15 = a[15]!;
  const t16 = 2 * (a1 * a15 + a2 * a14 + a3 * a13 + a4 * a12 + a5 * a11 + a6 * a10 + a7 * a9) + a8 * a8;
  const t17 = 2 * (a2 * a15 + a3 * a14 + a4 * a13 + a5 * a12 + a6 * a11 + a7 * a10 + a8 * a9);
  const t18 = 2 * (a3 * a15 + a4 * a14 + a5 * a13 + a6 * a12 + a7 * a11 + a8 * a10) + a9 * a9;
  const t19 = 2 * (a4 * a15 + a5 * a14 + a6 * a13 + a7 * a12 + a8 * a11 + a9 * a10);
  const t20 = 2 * (a5 * a15 + a6 * a14 + a7 * a13 + a8 * a12 + a9 * a11) + a10 * a10;
  const t21 = 2 * (a6 * a15 + a7 * a14 + a8 * a13 + a9 * a12 + a10 * a11);
  const t22 = 2 * (a7 * a15 + a8 * a14 + a9 * a13 + a10 * a12) + a11 * a11;
  const t23 = 2 * (a8 * a15 + a9 * a14 + a10 * a13 + a11 * a12);
  const t24 = 2 * (a9 * a15 + a10 * a14 + a11 * a13) + a12 * a12;
  const t25 = 2 * (a10 * a15 + a11 * a14 + a12 * a13);
  const t26 = 2 * (a11 * a15 + a12 * a14) + a13 * a13;
  const t27 = 2 * (a12 * a15 + a13 * a14);
  const t28 = 2 * a13 * a15 + a14 * a14;
  const t29 = 2 * a14 * a15;
  const t30 = a15 * a15;
  o[0] = a0 * a0 + 38 * t16;
  o[1] = 2 * a0 * a1 + 38 * t17;
  o[2] = 2 * a0 * a2 + a1 * a1 + 38 * t18;
  o[3] = 2 * (a0 * a3 + a1 * a2) + 38 * t19;
  o[4] = 2 * (a0 * a4 + a1 * a3) + a2 * a2 + 38 * t20;
  o[5] = 2 * (a0 * a5 + a1 * a4 + a2 * a3) + 38 * t21;
  o[6] = 2 * (a0 * a6 + a1 * a5 + a2 * a4) + a3 * a3 + 38 * t22;
  o[7] = 2 * (a0 * a7 + a1 * a6 + a2 * a5 + a3 * a4) + 38 * t23;
  o[8] = 2 * (a0 * a8 + a1 * a7 + a2 * a6 + a3 * a5) + a4 * a4 + 38 * t24;
  o[9] = 2 * (a0 * a9 + a1 * a8 + a2 * a7 + a3 * a6 + a4 * a5) + 38 * t25;
  o[10] = 2 * (a0 * a10 + a1 * a9 + a2 * a8 + a3 * a7 + a4 * a6) + a5 * a5 + 38 * t26;
  o[11] = 2 * (a0 * a11 + a1 * a10 + a2 * a9 + a3 * a8 + a4 * a7 + a5 * a6) + 38 * t27;
  o[12] = 2 * (a0 * a12 + a1 * a11 + a2 * a10 + a3 * a9 + a4 * a8 + a5 * a7) + a6 * a6 + 38 * t28;
  o[13] = 2 * (a0 * a13 + a1 * a12 + a2 * a11 + a3 * a10 + a4 * a9 + a5 * a8 + a6 * a7) + 38 * t29;
  o[14] = 2 * (a0 * a14 + a1 * a13 + a2 * a12 + a3 * a11 + a4 * a10 + a5 * a9 + a6 * a8) + a7 * a7 + 38 * t30;
  o[15] = 2 * (a0 * a15 + a1 * a14 + a2 * a13 + a3 * a12 + a4 * a11 + a5 * a10 + a6 * a9 + a7 * a8);
  feCarry(o);
}

const REDUCED = fe();
/**
 * The canonical value of a carried element: 2^255 ≡ 19 folds the top bit in (half of all values), leaving a value
 * below 2^255 + 19, which is at least p only when its top limb is p's (once in 2^15): then p is subtracted.
 */
function feFreeze(o: Fe): void {
  if (o[15]! >= 32768) {
    o[15] = o[15]! - 32768;
    let c = 19;
    for (let i = 0; i < 16 && c !== 0; i++) {
      const x = o[i]! + c;
      c = x >= 65536 ? 1 : 0;
      o[i] = x - c * 65536;
    }
  }
  if (o[15]! < 32767) return;
  let borrow = 0;
  for (let i = 0; i < 16; i++) {
    let x = o[i]! - P_LIMBS[i]! - borrow;
    borrow = x < 0 ? 1 : 0;
    x += borrow * 65536;
    REDUCED[i] = x;
  }
  if (borrow === 0) o.set(REDUCED);
}

// ---------------------------------------------------------------------------------------------------------------
// Jacobi symbol (g/p) by Lehmer's Euclid (ordinary quotients) with the symbol read off the low bits of the remainders.
// For a pair (x, y) of coprime nonnegative integers, at least one odd, let J(x, y) = (y/x) when x is odd, else (x/y).
// A step (x, y) → (y, r), r = x − q·y, keeps J up to a sign known from the low bits of x, y and r alone:
//   x even (y odd): (x/y) = (r/y) = J(y, r) — no flip;
//   x, y odd: (y/x) = (x/y)·(−1 when x ≡ y ≡ 3 mod 4) = (r/y)·… = J(y, r)·…;
//   x odd, y = 2^e·y' even (r odd, r ≡ x mod y): (y/x) = (y/r)·((2/x)(2/r))^e·(−1 when y' ≡ 3 and x ≢ r mod 4)
//   (the twos and reciprocity through y', with x ≡ r mod y').
// J(p, g) = (g/p), and the sequence ends at (1, 0), where J = 1. Ordinary quotients (not the odd ones with the twos
// divided out, nor the nearest ones) keep a step to a division, a multiply and a subtraction on one chain, all on exact
// doubles: measured fastest (~1.6 µs a symbol against ~2.4 µs for the odd-quotient Euclid, Node 20, 2026-12).
// Each batch runs the steps on the top 52 bits of both operands (exact integers) with the matrix of cofactors, its
// entries bounded by 2^25, and their exact low 32 bits as int32 (Math.imul: exact mod 2^32) for the signs; a step is
// taken only when Jebelean's condition shows its quotient to be the true one: with cofactor magnitudes V (which
// dominate from the first step), r ≥ V_next and y − r ≥ V + V_next (the truncated low bits move each value by less
// than its cofactors' magnitudes at the top's scale). The batch then applies the matrix to the operands in 26-bit
// limbs (|entries| ≤ 2^25: every limb product sum < 2^53, exact). Below 2^52 both operands are exact doubles and the
// steps run on them directly. A quotient past the batch's room (an operand far below the other, ~2^-25 a batch), or
// a remainder whose low 31 bits are all zero (its twos unknown, ~2^-31), or a run past `MAX_BATCHES` goes to the
// BigInt Euclid, so the result is exact.

const LIMB_BITS = 26;
const LIMB = 2 ** LIMB_BITS;
const INVERSE_LIMB = 2 ** -LIMB_BITS;
/** 10 limbs hold 260 bits ≥ 256; an eleventh keeps the top-bits read of the last batch in bounds. */
const LIMBS = 11;
const MAX_BATCHES = 40;
const MAX_ENTRY = 2 ** 25;
const JA = new Float64Array(LIMBS);
const JB = new Float64Array(LIMBS);
const P_JACOBI = new Float64Array(LIMBS);
for (let i = 0; i < LIMBS; i++) P_JACOBI[i] = Number((P_BIG >> BigInt(LIMB_BITS * i)) & BigInt(LIMB - 1));
const POWERS_OF_TWO = Float64Array.from({ length: 64 }, (_, i) => 2 ** i);
const INVERSE_POWERS_OF_TWO = Float64Array.from({ length: 64 }, (_, i) => 2 ** -i);

/** 16-bit limbs (canonical) → 26-bit limbs. */
function toJacobiLimbs(o: Float64Array, src: Fe): void {
  let acc = 0;
  let bits = 0;
  let k = 0;
  for (let i = 0; i < 16; i++) {
    acc += src[i]! * POWERS_OF_TWO[bits]!;
    bits += 16;
    if (bits >= LIMB_BITS) {
      const high = Math.floor(acc * INVERSE_LIMB);
      o[k++] = acc - high * LIMB;
      acc = high;
      bits -= LIMB_BITS;
    }
  }
  o[k++] = acc;
  while (k < LIMBS) o[k++] = 0;
}

/**
 * 1 when the symbol flips on the step (x, y) → (y, r), from their low 32 bits (int32) — y's low 31 bits not all
 * zero, so that its twos and the two bits above them are known. Branch-free: y's parity picks between the cases.
 */
function stepFlip(xl: number, yl: number, rl: number): number {
  const bothOdd = (xl & yl & 2) >> 1;
  const e = 31 - Math.clz32(yl & -yl);
  const odd = yl >> e;
  const yEven = ((e & ((xl >> 1) ^ (xl >> 2) ^ (rl >> 1) ^ (rl >> 2))) ^ ((odd >> 1) & ((xl ^ rl) >> 1))) & 1;
  return xl & (yEven ^ ((bothOdd ^ yEven) & -(yl & 1))) & 1;
}

/** The Jacobi symbol (g/p) of a canonical nonzero g < p: 1 when g is a square mod p, −1 when not. */
function legendre(g: Fe): number {
  const a = JA;
  const b = JB;
  a.set(P_JACOBI);
  toJacobiLimbs(b, g);
  let sign = 0;
  let len = 10;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    while (len > 1 && a[len - 1] === 0 && b[len - 1] === 0) len--;
    const bits = LIMB_BITS * (len - 1) + 32 - Math.clz32(Math.max(a[len - 1]!, b[len - 1]!));
    let xl = a[0]! | ((a[1]! & 63) << LIMB_BITS); // low 32 bits, exact as int32
    let yl = b[0]! | ((b[1]! & 63) << LIMB_BITS);
    if (bits <= 52) {
      let x = a[0]! + a[1]! * LIMB;
      let y = b[0]! + b[1]! * LIMB;
      for (;;) {
        if (y === 0) {
          if (x !== 1) throw new Error("Jacobi symbol of operands with a common factor");
          return sign === 0 ? 1 : -1;
        }
        if (yl << 1 === 0) break;
        let q = Math.floor(x / y);
        let r = x - q * y; // exact: q·y ≤ x + y < 2^53
        if (r < 0) {
          q--; // the rounded quotient may be one too high
          r += y;
        }
        const rl = (xl - Math.imul(q, yl)) | 0;
        sign ^= stepFlip(xl, yl, rl);
        x = y;
        y = r;
        xl = yl;
        yl = rl;
      }
      break;
    }
    if (yl << 1 === 0) break;
    // the top 52 bits of both at one scale: floor(value / 2^(26j + t))
    const scale = bits - 52;
    const j = Math.floor(scale / LIMB_BITS);
    const t = scale - LIMB_BITS * j;
    const high = POWERS_OF_TWO[52 - t]!;
    const middle = POWERS_OF_TWO[LIMB_BITS - t]!;
    const low = INVERSE_POWERS_OF_TWO[t]!;
    let x = a[j + 2]! * high + a[j + 1]! * middle + Math.floor(a[j]! * low);
    let y = b[j + 2]! * high + b[j + 1]! * middle + Math.floor(b[j]! * low);
    // Cofactor magnitudes: after i steps x = u0·A + v0·B and y = u1·A + v1·B with u0 = (−1)^i·U0, v0 = (−1)^(i+1)·V0,
    // u1 = (−1)^(i+1)·U1, v1 = (−1)^i·V1.
    let u0 = 1;
    let v0 = 0;
    let u1 = 0;
    let v1 = 1;
    let steps = 0;
    for (;;) {
      let q = Math.floor(x / y);
      let r = x - q * y;
      if (r < 0) {
        q--;
        r += y;
      }
      const v2 = v0 + q * v1;
      // Jebelean's condition, written to fail on NaN (y = 0 at a batch's start: a quotient past any room)
      if (!(r >= v2 && y - r >= v1 + v2 && v2 <= MAX_ENTRY)) break;
      const rl = (xl - Math.imul(q, yl)) | 0;
      if (rl << 1 === 0) break;
      sign ^= stepFlip(xl, yl, rl);
      const u2 = u0 + q * u1;
      u0 = u1;
      v0 = v1;
      u1 = u2;
      v1 = v2;
      x = y;
      y = r;
      xl = yl;
      yl = rl;
      steps++;
    }
    if (steps === 0) break;
    if ((steps & 1) === 1) {
      u0 = -u0;
      v1 = -v1;
    } else {
      v0 = -v0;
      u1 = -u1;
    }
    // (A, B) ← (u0·A + v0·B, u1·A + v1·B): both nonnegative and below the old A, so no carry is left at the top
    let carryA = 0;
    let carryB = 0;
    for (let i = 0; i < len; i++) {
      const ai = a[i]!;
      const bi = b[i]!;
      const xa = u0 * ai + v0 * bi + carryA;
      const xb = u1 * ai + v1 * bi + carryB;
      carryA = Math.floor(xa * INVERSE_LIMB); // signed: floor keeps the limb in [0, 2^26)
      carryB = Math.floor(xb * INVERSE_LIMB);
      a[i] = xa - carryA * LIMB;
      b[i] = xb - carryB * LIMB;
    }
  }
  return jacobiBigInt(feToBigInt(g), P_BIG);
}

/** (value/p) for 0 < value < p through the limb algorithm (tests compare it with the BigInt Euclid). */
export function legendreOf(value: bigint): number {
  return legendre(feFromBigInt(value));
}

/** value² mod p, canonical, for 0 ≤ value < 2^256 through the limb arithmetic (tests compare it with BigInt). */
export function squareOf(value: bigint): bigint {
  const o = feFromBigInt(value);
  feSquare(o, o);
  feFreeze(o);
  return feToBigInt(o);
}

/** value mod p for 0 ≤ value < 2^256 through the limb reduction (tests compare it with BigInt). */
export function canonicalOf(value: bigint): bigint {
  const o = feFromBigInt(value);
  feFreeze(o);
  return feToBigInt(o);
}

function feToBigInt(o: Fe): bigint {
  let value = 0n;
  for (let i = 15; i >= 0; i--) value = (value << 16n) | BigInt(o[i]!);
  return value;
}

/** Jacobi symbol (a/n) for odd n > 0 by Euclid with reciprocity (the fallback; also the tests' reference). */
export function jacobiBigInt(a: bigint, n: bigint): number {
  a %= n;
  let t = 1;
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n;
      const r = n & 7n;
      if (r === 3n || r === 5n) t = -t;
    }
    [a, n] = [n, a];
    if ((a & 3n) === 3n && (n & 3n) === 3n) t = -t;
    a %= n;
  }
  return n === 1n ? t : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// The on-curve test.

const Y = fe();
const Y2 = fe();
const T = fe();

/**
 * Whether 32 bytes decompress to an ed25519 point, with kit's semantics: y is read mod p; the point exists iff
 * x² = (y² − 1)/(d·y² + 1) has a root, i.e. u·v is a square (v is never 0, −1/d not being a square); when u = 0
 * (x = 0) a set sign bit is rejected.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) Y[i] = bytes[2 * i]! | (bytes[2 * i + 1]! << 8);
  return yOnCurve(((bytes[31] as number) & 0x80) !== 0);
}

/**
 * isOnCurve of a SHA-256 state's digest (its words big-endian), read straight into y's 16-bit limbs (little-endian):
 * the digest's bytes are only written out for the address, once an attempt lands off the curve.
 */
function digestOnCurve(state: Int32Array): boolean {
  for (let i = 0; i < 8; i++) {
    const word = state[i]!;
    Y[2 * i] = ((word >>> 24) & 0xff) | ((word >>> 8) & 0xff00);
    Y[2 * i + 1] = ((word >>> 8) & 0xff) | ((word << 8) & 0xff00);
  }
  return yOnCurve((state[7]! & 0x80) !== 0);
}

/** The on-curve test of the 16 limbs in Y, bit 255 (the sign of x) given apart. */
function yOnCurve(signBit: boolean): boolean {
  Y[15] = Y[15]! & 0x7fff;
  feSquare(Y2, Y);
  for (let i = 0; i < 16; i++) T[i] = Y2[i]! + A_LIMBS[i]!; // limbs < 2^17: products < 2^34, columns far below 2^53
  feSquare(T, T);
  for (let i = 0; i < 16; i++) T[i] = T[i]! + B_LIMBS[i]!;
  feCarry(T);
  feFreeze(T); // T = u·v / d
  let zero = true;
  for (let i = 0; i < 16; i++) if (T[i] !== 0) zero = false;
  if (zero) return !signBit; // u = 0 (v ≠ 0): x = 0
  return legendre(T) === -1; // d is not a square
}

// ---------------------------------------------------------------------------------------------------------------
// The derivation.

export type Seed = Uint8Array | string;

const MARKER = new TextEncoder().encode("ProgramDerivedAddress");
const utf8 = new TextEncoder();
const addressEncoder = getAddressEncoder();
/** Seeds (≤ 16 × 32 B, the bump one of them) + program + marker, padded: at most 10 blocks. */
const MESSAGE = new Uint8Array(16 * 32 + 32 + MARKER.length + 9 + 64);
const MIDSTATE = new Int32Array(8);
const STATE = new Int32Array(8);
const DIGEST = new Uint8Array(32);
/** Schedules of the blocks after the bump byte's (at most 9). */
const SCHEDULES = new Int32Array(9 * 64);

/**
 * Program addresses as bytes, decoded once. Programs are a short fixed list in practice; a caller deriving under
 * arbitrary programs clears it when full instead of growing it.
 */
const programBytesCache = new Map<string, Uint8Array>();
function programBytes(programAddress: Address): Uint8Array {
  let bytes = programBytesCache.get(programAddress);
  if (bytes === undefined) {
    if (programBytesCache.size >= limits.pdaProgramBytesEntries) programBytesCache.clear();
    bytes = new Uint8Array(addressEncoder.encode(programAddress));
    programBytesCache.set(programAddress, bytes);
  }
  return bytes;
}

/** The canonical PDA (highest bump that lands off the curve) and its bump. */
export function findProgramAddressSync(programAddress: Address, seeds: readonly Seed[]): [Address, number] {
  if (seeds.length > 15) throw new RangeError("more than 16 PDA seeds");
  const message = MESSAGE;
  let length = 0;
  for (const seed of seeds) {
    if (typeof seed === "string") {
      // Seeds are ASCII words in practice: written directly; anything else goes through the encoder.
      let ascii = seed.length <= 32;
      for (let i = 0; ascii && i < seed.length; i++) if (seed.charCodeAt(i) > 0x7f) ascii = false;
      if (ascii) {
        for (let i = 0; i < seed.length; i++) message[length + i] = seed.charCodeAt(i);
        length += seed.length;
        continue;
      }
      const encoded = utf8.encode(seed);
      if (encoded.length > 32) throw new RangeError("PDA seed longer than 32 bytes");
      message.set(encoded, length);
      length += encoded.length;
    } else {
      if (seed.length > 32) throw new RangeError("PDA seed longer than 32 bytes");
      message.set(seed, length);
      length += seed.length;
    }
  }
  const bumpAt = length;
  message.set(programBytes(programAddress), bumpAt + 1);
  message.set(MARKER, bumpAt + 33);
  length = bumpAt + 33 + MARKER.length;
  // Padding: 0x80, zeros to 56 mod 64, the bit length as a 64-bit big-endian integer (< 2^32 here).
  const blocks = Math.ceil((length + 9) / 64);
  const end = blocks * 64;
  message[length] = 0x80;
  message.fill(0, length + 1, end - 4);
  const bits = length * 8;
  message[end - 4] = bits >>> 24;
  message[end - 3] = (bits >>> 16) & 0xff;
  message[end - 2] = (bits >>> 8) & 0xff;
  message[end - 1] = bits & 0xff;
  // Blocks wholly before the bump byte are the same for every attempt.
  const fixedBlocks = Math.floor(bumpAt / 64);
  MIDSTATE.set(H0);
  for (let b = 0; b < fixedBlocks; b++) compress(MIDSTATE, message, b * 64);
  // Blocks after the bump byte's are the same bytes every attempt (only the state entering them differs): their
  // schedules are computed once per PDA (the schedule is ~45 % of a compression).
  const constantBlocks = blocks - fixedBlocks - 1;
  for (let b = 0; b < constantBlocks; b++) schedule(SCHEDULES, b * 64, message, (fixedBlocks + 1 + b) * 64);
  for (let bump = 255; bump >= 0; bump--) {
    message[bumpAt] = bump;
    STATE.set(MIDSTATE);
    compress(STATE, message, fixedBlocks * 64);
    for (let b = 0; b < constantBlocks; b++) rounds(STATE, SCHEDULES, b * 64);
    if (digestOnCurve(STATE)) continue;
    for (let i = 0; i < 8; i++) {
      const word = STATE[i]!;
      DIGEST[4 * i] = word >>> 24;
      DIGEST[4 * i + 1] = (word >>> 16) & 0xff;
      DIGEST[4 * i + 2] = (word >>> 8) & 0xff;
      DIGEST[4 * i + 3] = word & 0xff;
    }
    return [base58Encode(DIGEST) as Address, bump];
  }
  throw new Error("no off-curve program address for these seeds");
}
