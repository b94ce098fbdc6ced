/**
 * Token-2022 mint extensions (VENUES.md §16): after the 82-byte base and zero padding, byte 165 is the
 * AccountType (1 = Mint) and a TLV list starts at 166 (type u16 LE, length u16 LE, value; type 0 ends it).
 * The extensions the token overview shows are decoded; every other type is skipped and reported by id.
 *
 * Callers must owner-check the account first (`decodeMint`). Parsing is separate from the base decode
 * so a malformed extension only costs the extensions, never supply/decimals.
 */
import {
  createDecoder,
  getAddressDecoder,
  getStructDecoder,
  getTupleDecoder,
  getU16Decoder,
  getU64Decoder,
  getU8Decoder,
  type Address,
  type Decoder,
  type ReadonlyUint8Array,
} from "@solana/kit";

import { AccountDecodeError, withTypedDecodeErrors } from "./decode-error";
import { MINT_SIZE, TOKEN_2022_ACCOUNT_TYPE_MINT, TOKEN_2022_ACCOUNT_TYPE_OFFSET } from "./spl-token";
import { getBoundedStringDecoder, getBoundedVecDecoder, getOptionalNonZeroAddressDecoder, getStrictBoolDecoder } from "./strict-codecs";

const TLV_START = TOKEN_2022_ACCOUNT_TYPE_OFFSET + 1;
const TLV_HEADER_SIZE = 4;
/** More TLV entries than exist extension types (~28) means hostile or corrupt data; stop early. */
const MAX_TLV_ENTRIES = 64;

/**
 * Caps for the variable-size TokenMetadata extension. Unlike Metaplex, the Token-2022 metadata interface sets
 * no limits; these are ours, generous for real tokens, and only there so hostile data cannot make us
 * carry kilobytes of "name" into every response. Exceeding one is a `string-too-long` / `too-many-items` error.
 */
export const TOKEN_METADATA_LIMITS = {
  nameBytes: 256,
  symbolBytes: 64,
  uriBytes: 1024,
  additionalPairs: 32,
  additionalKeyBytes: 128,
  additionalValueBytes: 1024,
} as const;

export type TransferFee = { epoch: bigint; maximumFee: bigint; transferFeeBasisPoints: number };
export type TransferFeeConfig = {
  transferFeeConfigAuthority: Address | null;
  withdrawWithheldAuthority: Address | null;
  withheldAmount: bigint;
  olderTransferFee: TransferFee;
  newerTransferFee: TransferFee;
};
export type MetadataPointer = { authority: Address | null; metadataAddress: Address | null };
export type TokenMetadata = {
  updateAuthority: Address | null;
  mint: Address;
  name: string;
  symbol: string;
  uri: string;
  additionalMetadata: (readonly [string, string])[];
};
export type TransferHook = { authority: Address | null; programId: Address | null };
export type PausableConfig = { authority: Address | null; paused: boolean };
/** ConfidentialTransferMint: who approves accounts, whether new accounts are approved on their own, the auditor's ElGamal key (null when none). */
export type ConfidentialTransferMint = { authority: Address | null; autoApproveNewAccounts: boolean; auditorElGamalPubkey: Address | null };
export type DefaultAccountState = "uninitialized" | "initialized" | "frozen";

/** The decoded extensions, keyed by name; a key is present only if the mint has that extension. */
export type KnownMintExtensions = {
  transferFeeConfig: TransferFeeConfig;
  mintCloseAuthority: { closeAuthority: Address | null };
  defaultAccountState: { state: DefaultAccountState };
  nonTransferable: Record<string, never>;
  permanentDelegate: { delegate: Address | null };
  transferHook: TransferHook;
  metadataPointer: MetadataPointer;
  tokenMetadata: TokenMetadata;
  pausable: PausableConfig;
  confidentialTransferMint: ConfidentialTransferMint;
};
export type Token2022MintExtensions = Partial<KnownMintExtensions> & {
  /** Extension type ids present in the mint but not decoded here, in account order. */
  otherExtensionTypes: number[];
};

const optionalAddress = getOptionalNonZeroAddressDecoder();
const transferFeeDecoder = getStructDecoder([
  ["epoch", getU64Decoder()],
  ["maximumFee", getU64Decoder()],
  ["transferFeeBasisPoints", getU16Decoder()],
]);
const ACCOUNT_STATES = ["uninitialized", "initialized", "frozen"] as const;

type ExtensionSpec<T> = { type: number; fixedSize: number | null; decoder: Decoder<T> };

/** Extension type ids are the implicit `ExtensionType` enum order in spl-token-2022 (never renumbered). */
const EXTENSIONS: { [K in keyof KnownMintExtensions]: ExtensionSpec<KnownMintExtensions[K]> } = {
  transferFeeConfig: {
    type: 1,
    fixedSize: 108,
    decoder: getStructDecoder([
      ["transferFeeConfigAuthority", optionalAddress],
      ["withdrawWithheldAuthority", optionalAddress],
      ["withheldAmount", getU64Decoder()],
      ["olderTransferFee", transferFeeDecoder],
      ["newerTransferFee", transferFeeDecoder],
    ]),
  },
  mintCloseAuthority: { type: 3, fixedSize: 32, decoder: getStructDecoder([["closeAuthority", optionalAddress]]) },
  defaultAccountState: {
    type: 6,
    fixedSize: 1,
    decoder: createDecoder({
      fixedSize: 1,
      read(bytes, offset) {
        const state = ACCOUNT_STATES[getU8Decoder().decode(bytes, offset)];
        if (!state) throw new AccountDecodeError("defaultAccountState", "invalid-tag", `state is ${bytes[offset]}`);
        return [{ state }, offset + 1];
      },
    }),
  },
  nonTransferable: { type: 9, fixedSize: 0, decoder: createDecoder({ fixedSize: 0, read: (_, offset) => [{}, offset] }) },
  permanentDelegate: { type: 12, fixedSize: 32, decoder: getStructDecoder([["delegate", optionalAddress]]) },
  transferHook: {
    type: 14,
    fixedSize: 64,
    decoder: getStructDecoder([
      ["authority", optionalAddress],
      ["programId", optionalAddress],
    ]),
  },
  metadataPointer: {
    type: 18,
    fixedSize: 64,
    decoder: getStructDecoder([
      ["authority", optionalAddress],
      ["metadataAddress", optionalAddress],
    ]),
  },
  tokenMetadata: {
    type: 19,
    fixedSize: null,
    decoder: getStructDecoder([
      ["updateAuthority", optionalAddress],
      ["mint", getAddressDecoder()],
      ["name", getBoundedStringDecoder(TOKEN_METADATA_LIMITS.nameBytes, "token metadata name")],
      ["symbol", getBoundedStringDecoder(TOKEN_METADATA_LIMITS.symbolBytes, "token metadata symbol")],
      ["uri", getBoundedStringDecoder(TOKEN_METADATA_LIMITS.uriBytes, "token metadata uri")],
      [
        "additionalMetadata",
        getBoundedVecDecoder(
          getTupleDecoder([
            getBoundedStringDecoder(TOKEN_METADATA_LIMITS.additionalKeyBytes, "additional metadata key"),
            getBoundedStringDecoder(TOKEN_METADATA_LIMITS.additionalValueBytes, "additional metadata value"),
          ]),
          TOKEN_METADATA_LIMITS.additionalPairs,
          "additional metadata",
        ),
      ],
    ]),
  },
  // spl-token-2022 confidential_transfer::ConfidentialTransferMint (65 bytes): OptionalNonZeroPubkey, PodBool, OptionalNonZeroElGamalPubkey (32 bytes, zero = none).
  confidentialTransferMint: {
    type: 4,
    fixedSize: 65,
    decoder: getStructDecoder([
      ["authority", optionalAddress],
      ["autoApproveNewAccounts", getStrictBoolDecoder("confidentialTransferMint.autoApproveNewAccounts")],
      ["auditorElGamalPubkey", optionalAddress],
    ]),
  },
  pausable: {
    type: 26,
    fixedSize: 33,
    decoder: getStructDecoder([
      ["authority", optionalAddress],
      ["paused", getStrictBoolDecoder("pausable.paused")],
    ]),
  },
};

const NAME_BY_TYPE = new Map(
  (Object.keys(EXTENSIONS) as (keyof KnownMintExtensions)[]).map((name) => [EXTENSIONS[name].type, name] as const),
);

function decodeExtension<K extends keyof KnownMintExtensions>(
  name: K,
  value: ReadonlyUint8Array,
  into: Token2022MintExtensions,
): void {
  const spec = EXTENSIONS[name];
  if (spec.fixedSize !== null && value.length !== spec.fixedSize) {
    throw new AccountDecodeError(name, "invalid-extension-length", `${value.length} bytes, expected ${spec.fixedSize}`);
  }
  // Decoding from the entry's own slice means a lying inner length can never read the next entry.
  into[name] = withTypedDecodeErrors(name, () => spec.decoder.decode(value)) as Token2022MintExtensions[K];
}

/**
 * Parses the TLV extensions of Token-2022 mint account data (the whole account, base included). An 82-byte
 * mint has none. Throws {@link AccountDecodeError} on an impossible size, a non-mint account type, a TLV entry
 * running past the data, a duplicate type, or a known extension with a malformed value.
 *
 * Note for consumers: `tokenMetadata` is authoritative only when `metadataPointer.metadataAddress` is this mint.
 */
export function parseToken2022MintExtensions(data: ReadonlyUint8Array): Token2022MintExtensions {
  const result: Token2022MintExtensions = { otherExtensionTypes: [] };
  if (data.length === MINT_SIZE) return result;
  if (data.length < TLV_START) throw new AccountDecodeError("Token2022Extensions", "size", `mint data is ${data.length} bytes`);
  if (data[TOKEN_2022_ACCOUNT_TYPE_OFFSET] !== TOKEN_2022_ACCOUNT_TYPE_MINT) {
    throw new AccountDecodeError("Token2022Extensions", "discriminator", `account type ${data[TOKEN_2022_ACCOUNT_TYPE_OFFSET]}`);
  }

  const u16 = getU16Decoder();
  const seen = new Set<number>();
  let offset = TLV_START;
  // Fewer bytes than a header left means the end, as in spl-token-2022; every entry advances by >= 4 bytes.
  while (offset + TLV_HEADER_SIZE <= data.length) {
    const type = u16.decode(data, offset);
    if (type === 0) break; // Uninitialized: the rest is unused space.
    const length = u16.decode(data, offset + 2);
    const start = offset + TLV_HEADER_SIZE;
    if (start + length > data.length) {
      throw new AccountDecodeError("Token2022Extensions", "malformed-tlv", `extension ${type} length ${length} runs past the data`);
    }
    if (seen.has(type)) throw new AccountDecodeError("Token2022Extensions", "duplicate-extension", `extension ${type} appears twice`);
    if (seen.size >= MAX_TLV_ENTRIES) throw new AccountDecodeError("Token2022Extensions", "malformed-tlv", `more than ${MAX_TLV_ENTRIES} entries`);
    seen.add(type);

    const name = NAME_BY_TYPE.get(type);
    if (name) decodeExtension(name, data.slice(start, start + length), result);
    else result.otherExtensionTypes.push(type);
    offset = start + length;
  }
  return result;
}

/** The fee in force at `epoch`: the newer schedule once its epoch is reached, else the older one. */
export function transferFeeAtEpoch(config: TransferFeeConfig, epoch: bigint): TransferFee {
  return epoch >= config.newerTransferFee.epoch ? config.newerTransferFee : config.olderTransferFee;
}
