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
import { z } from "zod/mini";

import { isUpstreamError } from "../errors/upstream-api-error";
import { limits } from "../limits";
import { formatPercent } from "../overview/amount-format";
import { readTokenHolding } from "../overview/holders";
import { BURN_OWNERS } from "../overview/liquidity-owners";
import { readAccounts, type AccountRpc } from "../solana/account-reader";
import { UpstreamError } from "../solana/upstream";
import { METEORA_DAMM_V2_PROGRAM_ADDRESS } from "../solana/well-known";
import { addressBytes, findPda } from "../venues/pda";
import { lockerOf } from "./lockers";
import type { FactSource, PositionMeasure } from "./security-schema";

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

const gpaSchema = z.array(z.object({ pubkey: z.string(), account: z.object({ data: z.tuple([z.string(), z.literal("base64")]) }) }));

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export type PositionAnswer = { positions: PositionLocks | null; message: string; source: FactSource };

/** The position figures of the DAMM v2 `pool`, or why there are none (the scan's budget). Outages throw. */
export async function readDammV2PositionLocks(rpc: AccountRpc, pool: Address, requestId?: string): Promise<PositionAnswer> {
  let rows: z.infer<typeof gpaSchema>;
  try {
    const filters = [{ dataSize: DAMM_V2_POSITION_SIZE }, { memcmp: { offset: POOL_OFFSET, bytes: pool } }];
    const { result } = await rpc.call<unknown>("getProgramAccounts", [METEORA_DAMM_V2_PROGRAM_ADDRESS, { encoding: "base64", commitment: "confirmed", dataSlice: SLICE, filters }], {
      idempotent: true,
      requestId,
      maxAnswerBytes: limits.security.positionsScanMaxBytes,
      timeoutMs: limits.security.positionsScanTimeoutMs,
    });
    const parsed = gpaSchema.safeParse(result);
    if (!parsed.success) throw new UpstreamError("bad-response", "getProgramAccounts answer has an unexpected shape");
    rows = parsed.data;
  } catch (error) {
    if (!isUpstreamError(error) || (error.kind !== "answer-too-large" && error.kind !== "timeout")) throw error;
    return {
      positions: null,
      message: `The pool has more positions than one scan reads within its budget (${limits.security.positionsScanMaxBytes} bytes, ${limits.security.positionsScanTimeoutMs} ms): their locks are not assessed.`,
      source: { accounts: [pool], slot: null, trades: null, unseen: "every position of the pool (the scan's budget)" },
    };
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
  let burned = 0n;
  let locked = 0n;
  let lockedInPlace = 0n;
  const lockers = new Map<Address, { locker: string; amount: bigint }>();
  const holderOf = new Map(read.map((p, i) => [p.address, holders[i] ?? null]));
  for (const p of positions) {
    const holder = holderOf.get(p.address) ?? null;
    const all = p.unlocked + p.vested + p.permanent;
    if (holder !== null && BURN_OWNERS.has(holder)) {
      burned += all;
      continue;
    }
    lockedInPlace += p.vested + p.permanent;
    const locker = holder === null ? undefined : lockerOf(holder, ownerAccounts.get(holder)?.owner ?? null);
    if (locker && holder !== null) {
      locked += p.unlocked;
      const entry = lockers.get(holder) ?? { locker, amount: 0n };
      entry.amount += all;
      lockers.set(holder, entry);
    }
  }
  locked += lockedInPlace;
  const figures: PositionLocks = {
    measure: "position-liquidity",
    positions: positions.length,
    liquidity: total.toString(),
    burned: burned.toString(),
    burnedPercent: formatPercent(burned, total),
    locked: locked.toString(),
    lockedPercent: formatPercent(locked, total),
    lockedInPlace: lockedInPlace.toString(),
    lockers: [...lockers].map(([owner, { locker, amount }]) => ({ owner, locker, amount: amount.toString() })),
  };
  const free = 100 - Number(figures.burnedPercent) - Number(figures.lockedPercent);
  return {
    positions: figures,
    message: `${figures.burnedPercent}% of the pool's position liquidity is burnt (its NFT at a burn address) and ${figures.lockedPercent}% locked (in the position, or its NFT with a locker); ${free > 0 ? free.toFixed(4) : "0.0000"}% can be withdrawn by its holders.`,
    source: {
      accounts: [pool, ...read.map((p) => p.address)],
      slot: nftRead?.slot ?? null,
      trades: null,
      unseen: positions.length > read.length ? `holders of the NFTs of positions beyond the ${read.length} with the most unlocked liquidity; lockers not in the published locker table` : "lockers not in the published locker table",
    },
  };
}
