import type { Address, ReadonlyUint8Array } from "@solana/kit";
import { AccountDecodeError } from "./decode-error";

/** Raw account as returned by getAccountInfo / getMultipleAccounts (base64 decoded). */
export interface AccountBytes {
  readonly owner: Address;
  readonly data: Uint8Array;
}

/** What an account must look like before its bytes are trusted. */
export interface AccountShape {
  /** layout name used in errors */
  readonly layout: string;
  readonly owners: readonly Address[];
  /** exact data length, or `[min]` for layouts that grow by appending fields */
  readonly size: number | readonly [min: number];
  /** leading bytes (the 8-byte Anchor discriminator); omitted for non-Anchor layouts */
  readonly discriminator?: ReadonlyUint8Array;
}

/** Throws `AccountDecodeError` unless owner, size and discriminator match. */
export function assertAccountShape(account: AccountBytes, shape: AccountShape): void {
  if (!shape.owners.includes(account.owner)) {
    throw new AccountDecodeError(shape.layout, "owner", `owned by ${account.owner}`);
  }
  const length = account.data.length;
  const sizeOk = typeof shape.size === "number" ? length === shape.size : length >= shape.size[0];
  if (!sizeOk) throw new AccountDecodeError(shape.layout, "size", `${length} bytes`);
  const disc = shape.discriminator;
  if (disc !== undefined && disc.some((byte, i) => account.data[i] !== byte)) {
    throw new AccountDecodeError(shape.layout, "discriminator", "unexpected account type");
  }
}

