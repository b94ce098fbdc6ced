/**
 * SPL Token and Token-2022 mint / token-account decoders. Token-2022 keeps the classic 82-byte mint and
 * 165-byte account as a prefix, then (when extensions exist) an AccountType byte at 165 and TLV data.
 */
import { getAddressDecoder, getBooleanDecoder, getU32Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape } from "./account";
import { VenueDecodeError } from "./errors";
import { getFieldsDecoder } from "./layout";
import type { AccountBytes } from "./types";

export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;
/** Token-2022 AccountType byte (after the 165-byte base) that tells a mint from a token account. */
const ACCOUNT_TYPE_OFFSET = 165;
const ACCOUNT_TYPE_MINT = 1;
const ACCOUNT_TYPE_ACCOUNT = 2;
const TOKEN_PROGRAMS = [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS];

export interface Mint {
  readonly tokenProgram: Address;
  readonly mintAuthority: Address | null;
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

const mintDecoder = getFieldsDecoder({
  mintAuthorityTag: [0, getU32Decoder()],
  mintAuthority: [4, getAddressDecoder()],
  supply: [36, getU64Decoder()],
  decimals: [44, getU8Decoder()],
  isInitialized: [45, getBooleanDecoder()],
  freezeAuthorityTag: [46, getU32Decoder()],
  freezeAuthority: [50, getAddressDecoder()],
});

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

/** Decodes an SPL or Token-2022 mint (extensions ignored). Throws `VenueDecodeError` on anything else. */
export function decodeMint(account: AccountBytes): Mint {
  assertAccountShape(account, { layout: "Mint", owners: TOKEN_PROGRAMS, size: [MINT_SIZE] });
  assertTokenAccountType(account, "Mint", MINT_SIZE, ACCOUNT_TYPE_MINT);
  const raw = mintDecoder.decode(account.data);
  return {
    tokenProgram: account.owner,
    mintAuthority: raw.mintAuthorityTag === 1 ? raw.mintAuthority : null,
    supply: raw.supply,
    decimals: raw.decimals,
    isInitialized: raw.isInitialized,
    freezeAuthority: raw.freezeAuthorityTag === 1 ? raw.freezeAuthority : null,
  };
}

/** Decodes an SPL or Token-2022 token account (extensions ignored). Throws `VenueDecodeError` on anything else. */
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
  if (vault.mint !== expectedMint) throw new VenueDecodeError(layout, "mismatch", `vault holds ${vault.mint}`);
  return vault.amount;
}

function assertTokenAccountShape(account: AccountBytes): void {
  assertAccountShape(account, { layout: "TokenAccount", owners: TOKEN_PROGRAMS, size: [TOKEN_ACCOUNT_SIZE] });
  assertTokenAccountType(account, "TokenAccount", TOKEN_ACCOUNT_SIZE, ACCOUNT_TYPE_ACCOUNT);
}

/**
 * Classic Token accounts have exactly their base size. Token-2022 ones may be longer only when they carry
 * the AccountType byte: a 165-byte base padded mint and a token account are otherwise indistinguishable.
 */
function assertTokenAccountType(account: AccountBytes, layout: string, baseSize: number, accountType: number): void {
  const length = account.data.length;
  if (length === baseSize) return;
  if (account.owner === TOKEN_PROGRAM_ADDRESS || length <= ACCOUNT_TYPE_OFFSET) {
    throw new VenueDecodeError(layout, "size", `${length} bytes`);
  }
  if (account.data[ACCOUNT_TYPE_OFFSET] !== accountType) {
    throw new VenueDecodeError(layout, "discriminator", `account type ${account.data[ACCOUNT_TYPE_OFFSET]}`);
  }
}
