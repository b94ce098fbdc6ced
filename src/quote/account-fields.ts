/**
 * Little-endian field reads at fixed offsets, for the fee and curve fields a quote needs that the price decoders do not
 * carry. Each read checks the account is long enough: a short account is a refusal, never a wrong number.
 */
import { getAddressDecoder, type Address } from "@solana/kit";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { QuoteRefusal } from "./pool-quoter";

const addressDecoder = getAddressDecoder();

function view(account: AccountBytes, layout: string, offset: number, size: number): DataView {
  if (account.data.length < offset + size) throw new QuoteRefusal(`${layout}: account of ${account.data.length} bytes ends before offset ${offset + size}`);
  return new DataView(account.data.buffer, account.data.byteOffset, account.data.length);
}

export function u8At(account: AccountBytes, layout: string, offset: number): number {
  return view(account, layout, offset, 1).getUint8(offset);
}
export function u16At(account: AccountBytes, layout: string, offset: number): number {
  return view(account, layout, offset, 2).getUint16(offset, true);
}
export function u32At(account: AccountBytes, layout: string, offset: number): number {
  return view(account, layout, offset, 4).getUint32(offset, true);
}
export function i32At(account: AccountBytes, layout: string, offset: number): number {
  return view(account, layout, offset, 4).getInt32(offset, true);
}
export function u64At(account: AccountBytes, layout: string, offset: number): bigint {
  return view(account, layout, offset, 8).getBigUint64(offset, true);
}
export function u128At(account: AccountBytes, layout: string, offset: number): bigint {
  const v = view(account, layout, offset, 16);
  return v.getBigUint64(offset, true) | (v.getBigUint64(offset + 8, true) << 64n);
}
export function i128At(account: AccountBytes, layout: string, offset: number): bigint {
  const unsigned = u128At(account, layout, offset);
  return unsigned >= 1n << 127n ? unsigned - (1n << 128n) : unsigned;
}
export function addressAt(account: AccountBytes, layout: string, offset: number): Address {
  view(account, layout, offset, 32);
  return addressDecoder.decode(account.data, offset);
}

export const DEFAULT_ADDRESS = "11111111111111111111111111111111" as Address;
