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
 *   (doubles: two squarings) and an odd-quotient Euclid batched on 52-bit approximations (no BigInt but for a
 *   ~2^-25 fallback);
 * - the program's 32 bytes are decoded once per program (kit's BigInt decoder costs ~20 µs a call).
 * Node 20: ~7 µs a PDA (was ~70 µs with node:crypto's hash and a BigInt Jacobi symbol). Equivalence with kit is tested
 * on thousands of random points and seed sets, the Jacobi symbol against the BigInt Euclid on edge values
 * (test/unit/solana/program-address.test.ts).
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
const PRODUCT = new Float64Array(31);

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
  for (;;) {
    let c = 0;
    for (let i = 0; i < 16; i++) {
      const x = o[i]! + c;
      c = Math.floor(x * INVERSE_2_16); // × 2^−16 is exact; a division is several times dearer
      o[i] = x - c * 65536;
    }
    if (c === 0) return;
    o[0] = o[0]! + 38 * c;
  }
}

/** o = a² mod p: each cross product once, doubled. `o` may alias `a`. */
function feSquare(o: Fe, a: Fe): void {
  const t = PRODUCT;
  for (let k = 0; k < 31; k++) {
    let sum = 0;
    let i = k < 16 ? 0 : k - 15;
    let j = k - i;
    for (; i < j; i++, j--) sum += a[i]! * a[j]!;
    sum *= 2;
    if (i === j) sum += a[i]! * a[i]!;
    t[k] = sum;
  }
  for (let i = 0; i < 15; i++) o[i] = t[i]! + 38 * t[i + 16]!;
  o[15] = t[15]!;
  feCarry(o);
}

const REDUCED = fe();
/** The canonical value of a carried element: subtracts p while the value is at least p (at most twice below 2^256). */
function feFreeze(o: Fe): void {
  for (let round = 0; round < 2; round++) {
    let borrow = 0;
    for (let i = 0; i < 16; i++) {
      let x = o[i]! - P_LIMBS[i]! - borrow;
      borrow = x < 0 ? 1 : 0;
      x += borrow * 65536;
      REDUCED[i] = x;
    }
    if (borrow === 1) return;
    o.set(REDUCED);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Jacobi symbol (g/p) by an odd-quotient Euclid, batched à la Lehmer. With a > b both odd, positive and coprime, and
// the symbol tracked as ±(b/a):
//   q = the odd one of ⌊a/b⌋ and ⌊a/b⌋ − 1, r = a − q·b (even, in [0, 2b)), r = 2^k·r' with r' odd;
//   (b/a) = ±(a/b) (reciprocity: flips when a ≡ b ≡ 3 mod 4) = ±(r/b) = ±(2/b)^k·(r'/b) (flips when k is odd and
//   b ≡ 3 or 5 mod 8); the pair becomes (b, r'), until b = 1 (where the symbol is the tracked sign).
// A quotient of 0 (a < b) swaps the pair (reciprocity). Each batch runs steps on 52-bit approximations of a and b
// (their top bits at one scale; ~80 steps and ~9 batches for 255-bit operands, where binary divsteps take ~750 steps
// in ~29 batches) with their exact low 32 bits as int32 (enough for the signs and the twos: a batch stops before its
// shifts K exceed 26), tracking the 2×2 matrix of signed integers with (a, b) = M·(A, B)/2^K, then applies it to the
// full operands in 26-bit limbs (|entries| ≤ 2^25: every limb product sum < 2^53, exact). A step is taken only when
// the approximate r' exceeds its error bound (the truncated top bits and the roundings, through the matrix), so the
// true r' is positive and every step is exact bookkeeping; a wrong approximate quotient only costs progress. Below
// 2^52 both operands are exact doubles and the steps run on them directly. An operand that stalls a batch (a
// quotient ≥ 2^25, ~2^-25 per step) or runs past `MAX_BATCHES` goes to the BigInt Euclid, so the result is exact.

const LIMB_BITS = 26;
const LIMB = 2 ** LIMB_BITS;
const INVERSE_LIMB = 2 ** -LIMB_BITS;
/** 10 limbs hold 260 bits ≥ 255; two more give a batch's result room for a carry. */
const LIMBS = 12;
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

/** The low 32 bits of a nonnegative integer double below 2^53, as int32. */
function lowWord(x: number): number {
  return (x - Math.floor(x * 2 ** -32) * 2 ** 32) | 0;
}

/** Bit length of a limb-sized (< 2^26) nonnegative integer. */
const bitLength = (x: number): number => 32 - Math.clz32(x);

/** floor(x / 2^(26j + t)) for limbs x < 2^(26j + t + 52): an exact integer below 2^52. */
function topBits(x: Float64Array, j: number, t: number): number {
  return x[j + 2]! * POWERS_OF_TWO[52 - t]! + x[j + 1]! * POWERS_OF_TWO[26 - t]! + Math.floor(x[j]! * INVERSE_POWERS_OF_TWO[t]!);
}

/**
 * (A, B) ← ((m00·A + m01·B)/2^K, (m10·A + m11·B)/2^K) over limbs 0..len (limb len zero on entry, room for a carry);
 * the division is exact, applied a limb behind the products. Returns the new length.
 */
function applyMatrix(len: number, m00: number, m01: number, m10: number, m11: number, shift: number): number {
  const a = JA;
  const b = JB;
  const inverse = INVERSE_POWERS_OF_TWO[shift]!;
  const low = POWERS_OF_TWO[shift]!;
  const up = POWERS_OF_TWO[LIMB_BITS - shift]!;
  let carryA = 0;
  let carryB = 0;
  let previousA = 0;
  let previousB = 0;
  for (let i = 0; i <= len; i++) {
    const ai = a[i]!;
    const bi = b[i]!;
    const xa = m00 * ai + m01 * bi + carryA;
    const xb = m10 * ai + m11 * bi + carryB;
    carryA = Math.floor(xa * INVERSE_LIMB); // signed: floor keeps the limb in [0, 2^26)
    carryB = Math.floor(xb * INVERSE_LIMB);
    const la = xa - carryA * LIMB;
    const lb = xb - carryB * LIMB;
    if (i > 0) {
      const highA = Math.floor(la * inverse);
      const highB = Math.floor(lb * inverse);
      a[i - 1] = Math.floor(previousA * inverse) + (la - highA * low) * up;
      b[i - 1] = Math.floor(previousB * inverse) + (lb - highB * low) * up;
    }
    previousA = la;
    previousB = lb;
  }
  a[len] = Math.floor(previousA * inverse); // the results are nonnegative and below 2^(26·(len + 1)): no carry left
  b[len] = Math.floor(previousB * inverse);
  return a[len] !== 0 || b[len] !== 0 ? len + 1 : len;
}

/** The Jacobi symbol (g/p) of a canonical nonzero g < p: 1 when g is a square mod p, −1 when not. */
function legendre(g: Fe): number {
  const a = JA;
  const b = JB;
  a.set(P_JACOBI);
  toJacobiLimbs(b, g);
  if (b[0] === 0) return jacobiBigInt(feToBigInt(g), P_BIG); // 2^26 | g: once in 2^26
  // b = g / 2^k, odd; (2/p) = −1 (p ≡ 5 mod 8), so the sign flips when k is odd
  const low0 = b[0]! | 0;
  const k0 = 31 - Math.clz32(low0 & -low0);
  let sign = k0 & 1;
  if (k0 > 0) {
    const inverse = INVERSE_POWERS_OF_TWO[k0]!;
    const mask = POWERS_OF_TWO[k0]!;
    const up = POWERS_OF_TWO[LIMB_BITS - k0]!;
    for (let i = 0; i < LIMBS - 1; i++) {
      const next = b[i + 1]!;
      const high = Math.floor(next * inverse);
      b[i] = Math.floor(b[i]! * inverse) + (next - high * mask) * up;
    }
    b[LIMBS - 1] = Math.floor(b[LIMBS - 1]! * inverse);
  }
  let len = 10;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    while (len > 1 && a[len - 1] === 0 && b[len - 1] === 0) len--;
    const bits = LIMB_BITS * (len - 1) + bitLength(Math.max(a[len - 1]!, b[len - 1]!));
    if (bits <= 52) return sign ^ exactJacobiSign(a[0]! + a[1]! * LIMB, b[0]! + b[1]! * LIMB) ? -1 : 1;
    const scale = bits - 52;
    const j = Math.floor(scale / LIMB_BITS);
    const t = scale - LIMB_BITS * j;
    let ah = topBits(a, j, t);
    let bh = topBits(b, j, t);
    let al = a[0]! | ((a[1]! & 63) << LIMB_BITS); // low 32 bits, exact as int32
    let bl = b[0]! | ((b[1]! & 63) << LIMB_BITS);
    let m00 = 1, m01 = 0, m10 = 0, m11 = 1;
    let normA = 1; // bounds on |m00| + |m01| and |m10| + |m11|
    let normB = 1;
    let shift = 0;
    let steps = 0;
    for (;; steps++) {
      const q0 = Math.floor(ah / bh);
      if (q0 === 0) {
        sign ^= (al & bl & 2) >> 1;
        let x = ah;
        ah = bh;
        bh = x;
        x = al;
        al = bl;
        bl = x;
        x = normA;
        normA = normB;
        normB = x;
        x = m00;
        m00 = m10;
        m10 = x;
        x = m01;
        m01 = m11;
        m11 = x;
        continue;
      }
      const q = q0 - 1 + (q0 & 1);
      const rl = (al - Math.imul(q, bl)) | 0; // even; its zero low bits are r's twos while shift stays ≤ 26
      const k = 31 - Math.clz32(rl & -rl);
      const normR = normA + q * normB;
      const normS = normB * POWERS_OF_TWO[k]!;
      if (rl === 0 || shift + k > 26 || normR > MAX_ENTRY || normS > MAX_ENTRY) break;
      const rh = (ah - q * bh) * INVERSE_POWERS_OF_TWO[k]!;
      // the approximation's error is at most normR·(2·steps + 4)/2^(shift + k) + 4: only a surely positive r' goes on
      if (rh <= normR * (2 * steps + 4) * INVERSE_POWERS_OF_TWO[shift + k]! + 4) break;
      sign ^= ((al & bl & 2) >> 1) ^ (k & ((bl >> 1) ^ (bl >> 2)) & 1);
      const r0 = m00 - q * m10;
      const r1 = m01 - q * m11;
      m00 = m10 * POWERS_OF_TWO[k]!;
      m01 = m11 * POWERS_OF_TWO[k]!;
      m10 = r0;
      m11 = r1;
      ah = bh;
      bh = rh;
      al = bl;
      bl = rl >> k;
      normA = normS;
      normB = normR;
      shift += k;
    }
    if (steps === 0) break; // a quotient past the batch's room
    len = applyMatrix(len, m00, m01, m10, m11, shift);
  }
  return jacobiBigInt(feToBigInt(g), P_BIG);
}

/** The same steps on exact doubles (both operands below 2^52, odd, coprime): 1 when the tracked sign flips. */
function exactJacobiSign(a: number, b: number): number {
  let sign = 0;
  let al = lowWord(a);
  let bl = lowWord(b);
  for (;;) {
    if (b === 1) return sign;
    let q0 = Math.floor(a / b);
    if (a - q0 * b < 0) q0--; // the rounded quotient may be one too high
    if (q0 === 0) {
      sign ^= (al & bl & 2) >> 1;
      let x = a;
      a = b;
      b = x;
      x = al;
      al = bl;
      bl = x;
      continue;
    }
    const q = q0 - 1 + (lowWord(q0) & 1);
    let r = a - q * b; // exact: q·b ≤ a < 2^52
    if (r === 0) throw new Error("Jacobi symbol of operands with a common factor"); // b = 1 returned above
    let k = 0;
    let rl = lowWord(r);
    while (rl === 0) {
      r *= 2 ** -32;
      k += 32;
      rl = lowWord(r);
    }
    const z = 31 - Math.clz32(rl & -rl);
    r *= INVERSE_POWERS_OF_TWO[z]!;
    k += z;
    sign ^= ((al & bl & 2) >> 1) ^ (k & ((bl >> 1) ^ (bl >> 2)) & 1);
    a = b;
    al = bl;
    b = r;
    bl = lowWord(r);
  }
}

/** (value/p) for 0 < value < p through the limb algorithm (tests compare it with the BigInt Euclid). */
export function legendreOf(value: bigint): number {
  return legendre(feFromBigInt(value));
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
  Y[15] = Y[15]! & 0x7fff;
  feSquare(Y2, Y);
  for (let i = 0; i < 16; i++) T[i] = Y2[i]! + A_LIMBS[i]!; // limbs < 2^17: products < 2^34, columns far below 2^53
  feSquare(T, T);
  for (let i = 0; i < 16; i++) T[i] = T[i]! + B_LIMBS[i]!;
  feCarry(T);
  feFreeze(T); // T = u·v / d
  let zero = true;
  for (let i = 0; i < 16; i++) if (T[i] !== 0) zero = false;
  if (zero) return ((bytes[31] as number) & 0x80) === 0; // u = 0 (v ≠ 0): x = 0
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
    for (let i = 0; i < 8; i++) {
      const word = STATE[i]!;
      DIGEST[4 * i] = word >>> 24;
      DIGEST[4 * i + 1] = (word >>> 16) & 0xff;
      DIGEST[4 * i + 2] = (word >>> 8) & 0xff;
      DIGEST[4 * i + 3] = word & 0xff;
    }
    if (!isOnCurve(DIGEST)) return [base58Encode(DIGEST) as Address, bump];
  }
  throw new Error("no off-curve program address for these seeds");
}
