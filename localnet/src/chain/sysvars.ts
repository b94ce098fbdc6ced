/**
 * Sysvar accounts in their real bincode layouts (solana-sdk's Clock, Rent, EpochSchedule, SlotHashes, StakeHistory),
 * owned by the Sysvar program, with the rent-exempt balance for their size and, for the two lists, the fixed account
 * size Agave allocates (`size_of`: 512 entries). The ledger writes them at genesis and at every produced slot.
 */
import { parseBase58Fixed } from "./base58.js";
import { minimumBalanceForRentExemption, RENT_EXEMPT_EPOCH, SLOTS_PER_EPOCH, TOTAL_STAKE } from "./cluster-constants.js";
import type { AccountState, Pubkey } from "./types.js";

export const SYSVAR_OWNER = "Sysvar1111111111111111111111111111111111111";
export const CLOCK_SYSVAR = "SysvarC1ock11111111111111111111111111111111";
export const RENT_SYSVAR_ID = "SysvarRent111111111111111111111111111111111";
export const EPOCH_SCHEDULE_SYSVAR = "SysvarEpochSchedu1e111111111111111111111111";
export const SLOT_HASHES_SYSVAR = "SysvarS1otHashes111111111111111111111111111";
export const STAKE_HISTORY_SYSVAR = "SysvarStakeHistory1111111111111111111111111";

/** Agave MAX_ENTRIES of SlotHashes and StakeHistory. */
export const MAX_SLOT_HASHES = 512;
export const MAX_STAKE_HISTORY = 512;
const SLOT_HASHES_SIZE = 8 + MAX_SLOT_HASHES * 40;
const STAKE_HISTORY_SIZE = 8 + MAX_STAKE_HISTORY * 32;

/** Rent: 3,480 lamports per byte-year, exempt at 2 years, half of collected rent burned (mainnet's). */
const LAMPORTS_PER_BYTE_YEAR = 3_480n;
const EXEMPTION_THRESHOLD = 2.0;
const BURN_PERCENT = 50;

export interface ClockFields {
  slot: number;
  epochStartTimestamp: number;
  epoch: number;
  leaderScheduleEpoch: number;
  unixTimestamp: number;
}

function sysvarAccount(data: Uint8Array): AccountState {
  return { lamports: BigInt(minimumBalanceForRentExemption(data.length)), owner: SYSVAR_OWNER, data, executable: false, rentEpoch: RENT_EXEMPT_EPOCH };
}

export function clockData(clock: ClockFields): Uint8Array {
  const data = new Uint8Array(40);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, BigInt(clock.slot), true);
  view.setBigInt64(8, BigInt(clock.epochStartTimestamp), true);
  view.setBigUint64(16, BigInt(clock.epoch), true);
  view.setBigUint64(24, BigInt(clock.leaderScheduleEpoch), true);
  view.setBigInt64(32, BigInt(clock.unixTimestamp), true);
  return data;
}

export function rentData(): Uint8Array {
  const data = new Uint8Array(17);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, LAMPORTS_PER_BYTE_YEAR, true);
  view.setFloat64(8, EXEMPTION_THRESHOLD, true);
  data[16] = BURN_PERCENT;
  return data;
}

/** Mainnet's schedule: 432,000 slots per epoch, leader schedule one epoch ahead, no warmup. */
export function epochScheduleData(): Uint8Array {
  const data = new Uint8Array(33);
  const view = new DataView(data.buffer);
  view.setBigUint64(0, BigInt(SLOTS_PER_EPOCH), true);
  view.setBigUint64(8, BigInt(SLOTS_PER_EPOCH), true);
  data[16] = 0; // warmup: false
  view.setBigUint64(17, 0n, true); // first_normal_epoch
  view.setBigUint64(25, 0n, true); // first_normal_slot
  return data;
}

/** An empty SlotHashes account's data: `Vec<(Slot, Hash)>` of length 0 in an account of the fixed SlotHashes size. */
export function emptySlotHashesData(): Uint8Array {
  return new Uint8Array(SLOT_HASHES_SIZE);
}

/**
 * SlotHashes with (slot, hash) put first (newest first, the oldest dropped past 512 entries), as new bytes: one copy
 * per slot rather than re-encoding 512 hashes, so long runs stay cheap.
 */
export function withSlotHash(previous: Uint8Array, slot: number, hash: string): Uint8Array {
  const data = new Uint8Array(SLOT_HASHES_SIZE);
  const view = new DataView(data.buffer);
  const count = Math.min(Number(new DataView(previous.buffer, previous.byteOffset).getBigUint64(0, true)) + 1, MAX_SLOT_HASHES);
  data.set(previous.subarray(8, 8 + (count - 1) * 40), 48);
  view.setBigUint64(0, BigInt(count), true);
  view.setBigUint64(8, BigInt(slot), true);
  const bytes = parseBase58Fixed(hash, 32);
  if (typeof bytes !== "string") data.set(bytes, 16);
  return data;
}

/**
 * `Vec<(Epoch, StakeHistoryEntry{effective, activating, deactivating})>`, newest first: every completed epoch before
 * `epoch`, with all the stake effective (one validator, staked since genesis).
 */
export function stakeHistoryData(epoch: number): Uint8Array {
  const data = new Uint8Array(STAKE_HISTORY_SIZE);
  const view = new DataView(data.buffer);
  const count = Math.min(epoch, MAX_STAKE_HISTORY);
  view.setBigUint64(0, BigInt(count), true);
  for (let i = 0; i < count; i++) {
    const offset = 8 + i * 32;
    view.setBigUint64(offset, BigInt(epoch - 1 - i), true);
    view.setBigUint64(offset + 8, BigInt(TOTAL_STAKE), true);
  }
  return data;
}

/** Every sysvar as of a bank: Clock and SlotHashes change each slot, StakeHistory each epoch, Rent and EpochSchedule never. */
export function sysvarAccounts(clock: ClockFields, slotHashes: Uint8Array, withStatic: boolean): [Pubkey, AccountState][] {
  const out: [Pubkey, AccountState][] = [
    [CLOCK_SYSVAR, sysvarAccount(clockData(clock))],
    [SLOT_HASHES_SYSVAR, sysvarAccount(slotHashes)],
  ];
  if (withStatic) {
    out.push([RENT_SYSVAR_ID, sysvarAccount(rentData())]);
    out.push([EPOCH_SCHEDULE_SYSVAR, sysvarAccount(epochScheduleData())]);
    out.push([STAKE_HISTORY_SYSVAR, sysvarAccount(stakeHistoryData(clock.epoch))]);
  }
  return out;
}
