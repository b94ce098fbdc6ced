import type { Address, ReadonlyUint8Array } from "@solana/kit";
import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import { base58Bytes } from "../solana/base58";
import { findProgramAddressSync } from "../solana/program-address";

/** A PDA seed: raw bytes, or a UTF-8 string such as "pool". */
export type Seed = ReadonlyUint8Array | string;

/** The address of PDA(seeds, program); the bump is not needed by readers. Synchronous inside (see program-address.ts). */
export async function findPda(programAddress: Address, seeds: Seed[]): Promise<Address> {
  return findProgramAddressSync(programAddress, seeds as (Uint8Array | string)[])[0];
}

/**
 * Recently decoded addresses: listing candidates decodes the same mint, quotes and configs once per derivation (~150
 * times a mint). Bounded by bytes. Read with `peek` (no recency update: a hit costs one Map lookup, where an LRU touch
 * costs a delete and an insert); an evicted address is decoded again for ~1 µs.
 */
const decoded = new BoundedCache<Address, ReadonlyUint8Array>("address-bytes", limits.isolateCacheBudgets.addressBytes, () => 32 + 64);

/** The 32 raw bytes of an address (seeds take keys as bytes, not base58 text). Shared: never mutate them. */
export function addressBytes(value: Address): ReadonlyUint8Array {
  let bytes = decoded.peek(value);
  if (bytes === undefined) {
    // Our decoder (~1 µs; kit's BigInt one ~20–40 µs). An `Address` is valid base58 of 32 bytes by its type.
    const raw = base58Bytes(value);
    if (raw === undefined || raw.length !== 32) throw new TypeError(`not a 32-byte base58 address: ${value}`);
    bytes = raw;
    decoded.set(value, bytes);
  }
  return bytes;
}

/**
 * The two mints as raw bytes, lowest first. Programs sort with Rust's `Pubkey` Ord, i.e. byte order;
 * base58 string order differs, so kit's string comparator must not be used here.
 */
export function sortedMintBytes(a: Address, b: Address): [low: ReadonlyUint8Array, high: ReadonlyUint8Array] {
  const x = addressBytes(a);
  const y = addressBytes(b);
  for (let i = 0; i < 32; i++) {
    const diff = (x[i] as number) - (y[i] as number);
    if (diff !== 0) return diff < 0 ? [x, y] : [y, x];
  }
  return [x, y];
}

/** u16 little-endian seed (pool indices, bin steps, preset indices). */
export function u16Le(value: number): Uint8Array {
  return Uint8Array.of(value & 0xff, (value >> 8) & 0xff);
}

/** u16 big-endian seed (Raydium `amm_config` indices use `to_be_bytes`). */
export function u16Be(value: number): Uint8Array {
  return Uint8Array.of((value >> 8) & 0xff, value & 0xff);
}

/** u64 little-endian seed (Meteora config indices, fee-tier bps). */
export function u64Le(value: number | bigint): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(value), true);
  return bytes;
}

/**
 * Memoises a derivation that depends only on a small integer (config and preset PDAs), so enumerating
 * pools over N configs costs N derivations once per isolate instead of once per request.
 */
export function memoizeByIndex(derive: (index: number) => Promise<Address>): (index: number) => Promise<Address> {
  const cache = new Map<number, Promise<Address>>();
  return (index) => {
    let pda = cache.get(index);
    if (pda === undefined) {
      pda = derive(index);
      cache.set(index, pda);
    }
    return pda;
  };
}
