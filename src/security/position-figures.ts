/**
 * What the position venues share (DAMM v2 in position-locks.ts; CLMM, Whirlpool and DLMM in concentrated-positions.ts):
 * the budgeted scan of a pool's positions, the answer when it is over budget, and the figures made from liquidity summed
 * by who can withdraw it.
 */
import type { Address } from "@solana/kit";
import { z } from "zod/mini";

import { isUpstreamError } from "../errors/upstream-api-error";
import { limits } from "../limits";
import { formatPercent } from "../overview/amount-format";
import type { AccountRpc } from "../solana/account-reader";
import { UpstreamError } from "../solana/upstream";
import type { FactSource, PositionMeasure } from "./security-schema";

export type PositionLocks = {
  /** What `liquidity` sums (security-schema.ts `positionMeasures`). */
  measure: PositionMeasure;
  /** Positions of the pool. */
  positions: number;
  /** Their liquidity summed (unlocked + vested + permanently locked), in the pool's liquidity units. */
  liquidity: string;
  burned: string;
  burnedPercent: string;
  locked: string;
  lockedPercent: string;
  /** Of `locked`: locked in the positions themselves (vested and permanent). */
  lockedInPlace: string;
  /** NFT holders that are known lockers, with the liquidity of the positions they hold. */
  lockers: { owner: string; locker: string; amount: string }[];
};

export type PositionAnswer = { positions: PositionLocks | null; message: string; source: FactSource };

const gpaSchema = z.array(z.object({ pubkey: z.string(), account: z.object({ data: z.tuple([z.string(), z.literal("base64")]) }) }));
export type GpaRows = z.infer<typeof gpaSchema>;

export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export class OverBudget extends Error {}

/** One budgeted, sliced getProgramAccounts; `OverBudget` when the answer is past the byte or time budget. */
export async function scanPositions(rpc: AccountRpc, program: Address, filters: unknown[], slice: { offset: number; length: number }, requestId?: string): Promise<GpaRows> {
  try {
    const { result } = await rpc.call<unknown>("getProgramAccounts", [program, { encoding: "base64", commitment: "confirmed", dataSlice: slice, filters }], {
      idempotent: true,
      requestId,
      maxAnswerBytes: limits.security.positionsScanMaxBytes,
      timeoutMs: limits.security.positionsScanTimeoutMs,
    });
    const parsed = gpaSchema.safeParse(result);
    if (!parsed.success) throw new UpstreamError("bad-response", "getProgramAccounts answer has an unexpected shape");
    return parsed.data;
  } catch (error) {
    if (isUpstreamError(error) && (error.kind === "answer-too-large" || error.kind === "timeout")) throw new OverBudget();
    throw error;
  }
}

/** The answer for a pool whose positions one scan cannot read within its budget. */
export function overBudgetAnswer(pool: Address): PositionAnswer {
  return {
    positions: null,
    message: `The pool has more positions than one scan reads within its budget (${limits.security.positionsScanMaxBytes} bytes, ${limits.security.positionsScanTimeoutMs} ms): their locks are not assessed.`,
    source: { accounts: [pool], slot: null, trades: null, unseen: "every position of the pool (the scan's budget)" },
  };
}

/** A pool's position liquidity summed by who can withdraw it. `locked` leaves out `lockedInPlace` (the figures add it). */
export type LockTally = { burned: bigint; locked: bigint; lockedInPlace: bigint; lockers: Map<Address, { locker: string; amount: bigint }> };

export const emptyLockTally = (): LockTally => ({ burned: 0n, locked: 0n, lockedInPlace: 0n, lockers: new Map() });

/** Adds `amount` to what the locker `owner` (of the known `locker`) holds. */
export function addToLocker(tally: LockTally, owner: Address, locker: string, amount: bigint): void {
  const entry = tally.lockers.get(owner) ?? { locker, amount: 0n };
  entry.amount += amount;
  tally.lockers.set(owner, entry);
}

/** The figures of `positions` positions holding `total` liquidity, as tallied; `locked` counts what is locked in place. */
export function positionLocksFigures(measure: PositionMeasure, positions: number, total: bigint, tally: LockTally): PositionLocks {
  const locked = tally.locked + tally.lockedInPlace;
  return {
    measure,
    positions,
    liquidity: total.toString(),
    burned: tally.burned.toString(),
    burnedPercent: formatPercent(tally.burned, total),
    locked: locked.toString(),
    lockedPercent: formatPercent(locked, total),
    lockedInPlace: tally.lockedInPlace.toString(),
    lockers: [...tally.lockers].map(([owner, { locker, amount }]) => ({ owner, locker, amount: amount.toString() })),
  };
}

/** The percent (4 places) of the liquidity neither burnt nor locked: its holders can withdraw it. */
export function withdrawablePercent(figures: PositionLocks): string {
  const free = 100 - Number(figures.burnedPercent) - Number(figures.lockedPercent);
  return free > 0 ? free.toFixed(4) : "0.0000";
}
