/**
 * A Clock sysvar account at a given unix time, in its bincode layout (slot u64 @0, epoch_start_timestamp i64 @8,
 * epoch u64 @16, leader_schedule_epoch u64 @24, unix_timestamp i64 @32; 40 bytes, owner Sysvar1111…). Mainnet fixture
 * sets come without their Clock, so tests state the chain time they price at.
 */
import { address } from "@solana/kit";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";

export function clockAccount(unixTimestamp: bigint, slot = 275_000_000n): AccountBytes {
  const data = new Uint8Array(40);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, slot, true);
  view.setBigInt64(8, unixTimestamp - 86_400n, true);
  view.setBigUint64(16, slot / 432_000n, true);
  view.setBigUint64(24, slot / 432_000n + 1n, true);
  view.setBigInt64(32, unixTimestamp, true);
  return { owner: address("Sysvar1111111111111111111111111111111111111"), data };
}
