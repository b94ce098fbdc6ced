/**
 * Metaplex Token Metadata `Metadata` account (VENUES.md §15): decoder, owner check and PDA.
 *
 * The head (key .. is_mutable) is required. The tail (edition_nonce, token_standard, then collection, uses, ...)
 * was appended to the layout over the years; old accounts end early or carry leftover bytes there (the
 * mpl-token-metadata "faulty" fixture has garbage right after edition_nonce), so tail fields decode best-effort:
 * the first missing or invalid one ends decoding and it and everything after it read as null.
 */
import {
  getAddressDecoder,
  getAddressEncoder,
  getStructDecoder,
  getU16Decoder,
  getU8Decoder,
  type Address,
  type ReadonlyUint8Array,
} from "@solana/kit";

import { findProgramAddressSync } from "../program-address";
import { METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS } from "../well-known";
import { assertAccountShape, type AccountBytes } from "./account-shape";
import { AccountDecodeError, withTypedDecodeErrors } from "./decode-error";
import {
  getBoundedStringDecoder,
  getBoundedVecDecoder,
  getStrictBoolDecoder,
  getStrictOptionDecoder,
} from "./strict-codecs";

/** `Key::MetadataV1`, the first byte of a Metadata account. */
export const METADATA_V1_KEY = 4;

/** Byte limits the program enforces on `Data` (MAX_NAME_LENGTH / MAX_SYMBOL_LENGTH / MAX_URI_LENGTH / MAX_CREATOR_LIMIT). */
export const METAPLEX_LIMITS = { nameBytes: 32, symbolBytes: 10, uriBytes: 200, creators: 5 } as const;

/** `TokenStandard` variants in their on-chain (enum index) order. */
export const TOKEN_STANDARDS = [
  "NonFungible",
  "FungibleAsset",
  "Fungible",
  "NonFungibleEdition",
  "ProgrammableNonFungible",
  "ProgrammableNonFungibleEdition",
] as const;
export type TokenStandard = (typeof TOKEN_STANDARDS)[number];

/** A creator entry; `share` is a percentage (0..100). */
export type MetaplexCreator = { address: Address; verified: boolean; share: number };

/** The fields of a Metadata account the token overview uses. */
export type MetaplexMetadata = {
  updateAuthority: Address;
  mint: Address;
  /** NULs removed, trailing whitespace trimmed. */
  name: string;
  symbol: string;
  uri: string;
  sellerFeeBasisPoints: number;
  creators: MetaplexCreator[] | null;
  primarySaleHappened: boolean;
  isMutable: boolean;
  /** null when absent or when the optional tail is unreadable. */
  editionNonce: number | null;
  tokenStandard: TokenStandard | null;
};

const creatorDecoder = getStructDecoder([
  ["address", getAddressDecoder()],
  ["verified", getStrictBoolDecoder("creator.verified")],
  ["share", getU8Decoder()],
]);

const metadataHeadDecoder = getStructDecoder([
  ["key", getU8Decoder()],
  ["updateAuthority", getAddressDecoder()],
  ["mint", getAddressDecoder()],
  ["name", getBoundedStringDecoder(METAPLEX_LIMITS.nameBytes, "name")],
  ["symbol", getBoundedStringDecoder(METAPLEX_LIMITS.symbolBytes, "symbol")],
  ["uri", getBoundedStringDecoder(METAPLEX_LIMITS.uriBytes, "uri")],
  ["sellerFeeBasisPoints", getU16Decoder()],
  ["creators", getStrictOptionDecoder(getBoundedVecDecoder(creatorDecoder, METAPLEX_LIMITS.creators, "creators"), "creators")],
  ["primarySaleHappened", getStrictBoolDecoder("primary_sale_happened")],
  ["isMutable", getStrictBoolDecoder("is_mutable")],
]);

const optionalU8Decoder = getStrictOptionDecoder(getU8Decoder(), "optional u8");

/** Reads one `Option<u8>` of the tail; `undefined` means "stop here" (missing or garbage). */
function readTailOptionU8(bytes: ReadonlyUint8Array, offset: number): [number | null, number] | undefined {
  if (offset >= bytes.length) return undefined;
  try {
    return optionalU8Decoder.read(bytes, offset);
  } catch {
    return undefined;
  }
}

/**
 * Decodes Metadata account data. Throws {@link AccountDecodeError} (never anything else) when the key is not
 * MetadataV1 or the required head is malformed; trailing bytes are ignored.
 */
export function decodeMetaplexMetadata(data: ReadonlyUint8Array): MetaplexMetadata {
  if (data.length === 0) throw new AccountDecodeError("Metadata", "truncated", "the account is empty");
  if (data[0] !== METADATA_V1_KEY) {
    throw new AccountDecodeError("Metadata", "discriminator", `key is ${data[0]}, expected ${METADATA_V1_KEY}`);
  }
  const [head, tailOffset] = withTypedDecodeErrors("Metadata", () => metadataHeadDecoder.read(data, 0));

  let editionNonce: number | null = null;
  let tokenStandard: TokenStandard | null = null;
  const edition = readTailOptionU8(data, tailOffset);
  if (edition) {
    editionNonce = edition[0];
    const standard = readTailOptionU8(data, edition[1]);
    // An index past the known variants is leftover bytes, not a new standard we could name.
    tokenStandard = standard?.[0] != null ? (TOKEN_STANDARDS[standard[0]] ?? null) : null;
  }

  const { key: _key, ...fields } = head;
  return { ...fields, editionNonce, tokenStandard };
}

/** Owner check, then {@link decodeMetaplexMetadata}. */
export function decodeMetaplexMetadataAccount(account: AccountBytes): MetaplexMetadata {
  assertAccountShape(account, { layout: "Metadata", owners: [METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS], size: [0] });
  return decodeMetaplexMetadata(account.data);
}

const addressEncoder = getAddressEncoder();

/**
 * The Metadata PDA of a mint: seeds `["metadata", program id, mint]` under the Token Metadata program, derived
 * synchronously (kit's async derivation refuses to run in workerd, which does not report a secure context).
 */
export async function findMetaplexMetadataAddress(mint: Address): Promise<Address> {
  const program = METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS;
  return findProgramAddressSync(program, ["metadata", addressEncoder.encode(program) as Uint8Array, addressEncoder.encode(mint) as Uint8Array])[0];
}
