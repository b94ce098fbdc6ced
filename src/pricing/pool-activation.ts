/**
 * Pools not yet open: a pool whose program still refuses swaps (its activation slot or time, its open time — each
 * venue's descriptor says which) is not used for a price until then, and says when it opens. "Now" is the chain's: the
 * Clock sysvar read in the same batch as the pools, as the programs read it (`Clock::get()`).
 */
import type { Address } from "@solana/kit";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodeClockSysvar } from "../solana/accounts/clock-sysvar";
import type { AccountLookup } from "../venues/pool-adapter";
import { descriptorOfKind, type PoolKind } from "../venues/pool-kinds";

/** The chain's slot and unix time, as a swap executing now would see them. */
export interface ChainNow {
  readonly slot: bigint;
  readonly unixTime: bigint;
}

/**
 * Now from the Clock sysvar of the snapshot; when the upstream answered without it (absent or malformed), the slot the
 * snapshot was read at and this machine's clock — close to the chain's (validators' stake-weighted time tracks UTC).
 */
export function chainNowOf(clock: AccountBytes | null | undefined, snapshotSlot: number, nowMs: number): ChainNow {
  if (clock) {
    try {
      const { slot, unixTimestamp } = decodeClockSysvar(clock);
      return { slot, unixTime: unixTimestamp };
    } catch {
      // not a Clock account: fall through to the snapshot's slot and the local time
    }
  }
  return { slot: BigInt(snapshotSlot), unixTime: BigInt(Math.floor(nowMs / 1000)) };
}

/** The latest unix second a JavaScript Date can show (8.64e15 ms). */
const MAX_DATE_SECONDS = 8_640_000_000_000n;

const isoOf = (seconds: bigint): string => (seconds >= 0n && seconds <= MAX_DATE_SECONDS ? new Date(Number(seconds) * 1000).toISOString() : `unix time ${seconds}`);

/**
 * Why a priced pool is not used yet — when it opens for swaps — or undefined when its program accepts swaps now (or
 * its venue has no activation gate).
 */
export function notOpenYet(kind: PoolKind, pool: Address, account: AccountBytes, now: ChainNow, lookup: AccountLookup = () => undefined): string | undefined {
  const rule = descriptorOfKind[kind].activation;
  const point = rule?.(account, lookup, pool);
  if (!point) return undefined;
  const label = `pool ${pool} (${kind}) is not open yet`;
  if (point.unit === "slot") return point.opensAt > now.slot ? `${label}: swaps open at slot ${point.opensAt} (chain slot now ${now.slot})` : undefined;
  return point.opensAt > now.unixTime ? `${label}: swaps open at ${isoOf(point.opensAt)} (chain time now ${isoOf(now.unixTime)})` : undefined;
}
