import { createHash } from "node:crypto";
import { address, getAddressDecoder, getAddressEncoder, getProgramDerivedAddress, isOffCurveAddress } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { A_BIG, B_BIG, C0_BIG, C1_BIG, D_BIG, canonicalOf, findProgramAddressSync, isOnCurve, jacobiBigInt, legendreOf, squareOf } from "../../../src/solana/program-address";

const decoder = getAddressDecoder();
const addressEncoder = getAddressEncoder();
const bytes = (label: string) => new Uint8Array(createHash("sha256").update(label).digest());
/** A deterministic byte stream (xorshift32), so a failure names a reproducible case. */
function stream(seed: number): (length: number) => Uint8Array {
  let x = seed >>> 0 || 1;
  return (length) =>
    Uint8Array.from({ length }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    });
}
const P = 2n ** 255n - 19n;
const littleEndian = (value: bigint, signBit = false) => {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = Number((value >> BigInt(8 * i)) & 0xffn);
  if (signBit) out[31]! |= 0x80;
  return out;
};
const kitOnCurve = (b: Uint8Array) => !isOffCurveAddress(decoder.decode(b));
const programs = [
  "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
  "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P",
  "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo",
  "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc",
].map((a) => address(a));

describe("synchronous PDAs agree with @solana/kit", () => {
  it("isOnCurve matches kit on 5,000 random 32-byte strings and the edge cases of y (±1, 0, p and above, sign bit)", () => {
    const random = stream(1);
    const samples = Array.from({ length: 5000 }, () => random(32));
    // y = ±1 (x = 0: a point only without the sign bit), y = 0, and y ≥ p (read mod p), each with and without the sign bit
    for (const y of [1n, P - 1n, 0n, P, P + 1n, P - 2n, 2n ** 255n - 1n, 2n ** 255n - 20n]) samples.push(littleEndian(y), littleEndian(y, true));
    let onCurve = 0;
    for (const s of samples) {
      const ours = isOnCurve(s);
      expect(ours, Buffer.from(s).toString("hex")).toBe(kitOnCurve(s));
      if (ours) onCurve++;
    }
    // About half of random strings are points: the test exercises both answers.
    expect(onCurve).toBeGreaterThan(2000);
    expect(onCurve).toBeLessThan(3000);
  });

  it("uses the right curve constants: C1 = (1 − d)/d, C0 = −1/d, A = C1/2, B = C0 − A², d not a square", () => {
    expect((C1_BIG * D_BIG) % P).toBe((1n - D_BIG + P) % P);
    expect((C0_BIG * D_BIG) % P).toBe(P - 1n);
    expect((2n * A_BIG) % P).toBe(C1_BIG);
    expect((A_BIG * A_BIG + B_BIG) % P).toBe(C0_BIG);
    expect(jacobiBigInt(D_BIG, P)).toBe(-1);
    // The reference Jacobi symbol against Euler's criterion on small primes
    for (const p of [3n, 5n, 7n, 11n, 13n, 101n, 65537n]) {
      for (let a = 1n; a < 40n && a < p; a++) {
        let power = 1n;
        for (let e = 0n; e < (p - 1n) / 2n; e++) power = (power * a) % p;
        expect(jacobiBigInt(a, p)).toBe(power === 1n ? 1 : -1);
      }
    }
  });

  it("the batched Jacobi symbol equals the BigInt Euclid on random, small, near-p and large-quotient values", () => {
    const random = stream(3);
    const values: bigint[] = [];
    for (let i = 0; i < 4000; i++) values.push(BigInt("0x" + Buffer.from(random(32)).toString("hex")) % P);
    // small values and powers of two (long runs of twos, the exact-double tail from the start), values near p and
    // near p/k (a first quotient of k or a huge one: the BigInt fallback), random values shifted down
    for (let v = 1n; v < 300n; v++) values.push(v);
    for (let e = 0n; e < 255n; e++) values.push(1n << e, (1n << e) + 1n, (1n << e) * 3n);
    for (let d = 1n; d < 200n; d++) values.push(P - d, P / d, P / d + 1n, P / (d + 1n) - d);
    for (let i = 0; i < 400; i++) values.push(values[i]! >> BigInt(i % 250), values[i]! * 2n ** 30n % P);
    for (const v of values) {
      if (v === 0n || v >= P) continue;
      expect(legendreOf(v), v.toString()).toBe(jacobiBigInt(v, P));
    }
  });

  it("the limb square and reduction equal BigInt on random values and the edges of p and 2^256", () => {
    // Given values below 2^256 (the limbs' range): random ones, p and its neighbours, the top bit's fold (2^255 ≡ 19)
    // landing on either side of p, all-ones limbs, and values whose square carries through every limb
    const random = stream(4);
    const values: bigint[] = [0n, 1n, 2n, 19n, 38n, 65535n, 65536n, P - 1n, P, P + 1n, P + 18n, P + 19n, 2n * P - 1n, 2n ** 256n - 1n];
    for (let d = 0n; d < 40n; d++) values.push(2n ** 255n - d, 2n ** 255n + d, 2n ** 256n - 1n - d);
    for (let i = 0; i < 16; i++) values.push((1n << BigInt(16 * i)) - 1n, 1n << BigInt(16 * i), (2n ** 256n - 1n) ^ (0xffffn << BigInt(16 * i)));
    for (let i = 0; i < 3000; i++) values.push(BigInt("0x" + Buffer.from(random(32)).toString("hex")));
    for (const v of values) {
      // Then each is exact and canonical
      expect(canonicalOf(v), v.toString()).toBe(v % P);
      expect(squareOf(v), v.toString()).toBe((v * v) % P);
    }
  });

  it("the Jacobi symbol agrees with Euler's criterion, and on the values whose low bits stop a batch", () => {
    const random = stream(5);
    const power = (base: bigint, exponent: bigint) => {
      let result = 1n;
      for (let b = base % P, e = exponent; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) result = (result * b) % P;
      return result;
    };
    // Given 1, p − 1, 2 and d (non-residues: p ≡ 5 mod 8, and d by the curve's design) and random values, against
    // v^((p−1)/2) — an independent reference for the BigInt Euclid too
    const values = [1n, P - 1n, 2n, D_BIG, P - 2n, 4n];
    for (let i = 0; i < 50; i++) values.push(BigInt("0x" + Buffer.from(random(32)).toString("hex")) % P);
    for (const v of values) {
      const euler = power(v, (P - 1n) / 2n);
      expect(euler === 1n || euler === P - 1n).toBe(true);
      expect(legendreOf(v), v.toString()).toBe(euler === 1n ? 1 : -1);
    }
    expect(legendreOf(2n)).toBe(-1);
    expect(legendreOf(D_BIG)).toBe(-1);
    // And values with 30 to 64 zero low bits (the symbol's twos read from the low 32 bits: the BigInt fallback past
    // 30), odd multiples of large powers of two, and their negatives
    for (let z = 28n; z < 65n; z++) {
      for (let i = 0; i < 8; i++) {
        const odd = (BigInt("0x" + Buffer.from(random(24)).toString("hex")) | 1n) % (P >> z);
        for (const v of [odd << z, P - (odd << z)]) if (v > 0n && v < P) expect(legendreOf(v), v.toString()).toBe(jacobiBigInt(v, P));
      }
    }
  });

  it("isOnCurve matches kit on real addresses: wallets and programs (points) and derived pools (not points)", () => {
    // Given the mints and every derived pool of the pinned candidate set (test/unit/venues), and the programs above
    const pinned = JSON.parse(readFileSync(new URL("../venues/derived-candidates.expected.json", import.meta.url), "utf8")) as Record<string, { candidates?: string[] }>;
    const pools = Object.values(pinned).flatMap((p) => (p.candidates ?? []).map((line) => line.split(" ")[2]!));
    expect(pools.length).toBeGreaterThan(100);
    for (const pool of pools) {
      const raw = new Uint8Array(addressEncoder.encode(address(pool)));
      expect(isOnCurve(raw), pool).toBe(false);
      expect(kitOnCurve(raw), pool).toBe(false);
    }
    let points = 0;
    for (const key of [...Object.keys(pinned), ...programs, "11111111111111111111111111111111", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"]) {
      const raw = new Uint8Array(addressEncoder.encode(address(key)));
      expect(isOnCurve(raw), key).toBe(kitOnCurve(raw));
      if (isOnCurve(raw)) points++;
    }
    expect(points).toBeGreaterThan(5);
  });

  it("findProgramAddressSync equals getProgramDerivedAddress for 1,500 random seed sets of every shape", async () => {
    // Seed counts 0–15 and lengths 0–32 put the bump byte at every offset of the first ten SHA-256 blocks (the blocks
    // before it are hashed once per PDA); string seeds, ASCII and not, take the text path.
    const random = stream(2);
    const lowBumps: number[] = [];
    for (let i = 0; i < 1500; i++) {
      const programAddress = programs[i % programs.length]!;
      const count = i % 16;
      const seeds: (Uint8Array | string)[] = [];
      for (let s = 0; s < count; s++) {
        const kind = (i + s) % 7;
        if (kind === 0) seeds.push(["pool", "tick_array", "", "é∑", "metadata"][(i + s) % 5]!);
        else seeds.push(random(kind === 1 ? 32 : random(1)[0]! % 33));
      }
      const [kitPda, kitBump] = await getProgramDerivedAddress({ programAddress, seeds });
      const ours = findProgramAddressSync(programAddress, seeds);
      expect(ours, `case ${i}`).toEqual([kitPda, kitBump]);
      if (kitBump < 250) lowBumps.push(kitBump);
    }
    // Some seed sets needed six or more attempts (bumps 255…250 on the curve): the bump loop's later rounds are covered.
    expect(lowBumps.length).toBeGreaterThan(10);
  });

  it("finds the same bump as kit when many bumps in a row land on the curve", async () => {
    // Seeds chosen by search so the first ten attempts are points (1 in ~1,000 seed sets): the search itself runs on
    // kit's derivation, then ours must agree.
    const programAddress = programs[0]!;
    const found: Uint8Array[] = [];
    for (let i = 0; found.length < 2 && i < 20_000; i++) {
      const seed = bytes(`deep-${i}`);
      if (!(await getProgramDerivedAddress({ programAddress, seeds: [seed] }).then(([, bump]) => bump < 246))) continue;
      found.push(seed);
    }
    expect(found.length).toBe(2);
    for (const seed of found) {
      const [kitPda, kitBump] = await getProgramDerivedAddress({ programAddress, seeds: [seed] });
      expect(kitBump).toBeLessThan(246);
      expect(findProgramAddressSync(programAddress, [seed])).toEqual([kitPda, kitBump]);
    }
  });

  it("derives known mainnet PDAs (pump Global, Raydium AMM authority, a DAMM v1 pool)", () => {
    expect(findProgramAddressSync(address("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P"), ["global"])[0]).toBe("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
    expect(findProgramAddressSync(address("675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8"), ["amm authority"])[0]).toBe("5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1");
    // Meteora DAMM v1 pool 3Lxsto… (4eDf52…/SOL, config index 29): seeds max mint · min mint · config, a 96-byte prefix
    const [x, y] = [address("So11111111111111111111111111111111111111112"), address("4eDf52YYzL6i6gbZ6FXqrLUPXbtP61f1gPSFM66M4XHe")].map((a) => new Uint8Array(addressEncoder.encode(a)));
    const [high, low] = Buffer.compare(Buffer.from(x!), Buffer.from(y!)) > 0 ? [x!, y!] : [y!, x!];
    const config = new Uint8Array(addressEncoder.encode(address("DzE3A8Yjuqk61Z4gQ71f2Jx8MgcX7RpxwWzYU3mKCvyh")));
    expect(findProgramAddressSync(address("Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB"), [high, low, config])[0]).toBe("3LxstoarWCh6iC2NbQG4eXwvrNuSpr8kH7YyFmFu5tKZ");
  });

  it("rejects seeds longer than 32 bytes and more than 15 seeds like the runtime", () => {
    const program = programs[1]!;
    expect(() => findProgramAddressSync(program, [new Uint8Array(33)])).toThrow(RangeError);
    expect(() => findProgramAddressSync(program, ["x".repeat(33)])).toThrow(RangeError);
    expect(() => findProgramAddressSync(program, ["é".repeat(17)])).toThrow(RangeError);
    expect(() => findProgramAddressSync(program, Array.from({ length: 16 }, () => new Uint8Array(1)))).toThrow(RangeError);
  });
});
