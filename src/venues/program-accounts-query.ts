import {
  getBase58Decoder,
  type Address,
  type Base58EncodedBytes,
  type GetProgramAccountsDatasizeFilter,
  type GetProgramAccountsMemcmpFilter,
  type ReadonlyUint8Array,
} from "@solana/kit";

/**
 * A getProgramAccounts call that finds pools of a mint which cannot be derived from it (configs that are
 * arbitrary keys, non-PDA pools). The filters are in kit's RPC shape and can be passed through unchanged.
 */
export interface ProgramAccountsQuery {
  readonly programAddress: Address;
  readonly filters: readonly (GetProgramAccountsDatasizeFilter | GetProgramAccountsMemcmpFilter)[];
}

/** Filter: account data length equals `size`. */
export function dataSizeFilter(size: number): GetProgramAccountsDatasizeFilter {
  return { dataSize: BigInt(size) };
}

/** Filter: `bytes` (an address or a discriminator) found at `offset` of the account data. */
export function memcmpFilter(offset: number, bytes: Address | ReadonlyUint8Array): GetProgramAccountsMemcmpFilter {
  const base58 = typeof bytes === "string" ? bytes : getBase58Decoder().decode(bytes);
  return { memcmp: { offset: BigInt(offset), bytes: base58 as Base58EncodedBytes, encoding: "base58" } };
}
