/**
 * Raydium AMM v4 (program 675kPX9M…, not Anchor: no discriminator, 752-byte repr(C) AmmInfo).
 * Pools are PDAs of their OpenBook market, not of the mints, so they are found by scanning the program.
 * Layout: raydium-amm 0.3.1 @27f461d (OpenBook removed; AmmInfo unchanged, its order-book fields deprecated).
 */
import { address, getAddressDecoder, getU64Decoder, transformDecoder, type Address } from "@solana/kit";
import { RAYDIUM_AMM_V4_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda } from "./pda";
import { netOfFees, reservePrice } from "./pool-price";
import { readVaultAmount } from "../solana/accounts/spl-token";
import type { PoolLifecycleReader, PoolPrice, RelatedAccounts, RelatedAddresses, SwappedPoolRoles, SwapReservesReader } from "./types";
import { accountsAt } from "./instruction-tag";
import { definePoolAdapter, registryOnlyCandidates } from "./pool-adapter";
import { defineVenue } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "raydium-amm-v4": true;
  }
}

export { RAYDIUM_AMM_V4_PROGRAM_ADDRESS };

export const RAYDIUM_AMM_V4_POOL_SIZE = 752;
const COIN_MINT_OFFSET = 400;
const PC_MINT_OFFSET = 432;
/** Initialized, SwapOnly and WaitingTrade (swaps open after pool_open_time); other statuses reject swaps. */
const SWAPPABLE_STATUSES = new Set([1, 6, 7]);
/** AmmStatus::WaitingTrade: the one status whose swaps wait for pool_open_time. */
const WAITING_TRADE = 7;

export interface RaydiumAmmV4Pool {
  readonly status: number;
  readonly coinDecimals: number;
  readonly pcDecimals: number;
  /** PnL owed to the protocol but still in the vaults: not part of the swap reserves */
  readonly needTakePnlCoin: bigint;
  readonly needTakePnlPc: bigint;
  readonly coinVault: Address;
  readonly pcVault: Address;
  readonly coinMint: Address;
  readonly pcMint: Address;
  /** unix second from which a WaitingTrade pool accepts swaps */
  readonly poolOpenTime: bigint;
}

const u64AsNumber = transformDecoder(getU64Decoder(), Number);
const poolDecoder = getFieldsDecoder({
  status: [0, u64AsNumber],
  coinDecimals: [32, u64AsNumber],
  pcDecimals: [40, u64AsNumber],
  needTakePnlCoin: [192, getU64Decoder()],
  needTakePnlPc: [200, getU64Decoder()],
  coinVault: [336, getAddressDecoder()],
  pcVault: [368, getAddressDecoder()],
  coinMint: [COIN_MINT_OFFSET, getAddressDecoder()],
  pcMint: [PC_MINT_OFFSET, getAddressDecoder()],
  poolOpenTime: [224, getU64Decoder()],
});

/** Decodes an AmmInfo; owner and the exact size are the only type checks this layout allows. */
export function decodeRaydiumAmmV4Pool(account: AccountBytes): RaydiumAmmV4Pool {
  assertAccountShape(account, {
    layout: "RaydiumAmmV4Pool",
    owners: [RAYDIUM_AMM_V4_PROGRAM_ADDRESS],
    size: RAYDIUM_AMM_V4_POOL_SIZE,
  });
  return poolDecoder.decode(account.data);
}

/** AMM PDA of a market (AmmInfo.market at 528): [program id, market, "amm_associated_seed"]. Older pools are not PDAs. */
export function findRaydiumAmmV4PoolAddress(market: Address): Promise<Address> {
  return findPda(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, [
    addressBytes(RAYDIUM_AMM_V4_PROGRAM_ADDRESS),
    addressBytes(market),
    "amm_associated_seed",
  ]);
}

type Related = "coinVault" | "pcVault";

/** The two vault token accounts. */
export function requiredAccountsForRaydiumAmmV4Pool(pool: RaydiumAmmV4Pool): RelatedAddresses<Related> {
  return { coinVault: pool.coinVault, pcVault: pool.pcVault };
}

/**
 * Price pc per coin from reserves = vault − need_take_pnl, the amounts the program's own swap math
 * (calc_total_without_take_pnl_no_orderbook) trades against.
 */
export function priceFromRaydiumAmmV4Pool(pool: RaydiumAmmV4Pool, related: RelatedAccounts<Related>): PoolPrice {
  const coin = netOfFees(readVaultAmount("RaydiumAmmV4Pool", related.coinVault, pool.coinMint), pool.needTakePnlCoin);
  const pc = netOfFees(readVaultAmount("RaydiumAmmV4Pool", related.pcVault, pool.pcMint), pool.needTakePnlPc);
  return {
    kind: "raydium-amm-v4",
    baseMint: pool.coinMint,
    quoteMint: pool.pcMint,
    priceQuotePerBase: reservePrice("RaydiumAmmV4Pool", coin, pc, pool.coinDecimals, pool.pcDecimals),
    quoteLiquidity: pc,
    baseReserve: coin,
    tradable: SWAPPABLE_STATUSES.has(pool.status),
    extra: {},
  };
}

/** AMM v4 pools are keyed by their market, not the mints: only the registry (and getProgramAccounts) finds them. */
export const raydiumAmmV4PoolAdapter = definePoolAdapter({
  kind: "raydium-amm-v4",
  candidates: registryOnlyCandidates,
  decode: decodeRaydiumAmmV4Pool,
  required: requiredAccountsForRaydiumAmmV4Pool,
  price: (state, _mint, related) => priceFromRaydiumAmmV4Pool(state, related),
});

/**
 * The pool and vaults (coin, pc) a swap_base_in / swap_base_out (tags 9 / 11; 17 accounts, or 18 with the deprecated
 * target_orders) or swap_base_in_v2 / swap_base_out_v2 (tags 16 / 17, 8 accounts) trades against (raydium-amm 0.3.1), and
 * its user: the source token account's owner, the last account of the 17/18-account forms and position 7 of the v2 ones.
 */
export const raydiumAmmV4SwapReserves: SwapReservesReader = (data, key, count) => {
  const tag = data[0];
  let positions: number[];
  if ((tag === 9 || tag === 11) && data.length >= 17 && (count === 17 || count === 18)) {
    const shift = count === 18 ? 1 : 0;
    positions = [1, 4 + shift, 5 + shift, count - 1];
  } else if ((tag === 16 || tag === 17) && data.length >= 17 && count >= 8) positions = [1, 3, 4, 7];
  else return undefined;
  const at = accountsAt(key, positions);
  if (!at) return undefined;
  const [pool, coinVault, pcVault, user] = at as [Address, Address, Address, Address];
  return { kind: "raydium-amm-v4", pool, reserves: [{ account: coinVault, mint: undefined }, { account: pcVault, mint: undefined }], order: "given", user };
};

/** An AMM v4 pool seen swapped is registered with its two vaults, which its pricer reads. */
export const raydiumAmmV4SwappedPool: SwappedPoolRoles = { reserveRoles: ["coinVault", "pcVault"] };

/** initialize2 (tag 1): amm 4, coin mint 8, pc mint 9, coin vault 10, pc vault 11 → a created pool. */
export const raydiumAmmV4PoolLifecycle: PoolLifecycleReader = (data, key, count) => {
  if (data[0] !== 1 || count < 12) return [];
  const at = accountsAt(key, [4, 8, 9, 10, 11]);
  if (!at) return [];
  const [pool, coinMint, pcMint, coinVault, pcVault] = at as [Address, Address, Address, Address, Address];
  return [{ type: "create", kind: "raydium-amm-v4", pool, mints: [coinMint, pcMint], related: { coinVault, pcVault } }];
};

/** The program-wide authority PDA ["amm authority"]: owner of every pool's vaults. */
export const RAYDIUM_AMM_V4_AUTHORITY = address("5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1");

/**
 * Raydium AMM v4: venue-b. A pool in status WaitingTrade refuses swaps while now < pool_open_time (raydium-amm @27f461d
 * processor.rs, every swap); other swappable statuses ignore pool_open_time.
 */
export const raydiumAmmV4Venue = defineVenue({
  kind: "raydium-amm-v4",
  dex: "raydium-amm-v4",
  venue: "venue-b",
  program: RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  authorities: [RAYDIUM_AMM_V4_AUTHORITY],
  liquidityPrograms: [],
  adapter: raydiumAmmV4PoolAdapter,
  instructions: { swapReserves: raydiumAmmV4SwapReserves, lifecycle: raydiumAmmV4PoolLifecycle, swappedPool: raydiumAmmV4SwappedPool },
  activation: (account) => {
    const pool = decodeRaydiumAmmV4Pool(account);
    return pool.status === WAITING_TRADE ? { unit: "unix-time", opensAt: pool.poolOpenTime } : undefined;
  },
});
