/**
 * SPL Token / Token-2022 mint base (82 bytes, identical in both programs; VENUES.md §1) with the owner check that
 * tells the two programs apart. Token-2022 extensions after the base are parsed by `token-2022-extensions.ts`,
 * separately, so a malformed extension never hides supply/decimals.
 */
import {
  address,
  getStructDecoder,
  getU64Decoder,
  getU8Decoder,
  type Address,
  type FixedSizeDecoder,
  type ReadonlyUint8Array,
} from "@solana/kit";

import { AccountDecodeError, withTypedDecodeErrors } from "./account-decode-error";
import { getCOptionAddressDecoder, getStrictBoolDecoder } from "./strict-codecs";

export const TOKEN_PROGRAM_ADDRESS = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const TOKEN_2022_PROGRAM_ADDRESS = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");

/** Size of the mint base; also the whole account for SPL Token and extension-less Token-2022 mints. */
export const MINT_BASE_SIZE = 82;
/** Token-2022 pads the base to the token-account size so this byte can tell mints (1) from accounts (2). */
export const TOKEN_2022_ACCOUNT_TYPE_OFFSET = 165;
export const TOKEN_2022_ACCOUNT_TYPE_MINT = 1;

export type MintBase = {
  mintAuthority: Address | null;
  /** Raw supply in base units; stays bigint until serialization. */
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: Address | null;
};

export type MintAccount = MintBase & { isToken2022: boolean };

/** Decoder for the 82-byte mint base. */
export function getMintBaseDecoder(): FixedSizeDecoder<MintBase> {
  return getStructDecoder([
    ["mintAuthority", getCOptionAddressDecoder("mint_authority")],
    ["supply", getU64Decoder()],
    ["decimals", getU8Decoder()],
    ["isInitialized", getStrictBoolDecoder("is_initialized")],
    ["freezeAuthority", getCOptionAddressDecoder("freeze_authority")],
  ]);
}

const mintBaseDecoder = getMintBaseDecoder();

/**
 * Decodes a mint owned by either token program. Throws {@link AccountDecodeError}: `WRONG_OWNER` for any other
 * owner, `INVALID_SIZE` for a length no mint of that program can have, `UNEXPECTED_ACCOUNT_KIND` for a
 * Token-2022 account whose type byte says it is not a mint (e.g. a token account passed as a mint).
 * `isInitialized` is returned, not enforced: the caller decides what an uninitialized mint means.
 */
export function decodeMintAccount(account: { owner: string; data: ReadonlyUint8Array }): MintAccount {
  const { owner, data } = account;
  const isToken2022 = owner === TOKEN_2022_PROGRAM_ADDRESS;
  if (!isToken2022 && owner !== TOKEN_PROGRAM_ADDRESS) {
    throw new AccountDecodeError("WRONG_OWNER", `mint owner is ${owner}`);
  }
  if (data.length !== MINT_BASE_SIZE) {
    // Only Token-2022 mints carry extensions, and then the type byte at 165 is present (length >= 166).
    if (!isToken2022 || data.length <= TOKEN_2022_ACCOUNT_TYPE_OFFSET) {
      throw new AccountDecodeError("INVALID_SIZE", `mint data is ${data.length} bytes`);
    }
    if (data[TOKEN_2022_ACCOUNT_TYPE_OFFSET] !== TOKEN_2022_ACCOUNT_TYPE_MINT) {
      throw new AccountDecodeError(
        "UNEXPECTED_ACCOUNT_KIND",
        `Token-2022 account type is ${data[TOKEN_2022_ACCOUNT_TYPE_OFFSET]}, expected ${TOKEN_2022_ACCOUNT_TYPE_MINT}`,
      );
    }
  }
  const base = withTypedDecodeErrors("mint", () => mintBaseDecoder.decode(data));
  return { ...base, isToken2022 };
}
