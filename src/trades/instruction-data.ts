/**
 * Little-endian integers and prefixes read from instruction data (solana/base58.ts `base58Bytes` decodes it) without
 * throwing. Trade extraction decodes only the instructions of the venues and of the token/system programs that touch a
 * pool reserve, so this is the hot path of reading a block.
 */
import { base58Bytes } from "../solana/base58";

/** u64 little-endian at `offset`, or undefined when the data is too short. */
export function readU64(data: Uint8Array, offset: number): bigint | undefined {
  if (offset < 0 || offset + 8 > data.length) return undefined;
  let lo = 0;
  let hi = 0;
  for (let i = 3; i >= 0; i--) {
    lo = lo * 256 + data[offset + i]!;
    hi = hi * 256 + data[offset + 4 + i]!;
  }
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** Whether `data` starts with the bytes of `prefix`. */
export function startsWith(data: Uint8Array, prefix: Uint8Array, at = 0): boolean {
  if (data.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[at + i] !== prefix[i]) return false;
  return true;
}

/** Raw 32-byte order of two base58 addresses (how programs sort mints), or 0 when either does not decode. */
export function compareAddressBytes(a: string, b: string): number {
  const x = base58Bytes(a);
  const y = base58Bytes(b);
  if (!x || !y) return 0;
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
