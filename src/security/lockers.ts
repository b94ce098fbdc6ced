/**
 * Known token lockers: programs (and program-derived authorities) that hold tokens or LP for a time nobody can cut
 * short. A token account whose owner is one of the authorities below, or whose owner's account belongs to one of the
 * programs, is "locked". Our own table; each id names where it was confirmed.
 *
 * Not here: Meteora's lock escrows (they belong to the DAMM v1 program itself, so an owner account of that program
 * means "pool" to the holder census; for an LP mint it means "locked", see `lpLockerOf`), and DAMM v2's in-place
 * locks (a position's own locked liquidity, read from the position: position-locks.ts).
 */
import { address, type Address } from "@solana/kit";

import { METEORA_DAMM_V1_PROGRAM_ADDRESS } from "../solana/well-known";

export type LockerName = "jupiter-lock" | "streamflow" | "raydium-lp-lock" | "uncx" | "meteora-lock-escrow";

/** Locker programs: escrow accounts they own hold the locked tokens. */
export const LOCKER_PROGRAMS: ReadonlyMap<Address, LockerName> = new Map<Address, LockerName>([
  // jup-ag/space-station guides/11-jupiter-lock ("Mainnet Deployment"); jup-ag/jup-lock.
  [address("LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn"), "jupiter-lock"],
  // streamflow-finance/js-sdk README ("Streamflow program ID (mainnet)").
  [address("strmRqUCoQUgGUan5YhzUZa6KqdzwX5L6FpUxfmKg5m"), "streamflow"],
  // Raydium's burn-and-earn LP locker (CLMM position NFTs and CPMM LP): raydium-sdk-v2 CLMM_LOCK_PROGRAM_ID.
  [address("LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE"), "raydium-lp-lock"],
  // UNCX's Raydium lockers, docs.uncx.network "Solana Lockers" (Contracts): AMM v4 lockers, AMM v4 smart lockers,
  // CP-swap (CPMM) and CLMM.
  [address("GsSCS3vPWrtJ5Y9aEVVT65fmrex5P5RGHXdZvsdbWgfo"), "uncx"],
  [address("UNCX77nZrA3TdAxMEggqG18xxpgiNGT6iqyynPwpoxN"), "uncx"],
  [address("UNCXdvMRxvz91g3HqFmpZ5NgmL77UH4QRM4NfeL4mQB"), "uncx"],
  [address("UNCXrB8cZXnmtYM1aSo1Wx3pQaeSZYuF2jCTesXvECs"), "uncx"],
]);

/**
 * Authorities of lockers that own the locked token accounts directly (PDAs with no account of their own, so their
 * program cannot be read from them):
 * - the Raydium locker's CPMM authority, PDA(["lock_cp_authority_seed"], LockrWmn…) (test/unit/security/lockers.test.ts
 *   derives it), and its CLMM authority, which holds locked CLMM position NFTs (raydium-sdk-V2 `CLMM_LOCK_AUTH_ID`);
 * - UNCX's LP storage accounts, one per locker program (docs.uncx.network "Solana Lockers", Contracts table).
 */
export const LOCKER_AUTHORITIES: ReadonlyMap<Address, LockerName> = new Map<Address, LockerName>([
  [address("3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH"), "raydium-lp-lock"],
  [address("kN1kEznaF5Xbd8LYuqtEFcxzWSBk5Fv6ygX6SqEGJVy"), "raydium-lp-lock"],
  [address("BzKincxjgFQjj4FmhaWrwHES1ekBGN73YesA7JwJJo7X"), "uncx"],
  [address("DAtFFs2mhQFvrgNLA29vEDeTLLN8vHknAaAhdLEc4SQH"), "uncx"],
  [address("FEmGEWdxCBSJ1QFKeX5B6k7VTDPwNU3ZLdfgJkvGYrH5"), "uncx"],
  [address("GAYWATob4bqCj3fhVm8ZxoMSqUW2fb6e6SBQ7kk5qyps"), "uncx"],
]);

/** The locker behind a token owner: by its address, else by the program owning its account (null: no account). */
export function lockerOf(owner: Address, ownerProgram: Address | null): LockerName | undefined {
  return LOCKER_AUTHORITIES.get(owner) ?? (ownerProgram === null ? undefined : LOCKER_PROGRAMS.get(ownerProgram));
}

/** The same for an LP token owner: Meteora's lock escrows (DAMM v1 program accounts) lock LP too. */
export function lpLockerOf(owner: Address, ownerProgram: Address | null): LockerName | undefined {
  return lockerOf(owner, ownerProgram) ?? (ownerProgram === METEORA_DAMM_V1_PROGRAM_ADDRESS ? "meteora-lock-escrow" : undefined);
}
