/**
 * Keys: base58 <-> bytes (kit's address codec, cached), deterministic pseudo-random keys, synchronous PDA / ATA derivation
 * (same algorithm as kit's `getProgramDerivedAddress`: sha256(seeds ‖ bump ‖ program ‖ "ProgramDerivedAddress"), first bump
 * from 255 down whose hash is off the curve — cross-checked against kit in the unit tests).
 */
import { createHash } from "node:crypto";
import { getAddressDecoder, getAddressEncoder, type Address } from "@solana/kit";
import type { Pubkey } from "../../chain/types.js";
import { isOnCurve } from "./ed25519.js";

const addressEncoder = getAddressEncoder();
const addressDecoder = getAddressDecoder();
const bytesCache = new Map<string, Uint8Array>();

export function keyBytes(k: Pubkey): Uint8Array {
  let b = bytesCache.get(k);
  if (!b) {
    b = addressEncoder.encode(k as Address) as Uint8Array;
    bytesCache.set(k, b);
  }
  return b;
}

export function keyFromBytes(b: Uint8Array): Pubkey {
  const k = addressDecoder.decode(b) as string;
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
  return base58(bytes);
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const CHUNK = 58n ** 8n;
/** Base58 of arbitrary bytes (signatures, blockhash-like ids); keys go through kit's address codec. */
export function base58(bytes: Uint8Array): string {
  let n = bytes.length ? BigInt("0x" + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")) : 0n;
  let out = "";
  while (n > 0n) {
    let r = Number(n % CHUNK);
    n /= CHUNK;
    for (let i = 0; i < 8 && (n > 0n || r > 0); i++) {
      out = ALPHABET[r % 58]! + out;
      r = Math.floor(r / 58);
    }
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = "1" + out;
  return out;
}
