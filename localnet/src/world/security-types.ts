/**
 * The vocabulary of the world's security tokens (security-tokens.ts), shared with the tokens whose liquidity sits in
 * concentrated positions (security-positions.ts): roles, holder labels, position rows, the token record, and the locker
 * programs escrows are placed under.
 */
import type { Pubkey } from "../chain/types.js";
import type { DbcPool } from "./venues/meteora-dbc.js";
import type { PumpCurve } from "./venues/pumpfun.js";

/**
 * Locker programs the world places escrows under (their mainnet ids: Jupiter Lock from jup-ag's docs, "Mainnet
 * Deployment"; Streamflow from its js-sdk README, "program ID (mainnet)"). The world's own table, not the API's.
 */
export const JUPITER_LOCK_PROGRAM = "LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn";
export const STREAMFLOW_PROGRAM = "strmRqUCoQUgGUan5YhzUZa6KqdzwX5L6FpUxfmKg5m";
/** UNCX's Raydium AMM v4 locker's LP storage account (docs.uncx.network, "Solana Lockers", Contracts table). */
export const UNCX_AMM_V4_LP_STORAGE = "BzKincxjgFQjj4FmhaWrwHES1ekBGN73YesA7JwJJo7X";

export type SecurityTokenRole =
  | "extensions-a"
  | "extensions-b"
  | "lp"
  | "lp-amm-v4"
  | "lp-pumpswap"
  | "positions-damm-v2"
  | "positions-clmm"
  | "positions-whirlpool"
  | "positions-dlmm"
  | "creator-dbc"
  | "creator-launchlab"
  | "launch";
export type Launchpad = "pumpfun" | "meteora-dbc" | "raydium-launchlab";
export type HolderLabel = "holder" | "creator" | "pool" | "curve" | "burn" | "locker";

/** One position of a pool that prices a security token: its liquidity by kind, the holder of its NFT and its kind. */
export interface PositionRow {
  address: Pubkey;
  unlocked: bigint;
  vested: bigint;
  permanent: bigint;
  holder: Pubkey;
  held: "burn" | "locker" | "free";
  locker: string | null;
}

export interface SecurityToken {
  role: SecurityTokenRole;
  mint: Pubkey;
  decimals: number;
  tokenProgram: Pubkey;
  creator: Pubkey;
  /**
   * metadata as written: its update authority, and whether it can change (Metaplex's is_mutable; Token-2022 metadata
   * is mutable exactly when it has an update authority)
   */
  updateAuthority: Pubkey | null;
  isMutable: boolean;
  /** extensions as written, in the API's words */
  extensions: Record<string, Record<string, string | boolean | null>>;
  /** owners whose label the world knows (everyone else is a holder) */
  labels: Map<Pubkey, HolderLabel>;
  /** the launchpad whose account names the creator (pump.fun curve, DBC virtual pool, LaunchLab pool state); null: none */
  launchpad: Launchpad | null;
  /** the slot from which the creator's trades of the token are counted (its launch, or its first trade) */
  creatorTradesFrom?: number;
  /** the pool that prices the token and its LP: the pool's own count of issued LP, and the lockers holding some */
  lp?: { pool: Pubkey; dex: string; lpMint: Pubkey; lpSupply: bigint; lockers: Map<Pubkey, string> };
  dbc?: DbcPool;
  /**
   * positions of the pool that prices the token (DAMM v2, and security-positions.ts's CLMM, Whirlpool and DLMM): the
   * rows counted (CLMM/Whirlpool: those in range), how many more there are out of range, and what the liquidity sums
   */
  positions?: { pool: Pubkey; rows: PositionRow[]; outOfRange?: number; measure?: string };
  curve?: PumpCurve;
  /** `stage`: produced slots since the creation (slots can be skipped, so it is not the slot difference) */
  launch?: { creationSlot: number; doneSlot: number | null; participants: Pubkey[]; stage: number };
}

/** A plain SPL mint of the security world (security-tokens.ts `plainMint`) and the part of its record that follows from it. */
export interface PlainMint {
  mint: Pubkey;
  decimals: number;
  supply: bigint;
  token: Pick<SecurityToken, "role" | "mint" | "decimals" | "tokenProgram" | "creator" | "updateAuthority" | "isMutable" | "extensions">;
}
