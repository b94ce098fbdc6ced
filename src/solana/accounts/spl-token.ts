/**
 * SPL Token and Token-2022 mints and token accounts (VENUES.md §1), the one decoder of each. Token-2022 keeps the
 * classic 82-byte mint and 165-byte account as a prefix, then (when extensions exist) an AccountType byte at 165 and
 * TLV data, parsed separately by `token-2022-extensions.ts` so that a malformed extension never hides supply/decimals.
 */
import { getAddressDecoder, getU64Decoder, getU8Decoder, getStructDecoder, type Address } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../well-known";
import { assertAccountShape, type AccountBytes } from "./account-shape";
import { AccountDecodeError, withTypedDecodeErrors } from "./decode-error";
import { getFieldsDecoder } from "./field-layout";
import { getCOptionAddressDecoder, getStrictBoolDecoder } from "./strict-codecs";

/** Size of the mint base; also the whole account for SPL Token and extension-less Token-2022 mints. */
export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;
/** Token-2022 pads the mint base to the token-account size so this byte can tell mints (1) from accounts (2). */
export const TOKEN_2022_ACCOUNT_TYPE_OFFSET = 165;
export const TOKEN_2022_ACCOUNT_TYPE_MINT = 1;
const TOKEN_2022_ACCOUNT_TYPE_ACCOUNT = 2;
const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];

export interface Mint {
  readonly tokenProgram: Address;
  readonly mintAuthority: Address | null;
  /** raw supply in base units; stays bigint until serialization */
  readonly supply: bigint;
  readonly decimals: number;
  readonly isInitialized: boolean;
  readonly freezeAuthority: Address | null;
}

export interface TokenAccount {
  readonly mint: Address;
  readonly owner: Address;
  readonly amount: bigint;
  /** 0 uninitialized, 1 initialized, 2 frozen */
  readonly state: number;
}

/** The 82-byte base with SPL-Pack's strictness: COption tags and `is_initialized` must be 0 or 1. */
const mintDecoder = getStructDecoder([
  ["mintAuthority", getCOptionAddressDecoder("mint_authority")],
  ["supply", getU64Decoder()],
  ["decimals", getU8Decoder()],
  ["isInitialized", getStrictBoolDecoder("is_initialized")],
  ["freezeAuthority", getCOptionAddressDecoder("freeze_authority")],
]);

const tokenAccountDecoder = getFieldsDecoder({
  mint: [0, getAddressDecoder()],
  owner: [32, getAddressDecoder()],
  amount: [64, getU64Decoder()],
  state: [108, getU8Decoder()],
});
/** Pricing needs only the balance and the mint check: skipping `owner` saves a base58 encoding per vault. */
const vaultDecoder = getFieldsDecoder({
  mint: [0, getAddressDecoder()],
  amount: [64, getU64Decoder()],
});

/**
 * Decodes a mint owned by either token program (extensions ignored). Throws {@link AccountDecodeError}: `owner` for any
 * other owner, `size` for a length no mint of that program can have, `discriminator` for a Token-2022 account whose
 * type byte says it is not a mint, `invalid-tag` for a COption or bool byte out of range. `isInitialized` is returned,
 * not enforced: the caller decides what an uninitialized mint means.
 */
export function decodeMint(account: AccountBytes): Mint {
  assertAccountShape(account, { layout: "Mint", owners: TOKEN_PROGRAMS, size: [MINT_SIZE] });
  assertTokenAccountType(account, "Mint", MINT_SIZE, TOKEN_2022_ACCOUNT_TYPE_MINT);
  return { tokenProgram: account.owner, ...withTypedDecodeErrors("Mint", () => mintDecoder.decode(account.data)) };
}

/** Decodes an SPL or Token-2022 token account (extensions ignored). Throws `AccountDecodeError` on anything else. */
export function decodeTokenAccount(account: AccountBytes): TokenAccount {
  assertTokenAccountShape(account);
  return tokenAccountDecoder.decode(account.data);
}

/**
 * Balance of a pool vault, checked to hold `expectedMint` so that a mixed-up related account fails
 * loudly instead of pricing the pool with another token's balance.
 */
export function readVaultAmount(layout: string, account: AccountBytes, expectedMint: Address): bigint {
  assertTokenAccountShape(account);
  const vault = vaultDecoder.decode(account.data);
  if (vault.mint !== expectedMint) throw new AccountDecodeError(layout, "mismatch", `vault holds ${vault.mint}`);
  return vault.amount;
}

function assertTokenAccountShape(account: AccountBytes): void {
  assertAccountShape(account, { layout: "TokenAccount", owners: TOKEN_PROGRAMS, size: [TOKEN_ACCOUNT_SIZE] });
  assertTokenAccountType(account, "TokenAccount", TOKEN_ACCOUNT_SIZE, TOKEN_2022_ACCOUNT_TYPE_ACCOUNT);
}

/**
 * Classic Token accounts have exactly their base size. Token-2022 ones may be longer only when they carry
 * the AccountType byte: a 165-byte base padded mint and a token account are otherwise indistinguishable.
 */
function assertTokenAccountType(account: AccountBytes, layout: string, baseSize: number, accountType: number): void {
  const length = account.data.length;
  if (length === baseSize) return;
  if (account.owner === TOKEN_PROGRAM_ADDRESS || length <= TOKEN_2022_ACCOUNT_TYPE_OFFSET) {
    throw new AccountDecodeError(layout, "size", `${length} bytes`);
  }
  if (account.data[TOKEN_2022_ACCOUNT_TYPE_OFFSET] !== accountType) {
    throw new AccountDecodeError(layout, "discriminator", `account type ${account.data[TOKEN_2022_ACCOUNT_TYPE_OFFSET]}`);
  }
}

/** The `dataSlice` of a token account that holds its owner and amount (holder scans ask for only these 40 bytes). */
export const TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE = { offset: 32, length: 40 } as const;
const ownerAmountDecoder = getFieldsDecoder({
  owner: [0, getAddressDecoder()],
  amount: [32, getU64Decoder()],
});

/** Owner and amount from a {@link TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE} of a token account; throws `size` on any other length. */
export function decodeTokenAccountOwnerAmount(slice: Uint8Array): { owner: Address; amount: bigint } {
  if (slice.length !== TOKEN_ACCOUNT_OWNER_AMOUNT_SLICE.length) {
    throw new AccountDecodeError("TokenAccountOwnerAmount", "size", `${slice.length} bytes`);
  }
  return ownerAmountDecoder.decode(slice);
}
