/**
 * PumpSwap (pump AMM, program pAMMBay6…): constant product on the two vault balances. A graduated pump
 * coin's canonical pool is a PDA of the mint; other pools (any creator / index) need a gPA on base_mint.
 */
import { getAddressDecoder, getBase16Encoder, type Address } from "@solana/kit";
import { PUMP_AMM_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape } from "./account";
import { DEFAULT_QUOTE_MINTS, pairCandidates } from "./candidates";
import { getFieldsDecoder } from "./layout";
import { addressBytes, findPda, u16Le } from "./pda";
import { reservePrice } from "./pool-price";
import { readVaultAmount } from "./spl-token";
import { memcmpFilter, type ProgramAccountsQuery } from "./program-accounts-query";
import type { AccountBytes, DecimalsOf, PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses } from "./types";

export { PUMP_AMM_PROGRAM_ADDRESS };

export const PUMPSWAP_POOL_DISCRIMINATOR = getBase16Encoder().encode("f19a6d0411b16dbc");
/** Fixture pools are 300 B (IDL data ends at 245); pricing reads up to pool_quote_token_account (ends at 203). */
export const PUMPSWAP_POOL_MIN_SIZE = 203;
const BASE_MINT_OFFSET = 43;

export interface PumpSwapPool {
  readonly baseMint: Address;
  readonly quoteMint: Address;
  readonly baseVault: Address;
  readonly quoteVault: Address;
}

const poolDecoder = getFieldsDecoder({
  baseMint: [BASE_MINT_OFFSET, getAddressDecoder()],
  quoteMint: [75, getAddressDecoder()],
  baseVault: [139, getAddressDecoder()],
  quoteVault: [171, getAddressDecoder()],
});

/** Decodes a PumpSwap Pool (the "Pool" discriminator is shared with DAMM v1/v2: the owner tells them apart). */
export function decodePumpSwapPool(account: AccountBytes): PumpSwapPool {
  assertAccountShape(account, {
    layout: "PumpSwapPool",
    owners: [PUMP_AMM_PROGRAM_ADDRESS],
    size: [PUMPSWAP_POOL_MIN_SIZE],
    discriminator: PUMPSWAP_POOL_DISCRIMINATOR,
  });
  return poolDecoder.decode(account.data);
}

/** Pool PDA: ["pool", index u16 LE, creator, base_mint, quote_mint]. */
export function findPumpSwapPoolAddress(index: number, creator: Address, baseMint: Address, quoteMint: Address): Promise<Address> {
  return findPda(PUMP_AMM_PROGRAM_ADDRESS, ["pool", u16Le(index), addressBytes(creator), addressBytes(baseMint), addressBytes(quoteMint)]);
}

/** The pump program's pool authority for a mint, ["pool-authority", mint]: creator of its canonical pool. */
export function findPumpPoolAuthorityAddress(mint: Address): Promise<Address> {
  return findPda(PUMP_PROGRAM_ADDRESS, ["pool-authority", addressBytes(mint)]);
}

/** Canonical pools of a graduated pump coin (index 0, creator = pool authority), one per quote mint. */
export async function listPumpSwapPoolCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
): Promise<PoolCandidate[]> {
  const creator = await findPumpPoolAuthorityAddress(mint);
  return pairCandidates("pumpswap", mint, quoteMints, [(quoteMint) => findPumpSwapPoolAddress(0, creator, mint, quoteMint)]);
}

/**
 * Non-canonical pools with `mint` as base are only found by scanning the program. Filtered on the
 * discriminator rather than a data size, because the Pool account has grown over time.
 */
export function pumpSwapPoolQueries(mint: Address): ProgramAccountsQuery[] {
  return [
    {
      programAddress: PUMP_AMM_PROGRAM_ADDRESS,
      filters: [memcmpFilter(0, PUMPSWAP_POOL_DISCRIMINATOR), memcmpFilter(BASE_MINT_OFFSET, mint)],
    },
  ];
}

type Related = "baseVault" | "quoteVault";

/** The two vault token accounts. */
export function requiredAccountsForPumpSwapPool(pool: PumpSwapPool): RelatedAddresses<Related> {
  return { baseVault: pool.baseVault, quoteVault: pool.quoteVault };
}

/**
 * Price = quote vault / base vault. Protocol and creator fees leave the pool in the swap itself, the LP
 * fee stays and backs swaps, so the full vault balances are the reserves.
 */
export function priceFromPumpSwapPool(
  pool: PumpSwapPool,
  related: RelatedAccounts<Related>,
  decimalsOf: DecimalsOf,
): PoolPrice {
  const base = readVaultAmount("PumpSwapPool", related.baseVault, pool.baseMint);
  const quote = readVaultAmount("PumpSwapPool", related.quoteVault, pool.quoteMint);
  return {
    kind: "pumpswap",
    baseMint: pool.baseMint,
    quoteMint: pool.quoteMint,
    priceQuotePerBase: reservePrice("PumpSwapPool", base, quote, decimalsOf(pool.baseMint), decimalsOf(pool.quoteMint)),
    quoteLiquidity: quote,
    baseReserve: base,
    tradable: true,
    extra: {},
  };
}
