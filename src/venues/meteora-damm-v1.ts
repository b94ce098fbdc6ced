/**
 * Meteora DAMM v1 (dynamic AMM, program Eo7WjKq6…). Pools hold LP shares of shared dynamic vaults, so
 * pricing reads the two vaults, the pool's two vault-LP token accounts and the two vault LP mints.
 * Curves: constant product, or stable swap (amp, decimal multipliers, optional depeg virtual price).
 * Time-dependent math (vault profit unlocking, the depeg price cache) runs on the Clock sysvar read with the pool.
 */
import { address, getAddressDecoder, getBase16Encoder, getBooleanDecoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import { ratio, type Ratio } from "../math/fixed-point";
import { METEORA_DAMM_V1_PROGRAM_ADDRESS, METEORA_VAULT_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, derivedQuoteMints, pairCandidates } from "./candidates";
import { decodeClockSysvar, SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { decodeMeteoraVault, meteoraVaultAmountByShare, type MeteoraVault } from "./meteora-vault";
import { addressBytes, findPda, memoizeByIndex, sortedMintBytes, u64Le } from "./pda";
import { reservePrice, toHumanPrice } from "./pool-price";
import { decodeMint, readVaultAmount } from "../solana/accounts/spl-token";
import { DEPEG_PRECISION, DEPEG_TYPE, depegStakeAccountAddress, stakePoolVirtualPrice } from "./stake-pool-price";
import type { DecimalsOf, PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses, SwapReservesReader } from "./types";
import { accountsAt, instructionTag } from "./instruction-tag";
import { poolCreationsAt } from "./instruction-readers";
import type { PoolAdapter } from "./pool-adapter";
import { defineVenue, slotOrTimeActivation } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "meteora-damm-v1": true;
  }
}

export { METEORA_DAMM_V1_PROGRAM_ADDRESS };

export const METEORA_DAMM_V1_POOL_DISCRIMINATOR = getBase16Encoder().encode("f19a6d0411b16dbc");
/** Fixture pools are 1,387 B; pricing reads up to the stable curve's depeg type at 916. */
export const METEORA_DAMM_V1_POOL_MIN_SIZE = 917;
/** Configs DBC pools migrate to (FixedBps 25, 30, 100, 200, 400, 600), from the DBC SDK. */
export const METEORA_DAMM_V1_DBC_MIGRATION_CONFIGS: readonly Address[] = [
  address("8f848CEy8eY6PhJ3VcemtBDzPPSD4Vq7aJczLZ3o8MmX"),
  address("HBxB8Lf14Yj8pqeJ8C4qDb5ryHL7xwpuykz31BLNYr7S"),
  address("7v5vBdUQHTNeqk1HnduiXcgbvCyVEZ612HLmYkQoAkik"),
  address("EkvP7d5yKxovj884d2DwmBQbrHUWRLGK6bympzrkXGja"),
  address("9EZYAJrcqNWNQzP2trzZesP7XKMHA1jEomHzbRsdX8R2"),
  address("8cdKo87jZU2R12KY1BUjjRPwyjgdNjLGqSGQyrDshhud"),
];
/** Config indices seen on mainnet pools (3Lxsto… → 29, swap tx 2mHGPXMz); the full set needs a gPA. */
export const METEORA_DAMM_V1_KNOWN_CONFIG_INDICES: readonly number[] = [29];
const CONSTANT_PRODUCT = 0;
/** `constants::depeg::BASE_CACHE_EXPIRES`: the stored virtual price is used for 10 minutes after it was cached. */
export const METEORA_DAMM_V1_BASE_CACHE_EXPIRES_SECONDS = 600n;

export interface MeteoraDammV1Pool {
  readonly tokenAMint: Address;
  readonly tokenBMint: Address;
  readonly aVault: Address;
  readonly bVault: Address;
  /** the pool's token accounts of vault LP (its share of each vault) */
  readonly aVaultLp: Address;
  readonly bVaultLp: Address;
  readonly enabled: boolean;
  /** 0 constant product, 1 stable */
  readonly curveType: number;
  readonly amp: bigint;
  readonly tokenAMultiplier: bigint;
  readonly tokenBMultiplier: bigint;
  /** depeg pools: token B's virtual price (SOL per token × 10⁶) as cached in the pool at `baseCacheUpdated` */
  readonly baseVirtualPrice: bigint;
  /** unix time the program last cached `baseVirtualPrice` (only a swap refreshes it) */
  readonly baseCacheUpdated: bigint;
  /** 0 none, 1 Marinade, 2 Lido, 3 SPL stake pool */
  readonly depegType: number;
  /** the SPL stake pool of an SPL-stake depeg pool (unused by the other types) */
  readonly stake: Address;
  /** bootstrapping: slot or unix second (activation type 0 / 1) from which swaps are accepted */
  readonly activationPoint: bigint;
  readonly activationType: number;
}

const poolDecoder = getFieldsDecoder({
  tokenAMint: [40, getAddressDecoder()],
  tokenBMint: [72, getAddressDecoder()],
  aVault: [104, getAddressDecoder()],
  bVault: [136, getAddressDecoder()],
  aVaultLp: [168, getAddressDecoder()],
  bVaultLp: [200, getAddressDecoder()],
  enabled: [233, getBooleanDecoder()],
  stake: [363, getAddressDecoder()],
  activationPoint: [403, getU64Decoder()],
  activationType: [475, getU8Decoder()],
  curveType: [874, getU8Decoder()],
  amp: [875, getU64Decoder()],
  tokenAMultiplier: [883, getU64Decoder()],
  tokenBMultiplier: [891, getU64Decoder()],
  baseVirtualPrice: [900, getU64Decoder()],
  baseCacheUpdated: [908, getU64Decoder()],
  depegType: [916, getU8Decoder()],
});

/** Decodes a dynamic-AMM Pool (the "Pool" discriminator is shared with PumpSwap and DAMM v2). */
export function decodeMeteoraDammV1Pool(account: AccountBytes): MeteoraDammV1Pool {
  assertAccountShape(account, {
    layout: "MeteoraDammV1Pool",
    owners: [METEORA_DAMM_V1_PROGRAM_ADDRESS],
    size: [METEORA_DAMM_V1_POOL_MIN_SIZE],
    discriminator: METEORA_DAMM_V1_POOL_DISCRIMINATOR,
  });
  return poolDecoder.decode(account.data);
}

/** Permissionless constant-product pool with the default 0.25 % fee: [0u8, max(a, b), min(a, b)]. */
export function findMeteoraDammV1PermissionlessPoolAddress(mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DAMM_V1_PROGRAM_ADDRESS, [Uint8Array.of(0), high, low]);
}

/** Customizable constant-product pool: ["pool", max(a, b), min(a, b)]. */
export function findMeteoraDammV1CustomizablePoolAddress(mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DAMM_V1_PROGRAM_ADDRESS, ["pool", high, low]);
}

/** Config PDA of an index: ["config", index u64 LE] (memoised). */
export const findMeteoraDammV1ConfigAddress = memoizeByIndex((index) =>
  findPda(METEORA_DAMM_V1_PROGRAM_ADDRESS, ["config", u64Le(index)]),
);

/** Pool of a config: [max(a, b), min(a, b), config]. */
export function findMeteoraDammV1ConfigPoolAddress(config: Address, mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DAMM_V1_PROGRAM_ADDRESS, [high, low, addressBytes(config)]);
}

/**
 * Constant-product pools of `mint` against each quote mint: permissionless (default fee), customizable,
 * DBC migration configs and config indices. Permissioned pools use arbitrary keys and are not derivable.
 */
export function listMeteoraDammV1PoolCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
  configIndices: readonly number[] = METEORA_DAMM_V1_KNOWN_CONFIG_INDICES,
): Promise<PoolCandidate[]> {
  return pairCandidates("meteora-damm-v1", mint, quoteMints, [
    (quoteMint) => findMeteoraDammV1PermissionlessPoolAddress(mint, quoteMint),
    (quoteMint) => findMeteoraDammV1CustomizablePoolAddress(mint, quoteMint),
    ...METEORA_DAMM_V1_DBC_MIGRATION_CONFIGS.map((config) => (quoteMint: Address) => findMeteoraDammV1ConfigPoolAddress(config, mint, quoteMint)),
    ...configIndices.map(
      (index) => async (quoteMint: Address) =>
        findMeteoraDammV1ConfigPoolAddress(await findMeteoraDammV1ConfigAddress(index), mint, quoteMint),
    ),
  ]);
}

type VaultRelated = "aVault" | "bVault" | "aVaultLp" | "bVaultLp" | "clock";
type LpMintRelated = "aVaultLpMint" | "bVaultLpMint";
/** Depeg pools only: the stake-pool account their virtual price is recomputed from. */
type DepegRelated = { readonly depegStake?: Address };

/**
 * First read: the two vaults, the pool's vault-LP token accounts, the Clock sysvar (chain time for the vaults' locked
 * profit and the depeg cache) and, for a depeg pool, its stake-pool account — all in the same batch as the pool's
 * other accounts, so the price is computed from one snapshot.
 */
export function requiredAccountsForMeteoraDammV1Pool(pool: MeteoraDammV1Pool): RelatedAddresses<VaultRelated> & DepegRelated {
  const required = { aVault: pool.aVault, bVault: pool.bVault, aVaultLp: pool.aVaultLp, bVaultLp: pool.bVaultLp, clock: SYSVAR_CLOCK_ADDRESS };
  const depegStake = isDepegPool(pool) ? depegStakeAccountAddress(pool.depegType, pool.stake) : undefined;
  return depegStake === undefined ? required : { ...required, depegStake };
}

const isDepegPool = (pool: MeteoraDammV1Pool): boolean => pool.curveType !== CONSTANT_PRODUCT && pool.depegType !== DEPEG_TYPE.none;

/**
 * Token B's virtual price at chain time `nowSeconds`, as the program sees it in a swap: the cached one until
 * `baseCacheUpdated + 600 s`, afterwards recomputed from the stake-pool account (`update_base_virtual_price`).
 */
export function meteoraDammV1BaseVirtualPrice(pool: MeteoraDammV1Pool, nowSeconds: bigint, stakeAccount: AccountBytes | undefined): bigint {
  if (nowSeconds <= pool.baseCacheUpdated + METEORA_DAMM_V1_BASE_CACHE_EXPIRES_SECONDS) return pool.baseVirtualPrice;
  if (!stakeAccount) throw new AccountDecodeError("MeteoraDammV1Pool", "value", "depeg stake-pool account not read");
  return stakePoolVirtualPrice(pool.depegType, stakeAccount);
}

/** Second read: the vault LP mints (their supply), named by the decoded vaults. Immutable per vault: cacheable. */
export function requiredVaultLpMintsForMeteoraDammV1(aVault: MeteoraVault, bVault: MeteoraVault): RelatedAddresses<LpMintRelated> {
  return { aVaultLpMint: aVault.lpMint, bVaultLpMint: bVault.lpMint };
}

/** Token amount a pool owns through one vault: unlocked vault amount × pool's LP / LP supply. */
function poolTokenAmount(
  vaultAccount: AccountBytes,
  lpAccount: AccountBytes,
  lpMintAccount: AccountBytes,
  tokenMint: Address,
  nowSeconds: bigint,
): bigint {
  const vault = decodeMeteoraVault(vaultAccount);
  if (vault.tokenMint !== tokenMint) throw new AccountDecodeError("MeteoraDammV1Pool", "mismatch", `vault of ${vault.tokenMint}`);
  const shares = readVaultAmount("MeteoraDammV1Pool", lpAccount, vault.lpMint);
  return meteoraVaultAmountByShare(vault, nowSeconds, shares, decodeMint(lpMintAccount).supply);
}

/**
 * Stable-swap invariant D for two normalised balances, by Newton's method on
 * Ann·(x + y) + D = Ann·D + D³/(4xy) with Ann = amp × 2 (the Saber form the program uses).
 */
function stableInvariant(leverage: bigint, x: bigint, y: bigint): bigint {
  const sum = x + y;
  let d = sum;
  for (let i = 0; i < 256; i++) {
    const dP = (((d * d) / (2n * x)) * d) / (2n * y);
    const previous = d;
    d = ((leverage * sum + 2n * dP) * d) / ((leverage - 1n) * d + 3n * dP);
    if (d - previous <= 1n && previous - d <= 1n) break;
  }
  return d;
}

/**
 * Marginal stable-swap price of x in y (dy/dx along the invariant), exact once D is known:
 * (Ann + D³/(4x²y)) / (Ann + D³/(4xy²)) = (4·Ann·x²y² + D³·y) / (4·Ann·x²y² + D³·x).
 */
function stableMarginalPrice(leverage: bigint, x: bigint, y: bigint): Ratio {
  const d = stableInvariant(leverage, x, y);
  const cube = d * d * d;
  const core = 4n * leverage * x * x * y * y;
  return ratio(core + cube * y, core + cube * x);
}

/**
 * Spot price B per A at the chain time of the `clock` account (vault profit unlocks over time). Stable pools normalise
 * amounts by the decimal multipliers and, for depeg pools, token B by its virtual price: the one cached in the pool
 * while it is at most 10 minutes old, else recomputed from the `depegStake` account, as the program does in a swap.
 */
export function priceFromMeteoraDammV1Pool(
  pool: MeteoraDammV1Pool,
  related: RelatedAccounts<VaultRelated | LpMintRelated> & { readonly depegStake?: AccountBytes },
  decimalsOf: DecimalsOf,
): PoolPrice {
  const nowSeconds = decodeClockSysvar(related.clock).unixTimestamp;
  const a = poolTokenAmount(related.aVault, related.aVaultLp, related.aVaultLpMint, pool.tokenAMint, nowSeconds);
  const b = poolTokenAmount(related.bVault, related.bVaultLp, related.bVaultLpMint, pool.tokenBMint, nowSeconds);
  const decimalsA = decimalsOf(pool.tokenAMint);
  const decimalsB = decimalsOf(pool.tokenBMint);
  let price: Ratio;
  if (pool.curveType === CONSTANT_PRODUCT) {
    price = reservePrice("MeteoraDammV1Pool", a, b, decimalsA, decimalsB);
  } else {
    const depeg = isDepegPool(pool);
    const scaleA = pool.tokenAMultiplier * (depeg ? DEPEG_PRECISION : 1n);
    const scaleB = pool.tokenBMultiplier * (depeg ? meteoraDammV1BaseVirtualPrice(pool, nowSeconds, related.depegStake) : 1n);
    if (a === 0n || b === 0n || scaleA === 0n || scaleB === 0n || pool.amp === 0n) {
      throw new AccountDecodeError("MeteoraDammV1Pool", "value", "empty stable pool");
    }
    const normalised = stableMarginalPrice(pool.amp * 2n, a * scaleA, b * scaleB);
    // dy/dx in normalised units → raw B per raw A: × scaleA / scaleB
    price = toHumanPrice(ratio(normalised.num * scaleA, normalised.den * scaleB), decimalsA, decimalsB);
  }
  return {
    kind: "meteora-damm-v1",
    baseMint: pool.tokenAMint,
    quoteMint: pool.tokenBMint,
    priceQuotePerBase: price,
    quoteLiquidity: b,
    baseReserve: a,
    tradable: pool.enabled,
    extra: {},
  };
}

/**
 * DAMM v1 keeps its tokens in shared dynamic vaults, so pricing needs two levels of accounts: the vaults and the pool's
 * vault-LP balances (with the Clock sysvar and, for depeg pools, the stake-pool account), then the vaults' LP mints:
 * two more reads the first time; then they are known (related accounts) and ride in the same batch as the pool.
 * Time comes from the Clock account read in that batch, never from the server's clock.
 */
export const meteoraDammV1PoolAdapter: PoolAdapter<"meteora-damm-v1"> = {
  kind: "meteora-damm-v1",
  candidates: (mint) => listMeteoraDammV1PoolCandidates(mint, derivedQuoteMints(mint)),
  evaluate(poolAccount, _mint, lookup, decimalsOf) {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    const first = requiredAccountsForMeteoraDammV1Pool(pool);
    const missing = Object.values(first).filter((a) => lookup(a) === undefined);
    if (missing.length > 0) return { kind: "needs", addresses: missing, related: first };
    const get = (a: Address) => {
      const found = lookup(a);
      if (!found) throw new AccountDecodeError("meteora-damm-v1", "value", `related account ${a} missing`);
      return found;
    };
    const second = requiredVaultLpMintsForMeteoraDammV1(decodeMeteoraVault(get(first.aVault)), decodeMeteoraVault(get(first.bVault)));
    const related = { ...first, ...second };
    const missingLp = Object.values(second).filter((a) => lookup(a) === undefined);
    if (missingLp.length > 0) return { kind: "needs", addresses: missingLp, related };
    const accounts = Object.fromEntries(Object.entries(related).map(([role, a]) => [role, get(a)])) as Record<keyof typeof related, AccountBytes>;
    const price = priceFromMeteoraDammV1Pool(pool, accounts, decimalsOf);
    return { kind: "priced", price, related };
  },
};

/**
 * The pool of a swap (dynamic_amm 0.5.2 IDL: pool 0, a/b token vault 5/6, user 12) and, as its reserves, the two dynamic vaults'
 * token accounts: the pool owns vault LP shares, so its swaps show as what those token accounts gain and lose. Mints
 * come from the token balances.
 */
export const meteoraDammV1SwapReserves: SwapReservesReader = (data, key, count) => {
  if (count < 13 || instructionTag(data) !== "f8c69e91e17587c8") return undefined;
  const at = accountsAt(key, [0, 5, 6, 12]);
  if (!at) return undefined;
  const [pool, aTokenVault, bTokenVault, user] = at as [Address, Address, Address, Address];
  return { kind: "meteora-damm-v1", pool, reserves: [{ account: aTokenVault, mint: undefined }, { account: bTokenVault, mint: undefined }], order: "given", user };
};

/** Pool initialisations (dynamic_amm 0.5.2 IDL) → positions of [pool, mint a, mint b, a vault, b vault, a vault lp, b vault lp]. */
const dammV1PoolCreations = new Map<string, number[]>([
  ["4d55b29d3230d47e", [0, 2, 3, 4, 5, 8, 9]], // initialize_permissioned_pool
  ["76ad299dad486167", [0, 2, 3, 4, 5, 10, 11]], // initialize_permissionless_pool
  ["06874493e552a971", [0, 2, 3, 4, 5, 10, 11]], // initialize_permissionless_pool_with_fee_tier
  ["9118acc2db7d03be", [0, 2, 3, 4, 5, 10, 11]], // initialize_customizable_permissionless_constant_product_pool
  ["07a68aabceabecf4", [0, 3, 4, 5, 6, 11, 12]], // initialize_permissionless_constant_product_pool_with_config
  ["3095dc823d0b09b2", [0, 3, 4, 5, 6, 11, 12]], // initialize_permissionless_constant_product_pool_with_config2
]);

/** A pool initialisation → a created pool, with the vault accounts its pricer reads first. */
export const meteoraDammV1PoolLifecycle = poolCreationsAt("meteora-damm-v1", dammV1PoolCreations, ["aVault", "bVault", "aVaultLp", "bVaultLp"]);

/**
 * Meteora DAMM v1: venue-c. Its pools hold shares of Meteora's dynamic vaults, whose token accounts the vault program's
 * accounts own: liquidity too. Swaps are refused while the current slot / unix time is below the bootstrapping
 * activation_point (damm-v1-sdk @02c66a3 dynamic-amm-quote: `current_point >= pool.bootstrapping.activation_point`).
 */
export const meteoraDammV1Venue = defineVenue({
  kind: "meteora-damm-v1",
  dex: "meteora-damm-v1",
  venue: "venue-c",
  program: METEORA_DAMM_V1_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [METEORA_VAULT_PROGRAM_ADDRESS],
  adapter: meteoraDammV1PoolAdapter,
  instructions: { swapReserves: meteoraDammV1SwapReserves, lifecycle: meteoraDammV1PoolLifecycle },
  activation: (account) => {
    const pool = decodeMeteoraDammV1Pool(account);
    return slotOrTimeActivation(pool.activationType, pool.activationPoint);
  },
});
