/**
 * One typed error for every account decoder in this folder, so callers can map a bad account to a single API
 * error path without string-matching messages. Codes are a closed union: add new ones, never rename or reuse.
 */
export type AccountDecodeErrorCode =
  /** The account is not owned by the program whose layout we are about to apply. */
  | "WRONG_OWNER"
  /** The leading account discriminator (Metaplex `key`, Token-2022 `AccountType`) is not the expected one. */
  | "UNEXPECTED_ACCOUNT_KIND"
  /** The data length is impossible for this account kind. */
  | "INVALID_SIZE"
  /** A required field runs past the end of the data. */
  | "TRUNCATED"
  /** A length-prefixed string declares more bytes than the layout allows. */
  | "STRING_TOO_LONG"
  /** A length-prefixed vector declares more items than the layout allows. */
  | "TOO_MANY_ITEMS"
  /** An Option / COption / bool byte is neither 0 nor 1. */
  | "INVALID_TAG"
  /** A TLV entry header or length is inconsistent with the data. */
  | "MALFORMED_TLV"
  /** A known Token-2022 extension has a value length that differs from its fixed size. */
  | "INVALID_EXTENSION_LENGTH"
  /** The same Token-2022 extension type appears twice (the program never writes that). */
  | "DUPLICATE_EXTENSION";

/** Thrown by the decoders in `src/overview/token-metadata/`; never carries account bytes in its message. */
export class AccountDecodeError extends Error {
  override readonly name = "AccountDecodeError";

  constructor(
    readonly code: AccountDecodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
  }
}

/**
 * Runs a decode step and converts anything that is not already an {@link AccountDecodeError} (kit codecs throw
 * `SolanaError` when bytes run out) into `TRUNCATED`, so hostile bytes can only ever surface as the typed error.
 */
export function withTypedDecodeErrors<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof AccountDecodeError) throw error;
    throw new AccountDecodeError("TRUNCATED", `${what} ends before its layout does`, { cause: error });
  }
}
