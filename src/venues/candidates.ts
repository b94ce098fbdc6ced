import type { Address } from "@solana/kit";
import { USDC_MINT, WSOL_MINT } from "../solana/well-known";
import type { PoolCandidate, PoolKind } from "./types";

/** Quote mints a token is looked up against unless the caller asks for others. */
export const DEFAULT_QUOTE_MINTS: readonly Address[] = [WSOL_MINT, USDC_MINT];

/**
 * Every pool address `derivations` give for (mint, quote) over the quote mints, derived concurrently.
 * A quote equal to the mint itself is skipped (no pool pairs a mint with itself).
 */
export async function pairCandidates(
  kind: PoolKind,
  mint: Address,
  quoteMints: readonly Address[],
  derivations: readonly ((quoteMint: Address) => Promise<Address>)[],
): Promise<PoolCandidate[]> {
  const pending = quoteMints
    .filter((quoteMint) => quoteMint !== mint)
    .flatMap((quoteMint) =>
      derivations.map(async (derive): Promise<PoolCandidate> => ({ pool: await derive(quoteMint), kind, quoteMint })),
    );
  return Promise.all(pending);
}
