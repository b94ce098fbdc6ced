/**
 * Which token-account owners are not holders: the venues' liquidity (bonding curves, pool vaults, shared vaults)
 * and burn addresses. Vault owners per venue are in VENUES.md §13: either the pool / curve account itself (an
 * account owned by the venue program — PumpSwap, pump curve, CLMM, DLMM, Whirlpool, LaunchLab pool state), a
 * program-wide authority PDA that owns no data (AMM v4, CPMM, LaunchLab, DAMM v2, DBC), or a shared Meteora vault
 * (DAMM v1, owned by the vault program).
 */
import { address, type Address } from "@solana/kit";

import {
  INCINERATOR_ADDRESS,
  METEORA_DAMM_V1_PROGRAM_ADDRESS,
  METEORA_DAMM_V2_PROGRAM_ADDRESS,
  METEORA_DBC_PROGRAM_ADDRESS,
  METEORA_DLMM_PROGRAM_ADDRESS,
  METEORA_VAULT_PROGRAM_ADDRESS,
  ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  PUMP_AMM_PROGRAM_ADDRESS,
  PUMP_PROGRAM_ADDRESS,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CLMM_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
  RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS,
  SYSTEM_PROGRAM_ADDRESS,
} from "../solana/well-known";
import type { LiquidityVenue } from "../venues/pool-kinds";
import type { HolderLabel } from "./overview-schema";

/** Program-wide authority PDAs that own the vaults of every pool of their venue (VENUES.md §4, 5, 7, 10, 11). */
export const VENUE_AUTHORITIES: ReadonlyMap<Address, LiquidityVenue> = new Map<Address, LiquidityVenue>([
  [address("5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1"), "raydium-amm-v4"],
  [address("GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL"), "raydium-cpmm"],
  [address("WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh"), "raydium-launchlab"],
  [address("HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC"), "meteora-damm-v2"],
  [address("FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM"), "meteora-dbc"],
]);

/** Programs whose accounts (pools, curves, shared vaults) own liquidity vaults. */
export const VENUE_PROGRAMS: ReadonlyMap<Address, LiquidityVenue> = new Map<Address, LiquidityVenue>([
  [PUMP_PROGRAM_ADDRESS, "pumpfun"],
  [PUMP_AMM_PROGRAM_ADDRESS, "pumpswap"],
  [RAYDIUM_AMM_V4_PROGRAM_ADDRESS, "raydium-amm-v4"],
  [RAYDIUM_CPMM_PROGRAM_ADDRESS, "raydium-cpmm"],
  [RAYDIUM_CLMM_PROGRAM_ADDRESS, "raydium-clmm"],
  [RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS, "raydium-launchlab"],
  [METEORA_DLMM_PROGRAM_ADDRESS, "meteora-dlmm"],
  [METEORA_DAMM_V1_PROGRAM_ADDRESS, "meteora-damm-v1"],
  // DAMM v1 pools keep their tokens in vaults shared by every pool of the mint, owned by the vault program.
  [METEORA_VAULT_PROGRAM_ADDRESS, "meteora-damm-v1"],
  [METEORA_DAMM_V2_PROGRAM_ADDRESS, "meteora-damm-v2"],
  [METEORA_DBC_PROGRAM_ADDRESS, "meteora-dbc"],
  [ORCA_WHIRLPOOL_PROGRAM_ADDRESS, "orca-whirlpool"],
]);

/**
 * Owners nobody can sign for: the incinerator, and the system program id (an all-zero key, the usual "dead"
 * destination). Tokens there still count in supply (they were not burnt with a Burn instruction) but will never move.
 */
export const BURN_OWNERS: ReadonlySet<Address> = new Set<Address>([INCINERATOR_ADDRESS, SYSTEM_PROGRAM_ADDRESS]);

export type OwnerClass = { label: HolderLabel; venue: LiquidityVenue | null };

/**
 * Classifies an owner from its address alone; undefined when the answer depends on who owns the owner's
 * account (then read it and call {@link classifyOwnerByProgram}).
 */
export function classifyOwnerByAddress(owner: Address): OwnerClass | undefined {
  if (BURN_OWNERS.has(owner)) return { label: "burn", venue: null };
  const venue = VENUE_AUTHORITIES.get(owner);
  return venue ? { label: "liquidity", venue } : undefined;
}

/**
 * Classifies an owner from the program that owns its account (`null`: the owner has no account, like most
 * PDAs and fresh wallets). An account owned by a venue program is a pool, curve or vault: liquidity.
 */
export function classifyOwnerByProgram(owner: Address, ownerProgram: Address | null): OwnerClass {
  const known = classifyOwnerByAddress(owner);
  if (known) return known;
  const venue = ownerProgram === null ? undefined : VENUE_PROGRAMS.get(ownerProgram);
  return venue ? { label: "liquidity", venue } : { label: "holder", venue: null };
}
