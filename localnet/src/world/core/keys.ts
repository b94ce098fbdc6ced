/**
 * Keys: base58 <-> bytes (the localnet's base58 codec, chain/base58.ts, cached), deterministic pseudo-random keys,
 * synchronous PDA / ATA derivation (same algorithm as kit's `getProgramDerivedAddress`: sha256(seeds ‖ bump ‖ program ‖
 * "ProgramDerivedAddress"), first bump from 255 down whose hash is off the curve — cross-checked against kit in the unit
 * tests).
 */
import { createHash } from "node:crypto";
import { encodeBase58, parseBase58Fixed } from "../../chain/base58.js";
import type { Pubkey } from "../../chain/types.js";
import { isOnCurve } from "./ed25519.js";

const bytesCache = new Map<string, Uint8Array>();

/** The 32 bytes of a key; throws on text that is not one (as kit's address codec did). */
export function keyBytes(k: Pubkey): Uint8Array {
  let b = bytesCache.get(k);
  if (!b) {
    const parsed = parseBase58Fixed(k, 32);
    if (!(parsed instanceof Uint8Array)) throw new TypeError(`not a 32-byte base58 key: ${k}`);
    b = parsed;
    bytesCache.set(k, b);
  }
  return b;
}

export function keyFromBytes(b: Uint8Array): Pubkey {
  if (b.length !== 32) throw new RangeError(`a key is 32 bytes, not ${b.length}`);
  const k = encodeBase58(b);
  if (!bytesCache.has(k)) bytesCache.set(k, b.slice());
  return k;
}

/** Raw 32-byte comparison (Rust `Pubkey` Ord), never base58 string order (VENUES §1). */
export function compareKeys(a: Pubkey, b: Pubkey): number {
  return Buffer.compare(keyBytes(a), keyBytes(b));
}

export function sha256(...parts: (Uint8Array | string)[]): Uint8Array {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

/** A deterministic 32-byte key for `label` in the world of `seed` (stands in for a keypair's public key). */
export function derivedKey(seed: number, label: string): Pubkey {
  return keyFromBytes(sha256(`localnet-world:${seed}:${label}`));
}

export type Seed = Uint8Array | string;

const PDA_MARKER = new TextEncoder().encode("ProgramDerivedAddress");
const pdaCache = new Map<string, [Pubkey, number]>();

function seedBytes(s: Seed): Uint8Array {
  const b = typeof s === "string" ? new TextEncoder().encode(s) : s;
  if (b.length > 32) throw new RangeError("PDA seed longer than 32 bytes");
  return b;
}

function latin1(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

export function findPda(seeds: Seed[], program: Pubkey): [Pubkey, number] {
  const bs = seeds.map(seedBytes);
  let cacheKey = program;
  for (const b of bs) cacheKey += `|${b.length}:${latin1(b)}`;
  const hit = pdaCache.get(cacheKey);
  if (hit) return hit;
  const prog = keyBytes(program);
  for (let bump = 255; bump >= 0; bump--) {
    const h = createHash("sha256");
    for (const b of bs) h.update(b);
    h.update(Uint8Array.of(bump));
    h.update(prog);
    h.update(PDA_MARKER);
    const out = new Uint8Array(h.digest());
    if (!isOnCurve(out)) {
      const r: [Pubkey, number] = [keyFromBytes(out), bump];
      pdaCache.set(cacheKey, r);
      return r;
    }
  }
  throw new Error("no viable PDA bump");
}

export function pda(seeds: Seed[], program: Pubkey): Pubkey {
  return findPda(seeds, program)[0];
}

/** A constant PDA, derived once on first use. */
export function constantPda(seeds: Seed[], program: Pubkey): () => Pubkey {
  let k: Pubkey | undefined;
  return () => (k ??= pda(seeds, program));
}

export const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";

const ataCache = new Map<string, Pubkey>();

export function ata(owner: Pubkey, mint: Pubkey, tokenProgram: Pubkey): Pubkey {
  const cacheKey = `${owner}|${mint}|${tokenProgram}`;
  let a = ataCache.get(cacheKey);
  if (!a) {
    a = pda([keyBytes(owner), keyBytes(tokenProgram), keyBytes(mint)], ATA_PROGRAM);
    ataCache.set(cacheKey, a);
  }
  return a;
}

export function u16le(n: number): Uint8Array {
  return Uint8Array.of(n & 255, (n >> 8) & 255);
}
export function u16be(n: number): Uint8Array {
  return Uint8Array.of((n >> 8) & 255, n & 255);
}
export function u64le(n: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
  return b;
}
export function i64le(n: bigint | number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt(n), true);
  return b;
}
export function i32be(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setInt32(0, n, false);
  return b;
}

/** A base58 transaction signature (64 bytes) derived from a label. */
export function signatureFor(seed: number, label: string): string {
  const a = sha256(`sig:${seed}:${label}:a`);
  const b = sha256(`sig:${seed}:${label}:b`);
  const bytes = new Uint8Array(64);
  bytes.set(a, 0);
  bytes.set(b, 32);
  return encodeBase58(bytes);
}
