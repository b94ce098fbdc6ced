/**
 * The one error every account decoder throws (mints, token accounts, Token-2022 extensions, Metaplex metadata, Pyth,
 * sysvars, venue pools and the prices computed from them), so callers map a bad account to one path without
 * string-matching messages. Reasons are a closed union: add new ones, never rename or reuse (the price route's 404
 * messages carry them).
 */
export type AccountDecodeReason =
  /** the account is not owned by the program whose layout was asked for */
  | "owner"
  /** the data length does not fit the layout */
  | "size"
  /** the leading discriminator (Anchor's 8 bytes, Metaplex `key`, Token-2022 `AccountType`) is not the expected one */
  | "discriminator"
  /** a related account does not belong to the pool (wrong mint, wrong vault) */
  | "mismatch"
  /** a decoded value makes pricing impossible (empty reserve, unknown feed, non-positive price) */
  | "value"
  /** a field of a variable-size layout runs past the end of the data */
  | "truncated"
  /** a length-prefixed string declares more bytes than the layout allows */
  | "string-too-long"
  /** a length-prefixed vector declares more items than the layout allows */
  | "too-many-items"
  /** an Option / COption / bool / enum byte is out of range */
  | "invalid-tag"
  /** a TLV entry header or length is inconsistent with the data */
  | "malformed-tlv"
  /** a known Token-2022 extension has a value length that differs from its fixed size */
  | "invalid-extension-length"
  /** the same Token-2022 extension type appears twice (the program never writes that) */
  | "duplicate-extension";

/** Why account bytes were rejected; `layout` names the account (or field) read, the message is for logs and 404s. */
export class AccountDecodeError extends Error {
  override readonly name = "AccountDecodeError";

  constructor(
    readonly layout: string,
    readonly reason: AccountDecodeReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${layout}: ${reason}: ${detail}`, options);
  }
}

/**
 * Runs a decode step and converts anything that is not already an {@link AccountDecodeError} (kit codecs throw
 * `SolanaError` when bytes run out) into `truncated`, so hostile bytes can only ever surface as the typed error.
 * Never carries account bytes in its message.
 */
export function withTypedDecodeErrors<T>(layout: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof AccountDecodeError) throw error;
    throw new AccountDecodeError(layout, "truncated", "data ends before its layout does", { cause: error });
  }
}
