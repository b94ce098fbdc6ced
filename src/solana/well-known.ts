/**
 * Mainnet addresses the service relies on, each checked against the venues' documentation and real mainnet accounts (test/fixtures).
 * Venue program ids live here so that venues, trade parsing and the RPC layer share one definition.
 */
import { address, getAddressEncoder, type Address } from "@solana/kit";
import { findProgramAddressSync } from "./program-address";

export const SYSTEM_PROGRAM_ADDRESS = address("11111111111111111111111111111111");
export const TOKEN_PROGRAM_ADDRESS = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const TOKEN_2022_PROGRAM_ADDRESS = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
export const ASSOCIATED_TOKEN_PROGRAM_ADDRESS = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
export const METAPLEX_TOKEN_METADATA_PROGRAM_ADDRESS = address("metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s");
/** Tokens sent here are burnt (no private key); supply held here is not circulating. */
export const INCINERATOR_ADDRESS = address("1nc1nerator11111111111111111111111111111111");

export const WSOL_MINT = address("So11111111111111111111111111111111111111112");
export const USDC_MINT = address("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
export const USDT_MINT = address("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB");

/**
 * Mints left out of trend: what tokens are bought with (wSOL and the dollar stablecoins USDC, USDT, USD1, PYUSD), not
 * what trends.
 */
export const trendExcludedMints: readonly Address[] = [
  WSOL_MINT,
  USDC_MINT,
  USDT_MINT,
  address("USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB"),
  address("2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo"),
];

/** Decimals of the quote mints, so that pricing against them needs no mint account read. */
export const WELL_KNOWN_DECIMALS: ReadonlyMap<Address, number> = new Map<Address, number>([
  [WSOL_MINT, 9],
  [USDC_MINT, 6],
  [USDT_MINT, 6],
]);

/** Pyth pull-oracle receiver: owner of every PriceUpdateV2 account, including the sponsored push feeds. */
export const PYTH_RECEIVER_PROGRAM_ADDRESS = address("rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ");
/** Pyth push-oracle program: the sponsored feed accounts are its PDAs ([shard u16 LE, feed id]). */
export const PYTH_PUSH_ORACLE_PROGRAM_ADDRESS = address("pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT");
/** SOL/USD sponsored push feed, shard 0 (heartbeat 60 s, deviation 0.5 %). */
export const PYTH_SOL_USD_PRICE_ACCOUNT = address("7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE");
export const PYTH_SOL_USD_FEED_ID = "ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d";

export const PUMP_PROGRAM_ADDRESS = address("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P");
export const PUMP_AMM_PROGRAM_ADDRESS = address("pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA");
export const RAYDIUM_AMM_V4_PROGRAM_ADDRESS = address("675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8");
export const RAYDIUM_CPMM_PROGRAM_ADDRESS = address("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C");
export const RAYDIUM_CLMM_PROGRAM_ADDRESS = address("CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK");
export const RAYDIUM_LAUNCHLAB_PROGRAM_ADDRESS = address("LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj");
export const METEORA_DLMM_PROGRAM_ADDRESS = address("LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo");
export const METEORA_DAMM_V1_PROGRAM_ADDRESS = address("Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB");
/** Meteora dynamic vault program: DAMM v1 pools hold LP shares of these vaults, not the tokens. */
export const METEORA_VAULT_PROGRAM_ADDRESS = address("24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi");
export const METEORA_DAMM_V2_PROGRAM_ADDRESS = address("cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG");
export const METEORA_DBC_PROGRAM_ADDRESS = address("dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN");
export const ORCA_WHIRLPOOL_PROGRAM_ADDRESS = address("whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc");

/** Owner of every sysvar account. */
export const SYSVAR_PROGRAM_ADDRESS = address("Sysvar1111111111111111111111111111111111111");
/** Clock sysvar: the chain's slot and unix time (what programs read as `Clock::get()`). */
export const SYSVAR_CLOCK_ADDRESS = address("SysvarC1ock11111111111111111111111111111111");

/** Marinade liquid staking program and its one State account (mSOL price), read by DAMM v1 Marinade depeg pools. */
export const MARINADE_PROGRAM_ADDRESS = address("MarBmsSgKXdrN1egZf5sqe1TMai9K1rChYNDJgjq7aD");
export const MARINADE_STATE_ADDRESS = address("8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC");
/** Lido for Solana (Solido) program and its Lido state account (stSOL exchange rate), read by DAMM v1 Lido depeg pools. */
export const LIDO_PROGRAM_ADDRESS = address("CrX7kMhLC3cSsXJdT7JDgqrRVWGnUpX3gfEfxxU2NVLi");
export const LIDO_STATE_ADDRESS = address("49Yi1TKkNyYjPAFdR9LBvoHcUjuPX4Df5T5yv39w2XTn");
/**
 * Programs that own SPL stake pools (same StakePool layout): the SPL program (Jito, BlazeStake, …) and Sanctum's
 * single- and multi-validator deployments of it.
 */
export const SPL_STAKE_POOL_PROGRAM_ADDRESSES: readonly Address[] = [
  address("SPoo1Ku8WFXoNDMHPsrGSTSG1Y47rzgn41SLUNakuHy"),
  address("SP12tWFxD9oJsVWNavTTBZvMbA6gkAmxtVgxdqvyvhY"),
  address("SPMBzsVUuoHA4Jm6KunbsotaahvVikZs1JyTW6iJvbn"),
];

/**
 * Associated token account of `owner` for `mint`: PDA([owner, token program, mint]) of the ATA program.
 * The token program is a seed, so a Token-2022 mint needs `TOKEN_2022_PROGRAM_ADDRESS`.
 */
export async function findAssociatedTokenAddress(
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<Address> {
  const encoder = getAddressEncoder();
  const seeds = [encoder.encode(owner), encoder.encode(tokenProgram), encoder.encode(mint)] as Uint8Array[];
  return findProgramAddressSync(ASSOCIATED_TOKEN_PROGRAM_ADDRESS, seeds)[0];
}
