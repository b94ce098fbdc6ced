/**
 * Small kit decoders with the strictness the stock ones leave out. Kit's option/bool decoders treat any non-zero
 * byte as "present"/true and its size-prefixed decoders trust the prefix; on-chain layouts we decode here are
 * Borsh/SPL-Pack, where 2..255 is invalid and lengths are capped, and we read bytes an attacker may have shaped.
 * Every reader checks bounds before touching bytes and fails only with {@link AccountDecodeError}.
 */
import {
  createDecoder,
  getAddressDecoder,
  getUtf8Decoder,
  type Address,
  type Decoder,
  type FixedSizeDecoder,
  type ReadonlyUint8Array,
  type VariableSizeDecoder,
} from "@solana/kit";

import { AccountDecodeError } from "./decode-error";

const addressDecoder = getAddressDecoder();
// Lenient on purpose: a bad byte in a display name becomes U+FFFD instead of failing the whole account.
// The decoder also drops NUL characters, which is how Metaplex pads names to their fixed width.
const utf8Decoder = getUtf8Decoder();

function assertAvailable(bytes: ReadonlyUint8Array, offset: number, length: number, what: string): void {
  if (offset < 0 || length < 0 || offset + length > bytes.length) {
    throw new AccountDecodeError(what, "truncated", `needs ${length} bytes at offset ${offset}`);
  }
}

function readU32(bytes: ReadonlyUint8Array, offset: number, what: string): number {
  assertAvailable(bytes, offset, 4, what);
  // Indexes were bounds-checked just above; `?? 0` only satisfies noUncheckedIndexedAccess.
  return (
    ((bytes[offset] ?? 0) |
      ((bytes[offset + 1] ?? 0) << 8) |
      ((bytes[offset + 2] ?? 0) << 16) |
      ((bytes[offset + 3] ?? 0) << 24)) >>>
    0
  );
}

function readTag(bytes: ReadonlyUint8Array, offset: number, what: string): 0 | 1 {
  assertAvailable(bytes, offset, 1, what);
  const tag = bytes[offset];
  if (tag !== 0 && tag !== 1) throw new AccountDecodeError(what, "invalid-tag", `tag is ${tag}`);
  return tag;
}

/**
 * Borsh `String` (u32 LE byte length + UTF-8) whose declared length must not exceed `maxBytes`; the length is
 * checked before any allocation. NULs are removed and trailing whitespace trimmed (fixed-width padding).
 */
export function getBoundedStringDecoder(maxBytes: number, what = "string"): VariableSizeDecoder<string> {
  return createDecoder({
    maxSize: 4 + maxBytes,
    read(bytes, offset) {
      const length = readU32(bytes, offset, `${what} length`);
      if (length > maxBytes) {
        throw new AccountDecodeError(what, "string-too-long", `declares ${length} bytes, limit ${maxBytes}`);
      }
      const start = offset + 4;
      assertAvailable(bytes, start, length, what);
      return [utf8Decoder.decode(bytes.slice(start, start + length)).trimEnd(), start + length];
    },
  });
}

/** Borsh `bool`: exactly 0 or 1. */
export function getStrictBoolDecoder(what = "bool"): FixedSizeDecoder<boolean, 1> {
  return createDecoder({
    fixedSize: 1,
    read: (bytes, offset) => [readTag(bytes, offset, what) === 1, offset + 1],
  });
}

/** Borsh `Option<T>` (u8 tag 0 | 1), decoded to `T | null` because our outputs are JSON-shaped. */
export function getStrictOptionDecoder<T>(item: Decoder<T>, what = "option"): VariableSizeDecoder<T | null> {
  return createDecoder({
    read(bytes, offset) {
      if (readTag(bytes, offset, what) === 0) return [null, offset + 1];
      return item.read(bytes, offset + 1);
    },
  });
}

/** Borsh `Vec<T>` (u32 LE count) with at most `maxItems` items; the count is checked before the loop. */
export function getBoundedVecDecoder<T>(item: Decoder<T>, maxItems: number, what = "vec"): VariableSizeDecoder<T[]> {
  return createDecoder({
    read(bytes, offset) {
      const count = readU32(bytes, offset, `${what} count`);
      if (count > maxItems) {
        throw new AccountDecodeError(what, "too-many-items", `declares ${count} items, limit ${maxItems}`);
      }
      const items: T[] = [];
      let cursor = offset + 4;
      for (let i = 0; i < count; i++) {
        const [value, next] = item.read(bytes, cursor);
        items.push(value);
        cursor = next;
      }
      return [items, cursor];
    },
  });
}

/**
 * SPL-Pack `COption<Pubkey>`: u32 LE tag (0 | 1) followed by 32 key bytes that are present even when the tag is 0
 * (as in the 82-byte mint). Unlike kit's option decoder, tags 2.. are rejected.
 */
export function getCOptionAddressDecoder(what = "COption<Pubkey>"): FixedSizeDecoder<Address | null, 36> {
  return createDecoder({
    fixedSize: 36,
    read(bytes, offset) {
      const tag = readU32(bytes, offset, what);
      if (tag !== 0 && tag !== 1) throw new AccountDecodeError(what, "invalid-tag", `tag is ${tag}`);
      assertAvailable(bytes, offset + 4, 32, what);
      return [tag === 1 ? addressDecoder.decode(bytes, offset + 4) : null, offset + 36];
    },
  });
}

/** Token-2022 `OptionalNonZeroPubkey`: 32 bytes where all-zero means "none". */
export function getOptionalNonZeroAddressDecoder(what = "OptionalNonZeroPubkey"): FixedSizeDecoder<Address | null, 32> {
  return createDecoder({
    fixedSize: 32,
    read(bytes, offset) {
      assertAvailable(bytes, offset, 32, what);
      const key = bytes.slice(offset, offset + 32);
      return [key.every((b) => b === 0) ? null : addressDecoder.decode(key), offset + 32];
    },
  });
}
