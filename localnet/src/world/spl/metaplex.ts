/**
 * Metaplex token-metadata `MetadataV1` account (VENUES.md §15): Borsh, strings NUL-padded to 32/10/200 like mainnet,
 * 679-byte accounts with a zero tail.
 */
import { BorshWriter } from "../core/bytes.js";
import type { Pubkey } from "../../chain/types.js";

export const METADATA_ACCOUNT_SIZE = 679;
export const MAX_NAME = 32;
export const MAX_SYMBOL = 10;
export const MAX_URI = 200;

export interface Creator {
  address: Pubkey;
  verified: boolean;
  share: number;
}

export interface MetaplexMetadata {
  updateAuthority: Pubkey;
  mint: Pubkey;
  name: string;
  symbol: string;
  uri: string;
  sellerFeeBasisPoints: number;
  creators: Creator[] | null;
  primarySaleHappened: boolean;
  isMutable: boolean;
  editionNonce: number | null;
  /** 2 = Fungible. */
  tokenStandard: number | null;
}

function padded(s: string, len: number): string {
  const n = Buffer.byteLength(s, "utf8");
  if (n > len) throw new RangeError(`metadata string longer than ${len} bytes: ${s}`);
  return s + "\0".repeat(len - n);
}

export function encodeMetaplexMetadata(m: MetaplexMetadata): Uint8Array {
  const w = new BorshWriter()
    .u8(4) // Key::MetadataV1
    .pubkey(m.updateAuthority)
    .pubkey(m.mint)
    .string(padded(m.name, MAX_NAME))
    .string(padded(m.symbol, MAX_SYMBOL))
    .string(padded(m.uri, MAX_URI))
    .u16(m.sellerFeeBasisPoints);
  if (m.creators) {
    w.u8(1).u32(m.creators.length);
    for (const c of m.creators) w.pubkey(c.address).bool(c.verified).u8(c.share);
  } else w.u8(0);
  w.bool(m.primarySaleHappened).bool(m.isMutable);
  if (m.editionNonce === null) w.u8(0);
  else w.u8(1).u8(m.editionNonce);
  if (m.tokenStandard === null) w.u8(0);
  else w.u8(1).u8(m.tokenStandard);
  w.u8(0); // collection: None
  w.u8(0); // uses: None
  w.u8(0); // collection_details: None
  w.u8(0); // programmable_config: None
  const body = w.done();
  if (body.length > METADATA_ACCOUNT_SIZE) throw new RangeError("metadata too large");
  const out = new Uint8Array(METADATA_ACCOUNT_SIZE);
  out.set(body, 0);
  return out;
}
