/**
 * Anchor events emitted by self-CPI (`emit_cpi!`): the program invokes itself with one account (its event authority)
 * and data = EVENT_IX_TAG (sha256("anchor:event")[0..8], little-endian: e445a52e51cb9a1d) ‖ the event's discriminator
 * (sha256("event:<Name>")[0..8]) ‖ its borsh fields.
 */
import { getBase16Encoder } from "@solana/kit";
import { base58Bytes } from "../solana/base58";

const EVENT_IX_TAG = "e445a52e51cb9a1d";

/** EVENT_IX_TAG ‖ the event's discriminator (hex). */
export function anchorEventPrefix(discriminatorHex: string): Uint8Array {
  return getBase16Encoder().encode(EVENT_IX_TAG + discriminatorHex) as Uint8Array;
}

/** Whether `data` is an event with this prefix (fields not checked). */
export function isAnchorEvent(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}

/** base58 characters per byte: log(256) / log(58). */
const BASE58_CHARS_PER_BYTE = 1.3657;

/**
 * The bytes of an event with `prefix` whose data is `minSize`..`maxSize` bytes long, from the base58 text a transaction
 * holds. Text whose length cannot encode such a size (the prefix's first byte is not zero, so no leading "1"s) is
 * refused before paying for its decoding: a swap's subtree also holds its much longer trade event.
 */
export function readAnchorEvent(text: string, prefix: Uint8Array, minSize: number, maxSize: number): Uint8Array | undefined {
  if (typeof text !== "string") return undefined;
  if (text.length < Math.floor((minSize - 1) * BASE58_CHARS_PER_BYTE) || text.length > Math.ceil(maxSize * BASE58_CHARS_PER_BYTE) + 1) return undefined;
  const data = base58Bytes(text);
  return data && data.length >= minSize && data.length <= maxSize && isAnchorEvent(data, prefix) ? data : undefined;
}
