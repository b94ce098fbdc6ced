/**
 * PumpSwap (pump AMM, program pAMMBay6…): constant product on the quote vault plus the pool's
 * `virtual_quote_reserves` against the base vault. A graduated pump coin's canonical pool is a PDA of
 * the mint; other pools (any creator / index) need a gPA on base_mint.
 */
import {
  getAddressDecoder,
  getBase16Encoder,
  getBooleanDecoder,
  getI128Decoder,
  getU64Decoder,
  type Address,
  type FixedSizeDecoder,
  type ReadonlyUint8Array,
} from "@solana/kit";
import { PUMP_AMM_PROGRAM_ADDRESS, PUMP_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, pairCandidates } from "./candidates";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda, u16Le } from "./pda";
import { reservePrice } from "./pool-price";
import { readVaultAmount } from "../solana/accounts/spl-token";
import type { DecimalsOf, PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses, SwappedPoolRoles } from "./types";
import { poolCreationsAt, swapReservesAt } from "./instruction-readers";
import { defineVenue } from "./venue-descriptor";
import { definePoolAdapter } from "./pool-adapter";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    pumpswap: true;
  }
}

export { PUMP_AMM_PROGRAM_ADDRESS };

export const PUMPSWAP_POOL_DISCRIMINATOR = getBase16Encoder().encode("f19a6d0411b16dbc");
/**
 * Pools are allocated 300 B; pricing needs the keys up to pool_quote_token_account (ends at 203). The
 * fields after coin_creator (@211) were appended over time, so older, shorter pools lack some of them.
 */
export const PUMPSWAP_POOL_MIN_SIZE = 203;
const BASE_MINT_OFFSET = 43;

export interface PumpSwapPool {
  readonly baseMint: Address;
  readonly quoteMint: Address;
  readonly baseVault: Address;
  readonly quoteVault: Address;
  readonly isMayhemMode: boolean;
  readonly isCashbackCoin: boolean;
  /**
   * Quote atoms the program adds to the quote vault balance in its swap math ("boost" pools); the SDK's
   * effectiveQuoteReserve = quote vault + this. Never negative here: the decoder refuses such pools.
   */
  readonly virtualQuoteReserves: bigint;
  readonly creatorFeeBps: bigint;
  readonly canEditCreatorFee: boolean;
}

const poolDecoder = getFieldsDecoder({
  baseMint: [BASE_MINT_OFFSET, getAddressDecoder()],
  quoteMint: [75, getAddressDecoder()],
  baseVault: [139, getAddressDecoder()],
  quoteVault: [171, getAddressDecoder()],
});

/** Fields appended after coin_creator (pump_amm IDL / pump-swap-sdk 1.20), each with its value when absent. */
const appendedFields = {
  isMayhemMode: [243, getBooleanDecoder(), false],
  isCashbackCoin: [244, getBooleanDecoder(), false],
  virtualQuoteReserves: [245, getI128Decoder(), 0n],
  creatorFeeBps: [261, getU64Decoder(), 0n],
  canEditCreatorFee: [269, getBooleanDecoder(), false],
} as const;

/** An appended field, or its default when the (older) account ends before it. */
function readAppended<T>(data: ReadonlyUint8Array, [offset, decoder, absent]: readonly [number, FixedSizeDecoder<T>, T]): T {
  return data.length >= offset + decoder.fixedSize ? decoder.decode(data, offset) : absent;
}

/**
 * Decodes a PumpSwap Pool (the "Pool" discriminator is shared with DAMM v1/v2: the owner tells them apart).
 * Accepts every length from 203 B on; a negative `virtual_quote_reserves` (i128) is refused, since the
 * program's effective quote reserve could then be zero or negative.
 */
export function decodePumpSwapPool(account: AccountBytes): PumpSwapPool {
  assertAccountShape(account, {
    layout: "PumpSwapPool",
    owners: [PUMP_AMM_PROGRAM_ADDRESS],
    size: [PUMPSWAP_POOL_MIN_SIZE],
    discriminator: PUMPSWAP_POOL_DISCRIMINATOR,
  });
  const { data } = account;
  const virtualQuoteReserves = readAppended(data, appendedFields.virtualQuoteReserves);
  if (virtualQuoteReserves < 0n) throw new AccountDecodeError("PumpSwapPool", "value", "negative virtual quote reserves");
  return {
    ...poolDecoder.decode(data),
    isMayhemMode: readAppended(data, appendedFields.isMayhemMode),
    isCashbackCoin: readAppended(data, appendedFields.isCashbackCoin),
    virtualQuoteReserves,
    creatorFeeBps: readAppended(data, appendedFields.creatorFeeBps),
    canEditCreatorFee: readAppended(data, appendedFields.canEditCreatorFee),
  };
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

type Related = "baseVault" | "quoteVault";

/** The two vault token accounts. */
export function requiredAccountsForPumpSwapPool(pool: PumpSwapPool): RelatedAddresses<Related> {
  return { baseVault: pool.baseVault, quoteVault: pool.quoteVault };
}

/**
 * Price = (quote vault + virtual_quote_reserves) / base vault: the program (and pump-swap-sdk 1.20's
 * effectiveQuoteReserve) trades against that effective quote reserve. Protocol and creator fees leave the
 * pool in the swap itself, the LP fee stays and backs swaps, so the full vault balances are the reserves.
 * `quoteLiquidity` stays the real quote vault: virtual reserves cannot be withdrawn by selling.
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
    priceQuotePerBase: reservePrice(
      "PumpSwapPool",
      base,
      quote + pool.virtualQuoteReserves,
      decimalsOf(pool.baseMint),
      decimalsOf(pool.quoteMint),
    ),
    quoteLiquidity: quote,
    baseReserve: base,
    tradable: true,
    extra: {},
  };
}

/** PumpSwap pools: the canonical (migrated) pool of a mint is derived; others come from the registry. */
export const pumpSwapPoolAdapter = definePoolAdapter({
  kind: "pumpswap",
  candidates: listPumpSwapPoolCandidates,
  decode: decodePumpSwapPool,
  required: requiredAccountsForPumpSwapPool,
  price: (state, _mint, related, decimalsOf) => priceFromPumpSwapPool(state, related, decimalsOf),
});

/** The pricer and the registry name the pool's vaults by these roles. */
const VAULT_ROLES = ["baseVault", "quoteVault"] as const;
/** PumpSwap buy, sell and buy_exact_quote_in. */
const pumpSwapSwaps = new Set(["66063d1201daebea", "33e685a4017f83ad", "c62e1552b4d9e870"]);
/** The pool and vaults of buy / sell / buy_exact_quote_in (pump_amm IDL, pump-public-docs @1b822158): pool 0, user 1, base/quote mint 3/4, vaults 7/8. */
export const pumpSwapSwapReserves = swapReservesAt("pumpswap", pumpSwapSwaps, { pool: 0, vaults: [7, 8], mints: [3, 4], user: 1 }, "given");

/** A PumpSwap pool seen swapped is registered with its two vaults, which its pricer reads. */
export const pumpSwapSwappedPool: SwappedPoolRoles = { reserveRoles: VAULT_ROLES };

/** create_pool: pool 0, base/quote mint 3/4, pool base/quote token account 9/10 → a created pool. */
export const pumpSwapPoolLifecycle = poolCreationsAt("pumpswap", new Map([["e992d18ecf6840bc", [0, 3, 4, 9, 10]]]), VAULT_ROLES);

/** PumpSwap: venue-d. Vaults are owned by the pool account itself; swaps have no activation gate. */
export const pumpSwapVenue = defineVenue({
  kind: "pumpswap",
  dex: "pumpswap",
  venue: "venue-d",
  program: PUMP_AMM_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [],
  adapter: pumpSwapPoolAdapter,
  instructions: { swapReserves: pumpSwapSwapReserves, lifecycle: pumpSwapPoolLifecycle, swappedPool: pumpSwapSwappedPool },
  activation: null,
});
