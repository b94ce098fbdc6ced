/**
 * How much of a Raydium CLMM, Orca Whirlpool or Meteora DLMM pool's liquidity can never be withdrawn. These venues
 * have no LP mint: liquidity lives in position accounts (layouts: venues/position-accounts.ts).
 *
 * - Raydium CLMM and Orca Whirlpool: a position is withdrawn by whoever holds its NFT. The figures are over the
 *   liquidity at the current price — the positions whose tick range holds the pool's current tick, whose liquidity
 *   adds up to the pool's own `liquidity` (liquidity units of different ranges are not the same value; those out of
 *   range hold none at the price). Burnt: the NFT mint's supply is 0 (burnt with a Burn, the position can never be
 *   closed) or the NFT sits with a burn address. Locked: the NFT is held by a known locker (Raydium's locking program
 *   keeps locked CLMM NFTs under its CLMM authority), or — Whirlpool — the position has a `LockConfig` (locked in place
 *   with `lock_position`, its NFT account frozen for good).
 * - Meteora DLMM: a position names its owner (no NFT). The figures are over every position's liquidity shares summed
 *   over its bins (a bin's shares are minted at the bin's value in the quote token, so sums compare like value).
 *   Burnt: the owner is a burn address. Locked: the position cannot be withdrawn before its `lock_release_point`
 *   (locked in place, while the pair's clock — slot or unix time — is below it), or the owner's account belongs to a
 *   known locker program.
 *
 * Cost: one getProgramAccounts (dataSize + memcmp on the pool, sliced) under the byte and time budget of
 * `limits.security.positionsScan*`, beside the pool account (its program; CLMM and Whirlpool: its current tick) and, for Whirlpool, a second sliced
 * scan of the pool's LockConfigs; then, for the `limits.security.positionHoldersRead` positions with the most
 * liquidity, their NFT mints (one getMultipleAccounts), one getTokenLargestAccounts per NFT still in supply, the NFT
 * accounts and their owners (one getMultipleAccounts each). DLMM scans its positions' `lock_release_point` apart (8
 * bytes each, the same budget), reads the Clock beside the pair, then only the owners.
 */
import type { Address } from "@solana/kit";

import { limits } from "../limits";
import { parseLargestAccounts } from "../overview/holder-reads";
import { readTokenHolding } from "../overview/holders";
import { BURN_OWNERS } from "../overview/liquidity-owners";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import { decodeMint } from "../solana/accounts/spl-token";
import {
  decodeDlmmLockRelease,
  decodeLockConfigPosition,
  DLMM_LOCK_RELEASE_SLICE,
  DLMM_PAIR_ACTIVATION_TYPE_OFFSET,
  inRange,
  METEORA_DLMM_POSITION_SCAN,
  ORCA_WHIRLPOOL_POSITION_SCAN,
  poolTick,
  RAYDIUM_CLMM_POSITION_SCAN,
  WHIRLPOOL_LOCK_CONFIG,
  type ConcentratedPosition,
  type PositionScan,
} from "../venues/position-accounts";
import { lockerOf } from "./lockers";
import { addToLocker, emptyLockTally, fromBase64, OverBudget, overBudgetAnswer, positionLocksFigures, scanPositions, withdrawablePercent, type GpaRows, type PositionAnswer } from "./position-figures";

/** The venues whose positions this module reads, by the price record's `dex`. */
export const CONCENTRATED_POSITION_SCANS: Readonly<Record<string, PositionScan>> = {
  "raydium-clmm": RAYDIUM_CLMM_POSITION_SCAN,
  "orca-whirlpool": ORCA_WHIRLPOOL_POSITION_SCAN,
  "meteora-dlmm": METEORA_DLMM_POSITION_SCAN,
};

const VENUE_NAMES: Readonly<Record<string, string>> = { "raydium-clmm": "Raydium CLMM", "orca-whirlpool": "Orca Whirlpool", "meteora-dlmm": "Meteora DLMM" };

/** The NFT's supply (0: burnt, or the mint closed), or null when the account is not a mint. */
function nftSupply(raw: { owner: Address; data: Uint8Array } | null | undefined): bigint | null {
  if (!raw) return 0n;
  try {
    return decodeMint(raw).supply;
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
}

type Holder = { kind: "burn" } | { kind: "in-place" } | { kind: "owner"; owner: Address } | { kind: "unknown" };

/** The position figures of `pool` (priced as `dex`, one of {@link CONCENTRATED_POSITION_SCANS}), or why there are none. */
export async function readConcentratedPositionLocks(rpc: AccountRpc, pool: Address, dex: string, requestId?: string): Promise<PositionAnswer> {
  const layout = CONCENTRATED_POSITION_SCANS[dex]!;
  const venue = VENUE_NAMES[dex] ?? dex;
  const nftVenue = layout.poolTickOffset !== null;
  let rows: GpaRows;
  let lockRows: GpaRows = [];
  let releaseRows: GpaRows = [];
  let poolRead: Awaited<ReturnType<typeof readAccounts>> | null = null;
  const positionFilters = [{ dataSize: layout.size }, { memcmp: { offset: layout.poolOffset, bytes: pool } }];
  try {
    [rows, lockRows, releaseRows, poolRead] = await Promise.all([
      scanPositions(rpc, layout.program, positionFilters, layout.slice, requestId),
      dex === "orca-whirlpool"
        ? scanPositions(rpc, layout.program, [{ dataSize: WHIRLPOOL_LOCK_CONFIG.size }, { memcmp: { offset: WHIRLPOOL_LOCK_CONFIG.whirlpoolOffset, bytes: pool } }], { offset: WHIRLPOOL_LOCK_CONFIG.positionOffset, length: 32 }, requestId)
        : Promise.resolve([]),
      dex === "meteora-dlmm" ? scanPositions(rpc, layout.program, positionFilters, DLMM_LOCK_RELEASE_SLICE, requestId) : Promise.resolve([]),
      readAccounts(rpc, dex === "meteora-dlmm" ? [pool, SYSVAR_CLOCK_ADDRESS] : [pool], { requestId }),
    ]);
  } catch (error) {
    if (!(error instanceof OverBudget)) throw error;
    return overBudgetAnswer(pool);
  }
  const all = rows.flatMap((r) => layout.decode(r.pubkey as Address, fromBase64(r.account.data[0])) ?? []);
  // The pool account: its program (a pool of this venue?), the slot of the read, and for NFT venues its current tick.
  const poolAccount = poolRead?.accounts.get(pool);
  const tick = poolAccount && poolAccount.owner === layout.program ? poolTick(layout, poolAccount.data) : null;
  if (!poolAccount || poolAccount.owner !== layout.program || (nftVenue && tick === null)) {
    return { positions: null, message: `The pool account ${pool} could not be read as a ${venue} pool.`, source: { accounts: [pool], slot: poolRead?.slot ?? null, trades: null, unseen: null } };
  }
  // The liquidity counted: at the current price for NFT venues, every position's for DLMM.
  const counted = all.filter((p) => p.ticks === null || inRange(p.ticks, tick!));
  const lockedInPlaceSet = new Set(lockRows.flatMap((r) => decodeLockConfigPosition(fromBase64(r.account.data[0])) ?? []));
  // DLMM: positions whose lock_release_point is still ahead of the pair's clock are locked in place.
  if (dex === "meteora-dlmm") {
    const now = dlmmNow(poolAccount.data, poolRead!.slot, poolRead!.accounts.get(SYSVAR_CLOCK_ADDRESS));
    for (const r of releaseRows) {
      const release = decodeDlmmLockRelease(fromBase64(r.account.data[0]));
      if (release !== null && now !== null && release > now) lockedInPlaceSet.add(r.pubkey as Address);
    }
  }
  const read = [...counted].sort((a, b) => (a.liquidity === b.liquidity ? (a.address < b.address ? -1 : 1) : a.liquidity > b.liquidity ? -1 : 1)).slice(0, limits.security.positionHoldersRead);
  const { holders, slot } = nftVenue
    ? await nftHolders(rpc, read, lockedInPlaceSet, requestId)
    : { holders: read.map((p): Holder => (BURN_OWNERS.has(p.owner!) ? { kind: "burn" } : lockedInPlaceSet.has(p.address) ? { kind: "in-place" } : { kind: "owner", owner: p.owner! })), slot: null };
  const owners = [...new Set(holders.flatMap((h) => (h.kind === "owner" && !BURN_OWNERS.has(h.owner) ? [h.owner] : [])))];
  const ownerRead = owners.length > 0 ? await readAccounts(rpc, owners, { requestId }) : null;

  const total = counted.reduce((s, p) => s + p.liquidity, 0n);
  const tally = emptyLockTally();
  read.forEach((p, i) => {
    const holder = holders[i]!;
    if (holder.kind === "burn" || (holder.kind === "owner" && BURN_OWNERS.has(holder.owner))) {
      tally.burned += p.liquidity;
    } else if (holder.kind === "in-place") {
      tally.lockedInPlace += p.liquidity;
    } else if (holder.kind === "owner") {
      const locker = lockerOf(holder.owner, ownerRead?.accounts.get(holder.owner)?.owner ?? null);
      if (!locker) return;
      tally.locked += p.liquidity;
      addToLocker(tally, holder.owner, locker, p.liquidity);
    }
  });
  const figures = positionLocksFigures(nftVenue ? "in-range-liquidity" : "bin-shares", all.length, total, tally);
  const of = nftVenue ? `of the ${venue} pool's liquidity at the current price (${counted.length} of its ${all.length} positions in range)` : `of the ${venue} pool's position liquidity (bin shares of its ${all.length} positions)`;
  const how = nftVenue ? "burnt (its NFT burnt or at a burn address)" : "burnt (owned by a burn address)";
  const lockHow = dex === "orca-whirlpool" ? "locked (in place, or its NFT with a locker)" : nftVenue ? "locked (its NFT with a locker)" : "locked (until its release point, or owned by a locker)";
  const unseen = [
    ...(counted.length > read.length ? [`${nftVenue ? "holders of the NFTs" : "owners"} of positions beyond the ${read.length} with the most liquidity`] : []),
    ...(nftVenue ? ["positions out of range (no liquidity at the current price)"] : ["legacy (v1) positions"]),
    "lockers not in the published locker table",
  ];
  return {
    positions: figures,
    message: `${figures.burnedPercent}% ${of} is ${how} and ${figures.lockedPercent}% ${lockHow}; ${withdrawablePercent(figures)}% can be withdrawn by its holders.`,
    source: {
      accounts: [pool, ...read.map((p) => p.address)],
      slot: Math.min(poolRead!.slot, slot ?? poolRead!.slot, ownerRead?.slot ?? poolRead!.slot),
      trades: null,
      unseen: unseen.join("; "),
    },
  };
}

/** The DLMM pair's clock in the unit of its `activation_type`: the read's slot, or the Clock's unix time. */
function dlmmNow(pairData: Uint8Array, slot: number, clock: { owner: Address; data: Uint8Array } | null | undefined): bigint | null {
  if (pairData.length <= DLMM_PAIR_ACTIVATION_TYPE_OFFSET) return null;
  if (pairData[DLMM_PAIR_ACTIVATION_TYPE_OFFSET] === 0) return BigInt(slot);
  if (!clock) return null;
  try {
    return decodeClockSysvar(clock).unixTimestamp;
  } catch (error) {
    if (error instanceof AccountDecodeError) return null;
    throw error;
  }
}

/**
 * Who holds each position's NFT: burnt (no supply), locked in place (a Whirlpool LockConfig), or the owner of the one
 * token account holding it (getTokenLargestAccounts of the NFT mint, then that account).
 */
async function nftHolders(rpc: AccountRpc, read: readonly ConcentratedPosition[], lockedInPlace: ReadonlySet<Address>, requestId?: string): Promise<{ holders: Holder[]; slot: number | null }> {
  const mints = read.map((p) => p.nftMint!);
  if (mints.length === 0) return { holders: [], slot: null };
  const mintRead = await readAccounts(rpc, mints, { requestId });
  const supplies = mints.map((m) => nftSupply(mintRead.accounts.get(m)));
  const lookups = await Promise.all(
    read.map(async (p, i) => {
      if (lockedInPlace.has(p.address) || !supplies[i]) return null;
      const { result } = await rpc.call<unknown>("getTokenLargestAccounts", [p.nftMint, { commitment: "confirmed" }], { idempotent: true, requestId });
      return parseLargestAccounts(result).slice(0, 2);
    }),
  );
  const accounts = [...new Set(lookups.flatMap((l) => l ?? []))];
  const accountRead = accounts.length > 0 ? await readAccounts(rpc, accounts, { requestId }) : null;
  const holders = read.map((p, i): Holder => {
    if (lockedInPlace.has(p.address)) return { kind: "in-place" };
    const supply = supplies[i];
    if (supply === null) return { kind: "unknown" };
    if (supply === 0n) return { kind: "burn" };
    for (const account of lookups[i] ?? []) {
      const holding = readTokenHolding(account, accountRead?.accounts.get(account), p.nftMint!);
      if (holding && holding.amount > 0n) return { kind: "owner", owner: holding.owner };
    }
    return { kind: "unknown" };
  });
  return { holders, slot: Math.min(mintRead.slot, accountRead?.slot ?? mintRead.slot) };
}
