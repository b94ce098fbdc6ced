/** Why account bytes were rejected by a venue decoder. */
export type VenueDecodeReason =
  /** the account is not owned by the program whose layout was asked for */
  | "owner"
  /** the data length does not fit the layout */
  | "size"
  /** the first 8 bytes are not the account type's discriminator */
  | "discriminator"
  /** a related account does not belong to the pool (wrong mint, wrong vault) */
  | "mismatch"
  /** a decoded value makes pricing impossible (empty reserve, unknown feed, non-positive price) */
  | "value";

/** The one error venue decoders and pricers throw; `reason` is machine-readable, the message is for logs. */
export class VenueDecodeError extends Error {
  override readonly name = "VenueDecodeError";

  constructor(
    readonly layout: string,
    readonly reason: VenueDecodeReason,
    detail: string,
  ) {
    super(`${layout}: ${reason}: ${detail}`);
  }
}
