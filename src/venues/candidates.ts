import type { Address } from "@solana/kit";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import type { PoolKind } from "./pool-kind-registry";
import type { PoolCandidate } from "./types";

/** Quote mints a token is looked up against unless the caller asks for others. */
export const DEFAULT_QUOTE_MINTS: readonly Address[] = [WSOL_MINT, USDC_MINT];

/**
 * Quotes the price service derives pools against. Config-enumerated kinds are derived against wSOL only: every
 * (config × quote) pair costs a PDA (~10 µs of CPU) on a cold mint, and pools quoted in other mints are learned
 * by the registry (cron) instead. wSOL itself is looked up against the USD stables (its SOL/USDC pools).
 */
export function derivedQuoteMints(mint: Address): readonly Address[] {
  return mint === WSOL_MINT ? USD_QUOTES : SOL_QUOTE;
}
const SOL_QUOTE: readonly Address[] = [WSOL_MINT];
const USD_QUOTES: readonly Address[] = [USDC_MINT, USDT_MINT];

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
