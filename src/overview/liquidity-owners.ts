/**
 * Which token-account owners are not holders: the venues' liquidity (bonding curves, pool vaults, shared vaults)
 * and burn addresses. Vault owners per venue are in VENUES.md §13: either the pool / curve account itself (an
 * account owned by the venue program — PumpSwap, pump curve, CLMM, DLMM, Whirlpool, LaunchLab pool state), a
 * program-wide authority PDA that owns no data (AMM v4, CPMM, LaunchLab, DAMM v2, DBC), or a shared Meteora vault
 * (DAMM v1, owned by the vault program).
 */
import type { Address } from "@solana/kit";

import { INCINERATOR_ADDRESS, SYSTEM_PROGRAM_ADDRESS } from "../solana/well-known";
import { liquidityAuthorities, liquidityPrograms, type LiquidityVenue } from "../venues/pool-kinds";
import type { HolderLabel } from "./overview-schema";

/** Program-wide authority PDAs that own the vaults of every pool of their venue (each venue's descriptor). */
export const VENUE_AUTHORITIES: ReadonlyMap<Address, LiquidityVenue> = liquidityAuthorities;

/** Programs whose accounts (pools, curves, shared vaults) own liquidity vaults (each venue's descriptor). */
export const VENUE_PROGRAMS: ReadonlyMap<Address, LiquidityVenue> = liquidityPrograms;

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
