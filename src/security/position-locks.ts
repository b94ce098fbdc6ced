/**
 * How much of a Meteora DAMM v2 pool's liquidity can never be withdrawn. DAMM v2 has no LP mint: liquidity lives in
 * Position accounts, each with a Token-2022 NFT whose holder may withdraw it. A position's liquidity is in three
 * fields (meteora-ag/damm-v2 IDL 0.1.x `Position`, 408 bytes, discriminator aabc8fe47a40f7d0):
 *
 * | field | offset | meaning |
 * |---|---|---|
 * | `pool` | 8 | the pool |
 * | `nft_mint` | 40 | the position NFT; its token account is PDA(["position_nft_account", nft_mint]) (damm-v2-sdk `derivePositionNftAccount`) |
 * | `unlocked_liquidity` | 152 (u128) | withdrawable by the NFT's holder |
 * | `vested_liquidity` | 168 (u128) | locked in place, released on a vesting schedule |
 * | `permanent_locked_liquidity` | 184 (u128) | locked in place forever |
 *
 * Read in three round trips: every position of the pool (one getProgramAccounts, dataSize + memcmp on the pool,
 * sliced to nft_mint..permanent_locked_liquidity, under a byte and time budget); the NFT accounts of the positions with
 * the most unlocked liquidity; their holders' accounts (a locker's escrow?). Burnt: the NFT is held by a burn address.
 * Locked: vested and permanently locked liquidity, plus the unlocked liquidity of NFTs held by known lockers.
 */
import { getAddressDecoder, getU128Decoder, type Address } from "@solana/kit";

import { limits } from "../limits";
import { readTokenHolding } from "../overview/holders";
import { BURN_OWNERS } from "../overview/liquidity-owners";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { METEORA_DAMM_V2_PROGRAM_ADDRESS } from "../solana/well-known";
import { addressBytes, findPda } from "../venues/pda";
import { lockerOf } from "./lockers";
import { addToLocker, emptyLockTally, fromBase64, OverBudget, overBudgetAnswer, positionLocksFigures, scanPositions, withdrawablePercent, type GpaRows, type PositionAnswer } from "./position-figures";

export const DAMM_V2_POSITION_SIZE = 408;
const POOL_OFFSET = 8;
/** The slice read of each position: nft_mint (40) .. the end of permanent_locked_liquidity (200). */
const SLICE = { offset: 40, length: 160 } as const;

/** One position, from its slice. */
export type DammV2Position = { address: Address; nftMint: Address; unlocked: bigint; vested: bigint; permanent: bigint };

/** Decodes a position from its 160-byte slice (offsets relative to nft_mint @40). */
export function decodeDammV2PositionSlice(address: Address, slice: Uint8Array): DammV2Position | null {
  if (slice.length < SLICE.length) return null;
  const u128 = getU128Decoder();
  return {
    address,
    nftMint: getAddressDecoder().decode(slice, 0),
    unlocked: u128.decode(slice, 152 - SLICE.offset),
    vested: u128.decode(slice, 168 - SLICE.offset),
    permanent: u128.decode(slice, 184 - SLICE.offset),
  };
}

/** The position figures of the DAMM v2 `pool`, or why there are none (the scan's budget). Outages throw. */
export async function readDammV2PositionLocks(rpc: AccountRpc, pool: Address, requestId?: string): Promise<PositionAnswer> {
  let rows: GpaRows;
  try {
    rows = await scanPositions(rpc, METEORA_DAMM_V2_PROGRAM_ADDRESS, [{ dataSize: DAMM_V2_POSITION_SIZE }, { memcmp: { offset: POOL_OFFSET, bytes: pool } }], SLICE, requestId);
  } catch (error) {
    if (!(error instanceof OverBudget)) throw error;
    return overBudgetAnswer(pool);
  }
  const positions = rows.flatMap((r) => decodeDammV2PositionSlice(r.pubkey as Address, fromBase64(r.account.data[0])) ?? []);
  // The NFT holders of the positions with the most unlocked liquidity (the rest can only add withdrawable liquidity).
  const read = [...positions].sort((a, b) => (a.unlocked === b.unlocked ? (a.address < b.address ? -1 : 1) : a.unlocked > b.unlocked ? -1 : 1)).slice(0, limits.security.positionHoldersRead);
  const nftAccounts = await Promise.all(read.map((p) => findPda(METEORA_DAMM_V2_PROGRAM_ADDRESS, ["position_nft_account", addressBytes(p.nftMint)])));
  const nftRead = nftAccounts.length > 0 ? await readAccounts(rpc, nftAccounts, { requestId }) : null;
  const holders = read.map((p, i) => {
    const holding = nftRead ? readTokenHolding(nftAccounts[i]!, nftRead.accounts.get(nftAccounts[i]!), p.nftMint) : undefined;
    return holding && holding.amount > 0n ? holding.owner : null;
  });
  const owners = [...new Set(holders.filter((o): o is Address => o !== null && !BURN_OWNERS.has(o)))];
  const ownerAccounts = owners.length > 0 ? (await readAccounts(rpc, owners, { requestId })).accounts : new Map();

  const total = positions.reduce((s, p) => s + p.unlocked + p.vested + p.permanent, 0n);
  const tally = emptyLockTally();
  const holderOf = new Map(read.map((p, i) => [p.address, holders[i] ?? null]));
  for (const p of positions) {
    const holder = holderOf.get(p.address) ?? null;
    const all = p.unlocked + p.vested + p.permanent;
    if (holder !== null && BURN_OWNERS.has(holder)) {
      tally.burned += all;
      continue;
    }
    tally.lockedInPlace += p.vested + p.permanent;
    const locker = holder === null ? undefined : lockerOf(holder, ownerAccounts.get(holder)?.owner ?? null);
    if (locker && holder !== null) {
      tally.locked += p.unlocked;
      addToLocker(tally, holder, locker, all);
    }
  }
  const figures = positionLocksFigures("position-liquidity", positions.length, total, tally);
  return {
    positions: figures,
    message: `${figures.burnedPercent}% of the pool's position liquidity is burnt (its NFT at a burn address) and ${figures.lockedPercent}% locked (in the position, or its NFT with a locker); ${withdrawablePercent(figures)}% can be withdrawn by its holders.`,
    source: {
      accounts: [pool, ...read.map((p) => p.address)],
      slot: nftRead?.slot ?? null,
      trades: null,
      unseen: positions.length > read.length ? `holders of the NFTs of positions beyond the ${read.length} with the most unlocked liquidity; lockers not in the published locker table` : "lockers not in the published locker table",
    },
  };
}
