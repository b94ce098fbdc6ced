/**
 * Numbers the local cluster reports about itself. Where a value mirrors mainnet or an Agave constant, the comment says which.
 */
/** `context.apiVersion` and getVersion's solana-core: an Agave 2.x release, as mainnet RPC nodes report. */
export const AGAVE_VERSION = "2.3.6";
export const FEATURE_SET = 3640012085;

/** Mainnet's epoch schedule: 432,000 slots per epoch, no warmup. */
export const SLOTS_PER_EPOCH = 432_000;

/** Agave MAX_PROCESSING_AGE: a blockhash stays valid for 150 blocks. */
export const MAX_PROCESSING_AGE = 150;

export const LAMPORTS_PER_SIGNATURE = 5_000;

/** Rent: 3,480 lamports per byte-year, exempt at 2 years, plus the 128-byte account overhead. */
export function minimumBalanceForRentExemption(dataLength: number): number {
  return (128 + dataLength) * 3_480 * 2;
}

/** Rent-exempt accounts carry rentEpoch = u64::MAX on mainnet. */
export const RENT_EXEMPT_EPOCH = 18_446_744_073_709_551_615n;

/** Total active stake reported by getBlockCommitment (one validator holds all of it). */
export const TOTAL_STAKE = 400_000_000_000_000;

/** Agave's default slot length when the localnet runs in manual mode (used for block times). */
export const NOMINAL_SLOT_MS = 400;
