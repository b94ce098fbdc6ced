import type { Address } from "@solana/kit";
import { limits } from "../limits";
import { ADDRESS_BYTES, BoundedCache } from "../isolate/bounded-cache";
import { findAssociatedTokenAddress, INCINERATOR_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../solana/well-known";
import { decodeTokenAccount } from "../solana/accounts/spl-token";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import type { AccountLookup } from "../venues/pool-adapter";

// Static facts, per isolate: two PDAs per mint, derived once.
const burnAccounts = new BoundedCache<Address, Address[]>("burn-accounts", limits.isolateCacheBudgets.burnAccounts, () => 32 + 2 * ADDRESS_BYTES);

/**
 * Where a mint's tokens are burnt without a Burn instruction (so the mint's `supply` still counts them): the
 * incinerator's associated token account, under each token program (a mint lives under one of them; the other ATA
 * simply does not exist). Read with the mint, in the same request.
 */
export async function burnAccountsOf(mint: Address): Promise<Address[]> {
  const known = burnAccounts.get(mint);
  if (known) return known;
  const list = await Promise.all([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS].map((program) => findAssociatedTokenAddress(INCINERATOR_ADDRESS, mint, program)));
  burnAccounts.set(mint, list);
  return list;
}

/**
 * Raw amount of `mint` held in its burn accounts as read: only token accounts of `mint` owned by the incinerator count
 * (a missing account, or anything else at that address, counts 0).
 */
export function burnedBalance(mint: Address, accounts: readonly Address[], lookup: AccountLookup): bigint {
  let total = 0n;
  for (const address of accounts) {
    const raw = lookup(address);
    if (!raw) continue;
    try {
      const holding = decodeTokenAccount(raw);
      if (holding.mint === mint && holding.owner === INCINERATOR_ADDRESS) total += holding.amount;
    } catch (err) {
      if (!(err instanceof AccountDecodeError)) throw err;
    }
  }
  return total;
}

/** Circulating supply (raw): the mint's supply less what its burn accounts hold; never negative. */
export function circulatingSupply(supply: bigint, burned: bigint): bigint {
  return supply > burned ? supply - burned : 0n;
}
