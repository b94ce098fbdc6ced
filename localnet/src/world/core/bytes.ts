/**
 * Byte writers for account data and instruction/event payloads.
 * `FixedWriter` writes fields at absolute offsets into a zeroed buffer of the account's real size (layouts are given as
 * offsets in VENUES.md); `BorshWriter` appends Borsh-encoded values (instruction args, events with strings).
 */
import { keyBytes } from "./keys.js";
import type { Pubkey } from "../../chain/types.js";

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

export class FixedWriter {
  readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  u8(offset: number, v: number): this {
    this.view.setUint8(offset, v);
    return this;
  }
  bool(offset: number, v: boolean): this {
    return this.u8(offset, v ? 1 : 0);
  }
  u16(offset: number, v: number): this {
    this.view.setUint16(offset, v, true);
    return this;
  }
  u16be(offset: number, v: number): this {
    this.view.setUint16(offset, v, false);
    return this;
  }
  u32(offset: number, v: number): this {
    this.view.setUint32(offset, v, true);
    return this;
  }
  i32(offset: number, v: number): this {
    this.view.setInt32(offset, v, true);
    return this;
  }
  u64(offset: number, v: bigint): this {
    if (v < 0n || v > U64_MAX) throw new RangeError(`u64 out of range at ${offset}: ${v}`);
    this.view.setBigUint64(offset, v, true);
    return this;
  }
  i64(offset: number, v: bigint): this {
    this.view.setBigInt64(offset, v, true);
    return this;
  }
  u128(offset: number, v: bigint): this {
    if (v < 0n || v > U128_MAX) throw new RangeError(`u128 out of range at ${offset}: ${v}`);
    this.view.setBigUint64(offset, v & U64_MAX, true);
    this.view.setBigUint64(offset + 8, v >> 64n, true);
    return this;
  }
  /** Two's complement, little-endian (Rust i128). */
  i128(offset: number, v: bigint): this {
    if (v < -(1n << 127n) || v >= 1n << 127n) throw new RangeError(`i128 out of range at ${offset}: ${v}`);
    return this.u128(offset, BigInt.asUintN(128, v));
  }
  pubkey(offset: number, k: Pubkey): this {
    this.bytes.set(keyBytes(k), offset);
    return this;
  }
  raw(offset: number, b: Uint8Array): this {
    this.bytes.set(b, offset);
    return this;
  }
  /** Borsh `Option<Pubkey>`-less SPL `COption<Pubkey>`: u32 tag then the key (zeroed when absent). */
  coptionPubkey(offset: number, k: Pubkey | null): this {
    this.u32(offset, k ? 1 : 0);
    if (k) this.pubkey(offset + 4, k);
    return this;
  }
  coptionU64(offset: number, v: bigint | null): this {
    this.u32(offset, v === null ? 0 : 1);
    if (v !== null) this.u64(offset + 4, v);
    return this;
  }
}

/** Appending Borsh writer with a growable buffer. */
export class BorshWriter {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }
  u8(v: number): this {
    this.ensure(1);
    this.view.setUint8(this.len, v);
    this.len += 1;
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }
  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.len, v, true);
    this.len += 4;
    return this;
  }
  u64(v: bigint): this {
    if (v < 0n || v > U64_MAX) throw new RangeError(`u64 out of range: ${v}`);
    this.ensure(8);
    this.view.setBigUint64(this.len, v, true);
    this.len += 8;
    return this;
  }
  i64(v: bigint): this {
    this.ensure(8);
    this.view.setBigInt64(this.len, v, true);
    this.len += 8;
    return this;
  }
  u128(v: bigint): this {
    if (v < 0n || v > U128_MAX) throw new RangeError(`u128 out of range: ${v}`);
    this.u64(v & U64_MAX);
    return this.u64(v >> 64n);
  }
  pubkey(k: Pubkey): this {
    return this.bytes(keyBytes(k));
  }
  string(s: string): this {
    const b = utf8(s);
    this.u32(b.length);
    return this.bytes(b);
  }
  /** Borsh Option<bool> as the pump IDL's `OptionBool` (a plain bool on the wire). */
  done(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const encoder = new TextEncoder();
export function utf8(s: string): Uint8Array {
  return encoder.encode(s);
}

export function hex(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h, "hex"));
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export function base64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}

export function readU64(b: Uint8Array, offset: number): bigint {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(offset, true);
}
