/**
 * Liquidity positions of the concentrated-liquidity venues: where a position names its pool, its liquidity and what
 * decides who may withdraw it. Our own tables; each names its source and version. Offsets include the 8-byte Anchor
 * discriminator (sha256("account:<Name>")[..8]).
 *
 * Raydium CLMM `PersonalPositionState` (raydium-io/raydium-clmm `states/personal_position.rs`, program 0.x as of
 * 2025; 281 bytes, discriminator 466f967ee60f1975): bump @8, nft_mint @9, pool_id @41, tick_lower_index i32 @73,
 * tick_upper_index i32 @77, liquidity u128 @81. Whoever holds the NFT (one token of `nft_mint`) may withdraw. The pool's
 * tick_current is PoolState i32 @269 (VENUES.md §6).
 *
 * Orca Whirlpool `Position` (orca-so/whirlpools programs/whirlpool 0.9.0 `state/position.rs`; 216 bytes, discriminator
 * aabc8fe47a40f7d0): whirlpool @8, position_mint @40, liquidity u128 @72, tick_lower_index i32 @88, tick_upper_index
 * i32 @92. The pool's tick_current_index is Whirlpool i32 @81. A position locked with `lock_position` (0.9.0
 * `state/lock_config.rs`) has a `LockConfig` account, PDA(["lock_config", position]), discriminator 6a2fee9f7c0ca0c0:
 * position @8, position_owner @40, whirlpool @72, locked_timestamp u64 @104, lock_type u8 @112 (0 = permanent), 128
 * bytes reserved (241 bytes); its Token-2022 NFT account is frozen, so the position can never be withdrawn.
 *
 * Meteora DLMM `PositionV2` (MeteoraAg/dlmm-sdk lb_clmm IDL 0.9.x `PositionV2`; 8,120 bytes, discriminator
 * 75b0d4c7f5b485b6): lb_pair @8, owner @40, liquidity_shares [u128; 70] @72 (one per bin from lower_bin_id),
 * lower_bin_id i32 @7912, upper_bin_id i32 @7916, lock_release_point u64 @7992. The owner (no NFT) may withdraw, once
 * the pair's clock passes `lock_release_point`: a slot or a unix time as the pair's `activation_type` (LbPair u8 @86:
 * 0 slot, 1 timestamp; VENUES.md §8) says.
 *
 * The DAMM v2 Position (same discriminator as Whirlpool's `Position`, a different program) is read by
 * security/position-locks.ts.
 */
import { getAddressDecoder, getI32Decoder, getU128Decoder, getU64Decoder, type Address } from "@solana/kit";

import { METEORA_DLMM_PROGRAM_ADDRESS, ORCA_WHIRLPOOL_PROGRAM_ADDRESS, RAYDIUM_CLMM_PROGRAM_ADDRESS } from "../solana/well-known";

/** A position read from the slice a getProgramAccounts returns. */
export type ConcentratedPosition = {
  address: Address;
  /** The NFT whose holder may withdraw (CLMM, Whirlpool); null for DLMM, whose positions name their owner. */
  nftMint: Address | null;
  /** The owner written in the position (DLMM); null for NFT positions. */
  owner: Address | null;
  /** Liquidity: the position's L (CLMM, Whirlpool) or the sum of its bin shares (DLMM). */
  liquidity: bigint;
  /** Tick range (CLMM, Whirlpool): [lower, upper); null for DLMM. */
  ticks: { lower: number; upper: number } | null;
  /** DLMM `lock_release_point` (0: none); 0 for the others. */
  lockReleasePoint: bigint;
};

/** How to scan one venue's positions of a pool: filters, the slice read, and its decoder (slice-relative). */
export type PositionScan = {
  program: Address;
  size: number;
  discriminator: string;
  poolOffset: number;
  slice: { offset: number; length: number };
  decode(address: Address, slice: Uint8Array): ConcentratedPosition | null;
  /** Where the pool keeps its current tick (i32), for NFT positions; null for DLMM. */
  poolTickOffset: number | null;
};

const addressAt = (bytes: Uint8Array, at: number) => getAddressDecoder().decode(bytes, at);
const u128At = (bytes: Uint8Array, at: number) => getU128Decoder().decode(bytes, at);
const i32At = (bytes: Uint8Array, at: number) => getI32Decoder().decode(bytes, at);

/** Where an NFT venue's position keeps its fields, at absolute offsets; `end` closes the slice read from `nftMint`. */
type NftPositionLayout = Pick<PositionScan, "program" | "size" | "discriminator" | "poolOffset"> & {
  nftMint: number;
  liquidity: number;
  tickLower: number;
  tickUpper: number;
  end: number;
  poolTickOffset: number;
};

/** The scan of an NFT venue's positions (CLMM, Whirlpool): the slice runs from the NFT mint to `end`. */
function nftPositionScan(layout: NftPositionLayout): PositionScan {
  const { program, size, discriminator, poolOffset, poolTickOffset } = layout;
  const length = layout.end - layout.nftMint;
  const at = (offset: number) => offset - layout.nftMint;
  return {
    program,
    size,
    discriminator,
    poolOffset,
    slice: { offset: layout.nftMint, length },
    decode(address, s) {
      if (s.length < length) return null;
      const ticks = { lower: i32At(s, at(layout.tickLower)), upper: i32At(s, at(layout.tickUpper)) };
      return { address, nftMint: addressAt(s, 0), owner: null, liquidity: u128At(s, at(layout.liquidity)), ticks, lockReleasePoint: 0n };
    },
    poolTickOffset,
  };
}

export const RAYDIUM_CLMM_POSITION_SCAN = nftPositionScan({
  program: RAYDIUM_CLMM_PROGRAM_ADDRESS,
  size: 281,
  discriminator: "466f967ee60f1975",
  poolOffset: 41,
  // nft_mint @9 .. the end of liquidity @97
  nftMint: 9,
  tickLower: 73,
  tickUpper: 77,
  liquidity: 81,
  end: 97,
  poolTickOffset: 269,
});

export const ORCA_WHIRLPOOL_POSITION_SCAN = nftPositionScan({
  program: ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  size: 216,
  discriminator: "aabc8fe47a40f7d0",
  poolOffset: 8,
  // position_mint @40 .. the end of tick_upper_index @96
  nftMint: 40,
  liquidity: 72,
  tickLower: 88,
  tickUpper: 92,
  end: 96,
  poolTickOffset: 81,
});

export const DLMM_BINS_PER_POSITION = 70;

export const METEORA_DLMM_POSITION_SCAN: PositionScan = {
  program: METEORA_DLMM_PROGRAM_ADDRESS,
  size: 8120,
  discriminator: "75b0d4c7f5b485b6",
  poolOffset: 8,
  // owner @40 .. the end of liquidity_shares @1192
  slice: { offset: 40, length: 32 + 16 * DLMM_BINS_PER_POSITION },
  decode(address, s) {
    if (s.length < 32 + 16 * DLMM_BINS_PER_POSITION) return null;
    let liquidity = 0n;
    for (let i = 0; i < DLMM_BINS_PER_POSITION; i++) liquidity += u128At(s, 32 + 16 * i);
    return { address, nftMint: null, owner: addressAt(s, 0), liquidity, ticks: null, lockReleasePoint: 0n };
  },
  poolTickOffset: null,
};

/** Whirlpool `LockConfig` (see above): a position locked in place, for good. */
export const WHIRLPOOL_LOCK_CONFIG = { size: 241, discriminator: "6a2fee9f7c0ca0c0", positionOffset: 8, whirlpoolOffset: 72 } as const;

/** The position a LockConfig's first bytes (@8, sliced 32 bytes) name. */
export function decodeLockConfigPosition(slice: Uint8Array): Address | null {
  return slice.length < 32 ? null : addressAt(slice, 0);
}

/** The second, 8-byte slice of a DLMM position scan: `lock_release_point` (far from the shares, so read apart). */
export const DLMM_LOCK_RELEASE_SLICE = { offset: 7992, length: 8 } as const;
/** LbPair `activation_type` (0: slot, 1: unix time), the unit of a position's `lock_release_point`. */
export const DLMM_PAIR_ACTIVATION_TYPE_OFFSET = 86;

/** `lock_release_point` from its slice; null when the slice is short. */
export function decodeDlmmLockRelease(slice: Uint8Array): bigint | null {
  return slice.length < 8 ? null : getU64Decoder().decode(slice, 0);
}

/** A pool's current tick from its account bytes, or null when the account is too short. */
export function poolTick(scan: PositionScan, data: Uint8Array): number | null {
  if (scan.poolTickOffset === null || data.length < scan.poolTickOffset + 4) return null;
  return i32At(data, scan.poolTickOffset);
}

/** Whether a position's range holds the current tick (the liquidity traders meet at the price). */
export const inRange = (ticks: { lower: number; upper: number }, tick: number) => ticks.lower <= tick && tick < ticks.upper;
