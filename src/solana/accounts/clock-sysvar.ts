/**
 * The Clock sysvar (SysvarC1ock…), read beside the pools whose math runs on chain time: programs see
 * `Clock::get()`, so pricing takes the same unix time from the same account snapshot, never the server's clock.
 */
import { getI64Decoder, getU64Decoder } from "@solana/kit";
import { SYSVAR_CLOCK_ADDRESS, SYSVAR_PROGRAM_ADDRESS } from "../well-known";
import { assertAccountShape, type AccountBytes } from "./account-shape";
import { getFieldsDecoder } from "./field-layout";

export { SYSVAR_CLOCK_ADDRESS };

/** bincode Clock: slot u64, epoch_start_timestamp i64, epoch u64, leader_schedule_epoch u64, unix_timestamp i64. */
export const CLOCK_SYSVAR_SIZE = 40;

export interface ClockSysvar {
  readonly slot: bigint;
  readonly epoch: bigint;
  /** seconds since the Unix epoch, as the bank's stake-weighted timestamp estimate */
  readonly unixTimestamp: bigint;
}

const clockDecoder = getFieldsDecoder({
  slot: [0, getU64Decoder()],
  epoch: [16, getU64Decoder()],
  unixTimestamp: [32, getI64Decoder()],
});

/** Decodes the Clock sysvar account (owner Sysvar1111…, exactly 40 bytes). */
export function decodeClockSysvar(account: AccountBytes): ClockSysvar {
  assertAccountShape(account, { layout: "ClockSysvar", owners: [SYSVAR_PROGRAM_ADDRESS], size: CLOCK_SYSVAR_SIZE });
  return clockDecoder.decode(account.data);
}
