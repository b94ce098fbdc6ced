/**
 * Orca Whirlpool (program whirLbMi…): concentrated liquidity. Spot price from the Q64.64 sqrt price; reserves from the
 * vaults net of the protocol fees owed; depth around the price from the pool's tick arrays (fixed 9,988-byte arrays and
 * the newer variable-size "dynamic" ones). Adaptive-fee pools (fee-tier index ≠ tick spacing) have an Oracle account
 * whose `trade_enable_timestamp` opens swaps (the program refuses them before).
 *
 * Layouts of orca-so/whirlpools @630c0e0 (2026-08-18; programs/whirlpool 0.9.0, `state/{whirlpool,oracle,
 * fixed_tick_array,dynamic_tick_array,tick}.rs`, `events.rs`), priced as whirlpools-core 2.1.1 (@orca-so/whirlpools-core
 * 3.1.1) `sqrt_price_to_price`. Instruction accounts and discriminators of the Whirlpool IDL 0.6.1 (@65b313f), unchanged
 * in 0.9.0. The facts the tests check live in test/fixtures/program-facts/orca_whirlpool.facts.json.
 */
import {
  address,
  getAddressDecoder,
  getBase16Encoder,
  getI128Decoder,
  getI32Decoder,
  getU128Decoder,
  getU16Decoder,
  getU32Decoder,
  getU64Decoder,
  getU8Decoder,
  type Address,
} from "@solana/kit";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { readVaultAmount } from "../solana/accounts/spl-token";
import { findProgramAddressSync } from "../solana/program-address";
import { ORCA_WHIRLPOOL_PROGRAM_ADDRESS } from "../solana/well-known";
import { derivedQuoteMints } from "./candidates";
import { accountsAt, instructionTag } from "./instruction-tag";
import { addressBytes, findPda, sortedMintBytes, u16Le, type Seed } from "./pda";
import { netOfFees, sqrtPriceX64Price } from "./pool-price";
import type { DecimalsOf, RelatedAccounts, RelatedAddresses } from "./types";
import { defineUnlistedPoolAdapter, type VenuePoolCandidate, type VenuePoolLifecycle, type VenuePoolPrice, type VenueSwapReserves } from "./unlisted-kind";
import type { AccountLookup } from "./pool-adapter";
import { defineVenue, type ActivationPoint } from "./venue-descriptor";
import { isqrt } from "../math/integer-sqrt";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "orca-whirlpool": true;
  }
}

export const ORCA_WHIRLPOOL_KIND = "orca-whirlpool" as const;
export type OrcaWhirlpoolKind = typeof ORCA_WHIRLPOOL_KIND;

export { ORCA_WHIRLPOOL_PROGRAM_ADDRESS };
/** The main WhirlpoolsConfig: every pool Orca's SDKs and UI create. */
export const ORCA_WHIRLPOOLS_CONFIG_ADDRESS = address("2LecshUwdy9xi7meFgHtFJQNSKk4KdTrcpvaB56dP2NQ");
/**
 * Fee-tier indices of the classic fee tiers (index = tick spacing), the SDKs' supported tick spacings; 32896 is the
 * splash-pool tier. Adaptive-fee tiers use other indices, found only by reading the pool (registry, swaps).
 */
export const ORCA_WHIRLPOOL_FEE_TIER_INDICES: readonly number[] = [1, 2, 4, 8, 16, 64, 96, 128, 256, 32896];
/**
 * The fee tiers a never-seen mint's pools are derived over (against the derived quotes: wSOL, or USDC and USDT for wSOL
 * itself): 1 (0.01%: LSTs and stablecoins against SOL or USDC, e.g. JitoSOL/SOL), 4 (0.05%: majors, SOL/USDC's deepest
 * pool), 64 (0.3%: the standard volatile tier), 128 (1%: memecoins) and 32896 (splash pools, what Orca's token launches
 * create). Each tier is one PDA per quote (~40–80 µs of CPU on a cold
 * mint; all ten tiers cost 1.19 s per 100 mints); pools of the other tiers, of adaptive-fee tiers or of other quotes
 * are found by the first-ask scan (pool-registry/pool-scan.ts) and by the registry from their swaps and creations.
 */
export const ORCA_WHIRLPOOL_DERIVED_FEE_TIERS: readonly number[] = [1, 4, 64, 128, 32896];

export const ORCA_WHIRLPOOL_DISCRIMINATOR = getBase16Encoder().encode("3f95d10ce1806309");
export const ORCA_WHIRLPOOL_SIZE = 653;
export const ORCA_ORACLE_DISCRIMINATOR = getBase16Encoder().encode("8bc283b38cb3e5f4");
export const ORCA_ORACLE_SIZE = 254;
export const ORCA_TICK_ARRAY_DISCRIMINATOR = getBase16Encoder().encode("4561bdbe6e0742bb");
export const ORCA_TICK_ARRAY_SIZE = 9988;
export const ORCA_DYNAMIC_TICK_ARRAY_DISCRIMINATOR = getBase16Encoder().encode("11d8f68ee1c7da38");
/** header (disc 8, start 4, whirlpool 32, bitmap 16) + one tag byte per tick, + 112 data bytes per initialized tick */
export const ORCA_DYNAMIC_TICK_ARRAY_MIN_SIZE = 148;
export const ORCA_DYNAMIC_TICK_ARRAY_MAX_SIZE = 10004;
export const ORCA_TICKS_PER_ARRAY = 88;
/** Offsets a getProgramAccounts scan filters on (memcmp): the pool's two mints. */
export const ORCA_WHIRLPOOL_MINT_A_OFFSET = 101;
export const ORCA_WHIRLPOOL_MINT_B_OFFSET = 181;

export interface OrcaWhirlpool {
  readonly whirlpoolsConfig: Address;
  readonly tickSpacing: number;
  /** the fee-tier index the pool's PDA was seeded with (= tick spacing for classic fee tiers) */
  readonly feeTierIndex: number;
  /** hundredths of a basis point (1e-6) */
  readonly feeRate: number;
  /** basis points of the fee */
  readonly protocolFeeRate: number;
  readonly liquidity: bigint;
  readonly sqrtPrice: bigint;
  readonly tickCurrentIndex: number;
  readonly protocolFeeOwedA: bigint;
  readonly protocolFeeOwedB: bigint;
  readonly mintA: Address;
  readonly vaultA: Address;
  readonly mintB: Address;
  readonly vaultB: Address;
  readonly rewardLastUpdatedTimestamp: bigint;
  readonly rewardMints: readonly [Address, Address, Address];
}

const pk = getAddressDecoder();
const u64 = getU64Decoder();
const u16 = getU16Decoder();

const whirlpoolDecoder = getFieldsDecoder({
  whirlpoolsConfig: [8, pk],
  tickSpacing: [41, u16],
  feeTierIndex: [43, u16],
  feeRate: [45, u16],
  protocolFeeRate: [47, u16],
  liquidity: [49, getU128Decoder()],
  sqrtPrice: [65, getU128Decoder()],
  tickCurrentIndex: [81, getI32Decoder()],
  protocolFeeOwedA: [85, u64],
  protocolFeeOwedB: [93, u64],
  mintA: [ORCA_WHIRLPOOL_MINT_A_OFFSET, pk],
  vaultA: [133, pk],
  mintB: [ORCA_WHIRLPOOL_MINT_B_OFFSET, pk],
  vaultB: [213, pk],
  rewardLastUpdatedTimestamp: [261, u64],
  reward0: [269, pk],
  reward1: [269 + 128, pk],
  reward2: [269 + 256, pk],
});

/** Decodes a Whirlpool. */
export function decodeOrcaWhirlpool(account: AccountBytes): OrcaWhirlpool {
  assertAccountShape(account, { layout: "OrcaWhirlpool", owners: [ORCA_WHIRLPOOL_PROGRAM_ADDRESS], size: ORCA_WHIRLPOOL_SIZE, discriminator: ORCA_WHIRLPOOL_DISCRIMINATOR });
  const { reward0, reward1, reward2, ...pool } = whirlpoolDecoder.decode(account.data);
  return { ...pool, rewardMints: [reward0, reward1, reward2] };
}

/** A pool of an adaptive-fee tier (its fee-tier index differs from its tick spacing): it has an Oracle. */
export function isAdaptiveFeeWhirlpool(pool: OrcaWhirlpool): boolean {
  return pool.feeTierIndex !== pool.tickSpacing;
}

export interface OrcaWhirlpoolOracle {
  readonly whirlpool: Address;
  /** unix seconds before which the program refuses swaps (0 = open from creation) */
  readonly tradeEnableTimestamp: bigint;
  readonly filterPeriod: number;
  readonly decayPeriod: number;
  readonly reductionFactor: number;
  readonly adaptiveFeeControlFactor: number;
  readonly maxVolatilityAccumulator: number;
  readonly tickGroupSize: number;
  readonly majorSwapThresholdTicks: number;
  readonly lastReferenceUpdateTimestamp: bigint;
  readonly lastMajorSwapTimestamp: bigint;
  readonly volatilityReference: number;
  readonly tickGroupIndexReference: number;
  readonly volatilityAccumulator: number;
}

const oracleDecoder = getFieldsDecoder({
  whirlpool: [8, pk],
  tradeEnableTimestamp: [40, u64],
  filterPeriod: [48, u16],
  decayPeriod: [50, u16],
  reductionFactor: [52, u16],
  adaptiveFeeControlFactor: [54, getU32Decoder()],
  maxVolatilityAccumulator: [58, getU32Decoder()],
  tickGroupSize: [62, u16],
  majorSwapThresholdTicks: [64, u16],
  lastReferenceUpdateTimestamp: [82, u64],
  lastMajorSwapTimestamp: [90, u64],
  volatilityReference: [98, getU32Decoder()],
  tickGroupIndexReference: [102, getI32Decoder()],
  volatilityAccumulator: [106, getU32Decoder()],
});

/** Decodes an adaptive-fee pool's Oracle. */
export function decodeOrcaWhirlpoolOracle(account: AccountBytes): OrcaWhirlpoolOracle {
  assertAccountShape(account, { layout: "OrcaWhirlpoolOracle", owners: [ORCA_WHIRLPOOL_PROGRAM_ADDRESS], size: ORCA_ORACLE_SIZE, discriminator: ORCA_ORACLE_DISCRIMINATOR });
  return oracleDecoder.decode(account.data);
}

/** One initialized tick: crossing it upward adds `liquidityNet` to the active liquidity, downward subtracts it. */
export interface OrcaTick {
  readonly index: number;
  readonly liquidityNet: bigint;
  readonly liquidityGross: bigint;
}

export interface OrcaTickArray {
  readonly whirlpool: Address;
  readonly startTickIndex: number;
  /** "fixed" 9,988-byte TickArray or variable-size "dynamic" DynamicTickArray */
  readonly layout: "fixed" | "dynamic";
  /** initialized ticks only, ascending (indices need the pool's tick spacing: see `ticksOfOrcaTickArray`) */
  readonly ticks: readonly { readonly offset: number; readonly liquidityNet: bigint; readonly liquidityGross: bigint }[];
}

const i128 = getI128Decoder();
const u128 = getU128Decoder();
const i32 = getI32Decoder();

/** Decodes a fixed or dynamic tick array (told apart by discriminator); only initialized ticks are kept. */
export function decodeOrcaTickArray(account: AccountBytes): OrcaTickArray {
  const dynamic = ORCA_DYNAMIC_TICK_ARRAY_DISCRIMINATOR.every((byte, i) => account.data[i] === byte);
  if (!dynamic) {
    assertAccountShape(account, { layout: "OrcaTickArray", owners: [ORCA_WHIRLPOOL_PROGRAM_ADDRESS], size: ORCA_TICK_ARRAY_SIZE, discriminator: ORCA_TICK_ARRAY_DISCRIMINATOR });
    const data = account.data;
    const ticks = [];
    for (let offset = 0; offset < ORCA_TICKS_PER_ARRAY; offset++) {
      const at = 12 + offset * 113;
      if (data[at] === 0) continue;
      if (data[at] !== 1) throw new AccountDecodeError("OrcaTickArray", "invalid-tag", `tick ${offset} initialized byte ${data[at]}`);
      ticks.push({ offset, liquidityNet: i128.decode(data, at + 1), liquidityGross: u128.decode(data, at + 17) });
    }
    return { whirlpool: pk.decode(data, 9956), startTickIndex: i32.decode(data, 8), layout: "fixed", ticks };
  }
  assertAccountShape(account, {
    layout: "OrcaDynamicTickArray",
    owners: [ORCA_WHIRLPOOL_PROGRAM_ADDRESS],
    size: [ORCA_DYNAMIC_TICK_ARRAY_MIN_SIZE],
    discriminator: ORCA_DYNAMIC_TICK_ARRAY_DISCRIMINATOR,
  });
  const data = account.data;
  if (data.length > ORCA_DYNAMIC_TICK_ARRAY_MAX_SIZE) throw new AccountDecodeError("OrcaDynamicTickArray", "size", `${data.length} bytes`);
  const bitmap = u128.decode(data, 44);
  const ticks = [];
  let at = 60;
  for (let offset = 0; offset < ORCA_TICKS_PER_ARRAY; offset++) {
    if (at >= data.length) throw new AccountDecodeError("OrcaDynamicTickArray", "truncated", `tick ${offset}`);
    const tag = data[at]!;
    const flagged = ((bitmap >> BigInt(offset)) & 1n) === 1n;
    if (tag > 1 || (tag === 1) !== flagged) throw new AccountDecodeError("OrcaDynamicTickArray", "invalid-tag", `tick ${offset} tag ${tag}`);
    if (tag === 1) {
      if (at + 113 > data.length) throw new AccountDecodeError("OrcaDynamicTickArray", "truncated", `tick ${offset}`);
      ticks.push({ offset, liquidityNet: i128.decode(data, at + 1), liquidityGross: u128.decode(data, at + 17) });
      at += 113;
    } else at += 1;
  }
  return { whirlpool: pk.decode(data, 12), startTickIndex: i32.decode(data, 8), layout: "dynamic", ticks };
}

/** The initialized ticks of an array with their tick indices (start + offset × tick spacing). */
export function ticksOfOrcaTickArray(array: OrcaTickArray, tickSpacing: number): OrcaTick[] {
  return array.ticks.map((t) => ({ index: array.startTickIndex + t.offset * tickSpacing, liquidityNet: t.liquidityNet, liquidityGross: t.liquidityGross }));
}

/** Start tick of the array holding `tick`: floor(tick / (spacing × 88)) × spacing × 88. */
export function orcaTickArrayStartIndex(tick: number, tickSpacing: number): number {
  const span = tickSpacing * ORCA_TICKS_PER_ARRAY;
  return Math.floor(tick / span) * span;
}

/** Pool PDA: ["whirlpool", config, mint_a, mint_b, fee_tier_index u16 LE] with mint_a < mint_b by bytes. */
export function findOrcaWhirlpoolAddress(config: Address, mintX: Address, mintY: Address, feeTierIndex: number): Promise<Address> {
  const [low, high] = sortedMintBytes(mintX, mintY);
  return findPda(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, ["whirlpool", addressBytes(config), low, high, u16Le(feeTierIndex)]);
}

/** Tick array PDA: ["tick_array", whirlpool, start tick index as decimal text]. */
export function findOrcaTickArrayAddress(whirlpool: Address, startTickIndex: number): Promise<Address> {
  return findPda(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, ["tick_array", addressBytes(whirlpool), String(startTickIndex)]);
}

/** Oracle PDA: ["oracle", whirlpool]. */
export function findOrcaOracleAddress(whirlpool: Address): Promise<Address> {
  return findPda(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, ["oracle", addressBytes(whirlpool)]);
}

/** The tick arrays around the pool's price: the current one and `each` on either side (starts clipped to none). */
export async function orcaTickArrayAddressesAround(whirlpool: Address, pool: OrcaWhirlpool, each: number): Promise<{ start: number; address: Address }[]> {
  const span = pool.tickSpacing * ORCA_TICKS_PER_ARRAY;
  const current = orcaTickArrayStartIndex(pool.tickCurrentIndex, pool.tickSpacing);
  const starts = [];
  for (let i = -each; i <= each; i++) {
    const start = current + i * span;
    if (start + span > MIN_TICK && start <= MAX_TICK) starts.push(start);
  }
  return Promise.all(starts.map(async (start) => ({ start, address: await findOrcaTickArrayAddress(whirlpool, start) })));
}

/** Pools of `mint` against each quote mint over the main config's classic fee tiers. */
export async function listOrcaWhirlpoolCandidates(
  mint: Address,
  quoteMints: readonly Address[],
  feeTierIndices: readonly number[] = ORCA_WHIRLPOOL_FEE_TIER_INDICES,
): Promise<VenuePoolCandidate<OrcaWhirlpoolKind>[]> {
  const pending = quoteMints
    .filter((quote) => quote !== mint)
    .flatMap((quoteMint) =>
      feeTierIndices.map(async (index) => ({ pool: await findOrcaWhirlpoolAddress(ORCA_WHIRLPOOLS_CONFIG_ADDRESS, mint, quoteMint, index), kind: ORCA_WHIRLPOOL_KIND, quoteMint })),
    );
  return Promise.all(pending);
}

type Related = "vaultA" | "vaultB";

/**
 * The two vaults. An adaptive-fee pool's Oracle (its trade-enable time) is not stored in the pool: the activation rule
 * derives it (`findOrcaOracleAddress`) and reads it with `orcaWhirlpoolOpensAt`.
 */
export function requiredAccountsForOrcaWhirlpool(pool: OrcaWhirlpool): RelatedAddresses<Related> {
  return { vaultA: pool.vaultA, vaultB: pool.vaultB };
}

/**
 * The Oracle of an adaptive-fee pool: ["oracle", whirlpool], the pool's own address being its PDA ["whirlpool", config,
 * mint_a, mint_b, fee_tier_index] (the program creates every pool there), all read from the pool's bytes. Two PDAs,
 * synchronous (the adapter lists its accounts synchronously), kept per account object read.
 */
const addressesOfAccount = new WeakMap<AccountBytes, { whirlpool: Address; oracle: Address }>();
const pdaSync = (seeds: Seed[]): Address => findProgramAddressSync(ORCA_WHIRLPOOL_PROGRAM_ADDRESS, seeds as (Uint8Array | string)[])[0];
function adaptivePoolAddresses(account: AccountBytes, pool: OrcaWhirlpool): { whirlpool: Address; oracle: Address } {
  let known = addressesOfAccount.get(account);
  if (known === undefined) {
    const [low, high] = sortedMintBytes(pool.mintA, pool.mintB);
    const whirlpool = pdaSync(["whirlpool", addressBytes(pool.whirlpoolsConfig), low, high, u16Le(pool.feeTierIndex)]);
    known = { whirlpool, oracle: pdaSync(["oracle", addressBytes(whirlpool)]) };
    addressesOfAccount.set(account, known);
  }
  return known;
}
export function orcaWhirlpoolOracleAddress(account: AccountBytes, pool: OrcaWhirlpool): Address {
  return adaptivePoolAddresses(account, pool).oracle;
}

/**
 * Price B per A in human units = (sqrt_price / 2^64)^2 × 10^(dec_a − dec_b), exact (whirlpools-core
 * `sqrt_price_to_price`, which rounds it to a float). Reserves = vaults − protocol fees owed (unclaimed LP fees stay
 * inside). A Whirlpool has no status: the trade-enable time is its only gate (`orcaWhirlpoolOpensAt`).
 */
export function priceFromOrcaWhirlpool(
  pool: OrcaWhirlpool,
  related: RelatedAccounts<Related>,
  decimalsOf: DecimalsOf,
): VenuePoolPrice<OrcaWhirlpoolKind> {
  const vaultA = readVaultAmount("OrcaWhirlpool", related.vaultA, pool.mintA);
  const vaultB = readVaultAmount("OrcaWhirlpool", related.vaultB, pool.mintB);
  return {
    kind: ORCA_WHIRLPOOL_KIND,
    baseMint: pool.mintA,
    quoteMint: pool.mintB,
    priceQuotePerBase: sqrtPriceX64Price("OrcaWhirlpool", pool.sqrtPrice, decimalsOf(pool.mintA), decimalsOf(pool.mintB)),
    quoteLiquidity: netOfFees(vaultB, pool.protocolFeeOwedB),
    baseReserve: netOfFees(vaultA, pool.protocolFeeOwedA),
    tradable: true,
    extra: {},
  };
}

/**
 * The activation rule: the unix time from which the program accepts swaps on the pool — the Oracle's
 * `trade_enable_timestamp` on an adaptive-fee pool, none (open) otherwise or when it is 0. Swaps are refused while
 * `now < opensAt` (`is_trade_enabled`).
 */
export function orcaWhirlpoolOpensAt(pool: OrcaWhirlpool, whirlpool: Address, oracle: AccountBytes | undefined): bigint | undefined {
  if (!isAdaptiveFeeWhirlpool(pool) || oracle === undefined) return undefined;
  const decoded = decodeOrcaWhirlpoolOracle(oracle);
  if (decoded.whirlpool !== whirlpool) throw new AccountDecodeError("OrcaWhirlpoolOracle", "mismatch", "oracle of another pool");
  return decoded.tradeEnableTimestamp > 0n ? decoded.tradeEnableTimestamp : undefined;
}

/**
 * The adapter: the pool, then its two vaults — and an adaptive-fee pool's Oracle, read in the same pass so the
 * activation rule (`orcaWhirlpoolActivation`) can tell its trade-enable time. Candidates: the derived quotes over
 * `ORCA_WHIRLPOOL_DERIVED_FEE_TIERS`.
 */
const baseAdapter = defineUnlistedPoolAdapter({
  kind: ORCA_WHIRLPOOL_KIND,
  candidates: (mint) => listOrcaWhirlpoolCandidates(mint, derivedQuoteMints(mint), ORCA_WHIRLPOOL_DERIVED_FEE_TIERS),
  decode: decodeOrcaWhirlpool,
  required: requiredAccountsForOrcaWhirlpool,
  price: (state, _mint, related, decimalsOf) => priceFromOrcaWhirlpool(state, related, decimalsOf),
});

export const orcaWhirlpoolPoolAdapter: typeof baseAdapter = {
  ...baseAdapter,
  evaluate(account, mint, lookup, decimalsOf) {
    const evaluation = baseAdapter.evaluate(account, mint, lookup, decimalsOf);
    const pool = decodeOrcaWhirlpool(account);
    if (!isAdaptiveFeeWhirlpool(pool)) return evaluation;
    const oracle = orcaWhirlpoolOracleAddress(account, pool);
    const related = { ...evaluation.related, oracle };
    if (evaluation.kind === "needs") return { ...evaluation, addresses: lookup(oracle) === undefined ? [...evaluation.addresses, oracle] : evaluation.addresses, related };
    if (lookup(oracle) === undefined) return { kind: "needs", addresses: [oracle], related };
    return { ...evaluation, related };
  },
};

/**
 * The activation rule: an adaptive-fee pool opens at its Oracle's `trade_enable_timestamp` (read beside the pool by the
 * adapter); a classic pool, or an Oracle read and absent, has no gate.
 */
export function orcaWhirlpoolActivation(account: AccountBytes, lookup: AccountLookup): ActivationPoint | undefined {
  const pool = decodeOrcaWhirlpool(account);
  if (!isAdaptiveFeeWhirlpool(pool)) return undefined;
  const { whirlpool, oracle: oracleAddress } = adaptivePoolAddresses(account, pool);
  const oracle = lookup(oracleAddress);
  if (!oracle) return undefined;
  const opensAt = orcaWhirlpoolOpensAt(pool, whirlpool, oracle);
  return opensAt === undefined ? undefined : { unit: "unix-time", opensAt };
}

// ---- tick math and depth ----------------------------------------------------------------------------------------

/** Tick bounds of the program (MIN_TICK_INDEX / MAX_TICK_INDEX). */
export const MIN_TICK = -443636;
export const MAX_TICK = 443636;
const Q64 = 1n << 64n;
const Q128 = 1n << 128n;


/** sqrt(1.0001) in Q128, and its powers 2^i (square-and-multiply table). */
const SQRT_BASE_Q128 = isqrt((10001n << 256n) / 10000n);
const POWERS: bigint[] = [SQRT_BASE_Q128];
for (let i = 1; i < 20; i++) POWERS.push((POWERS[i - 1]! * POWERS[i - 1]!) >> 128n);

/**
 * Q64.64 sqrt price at a tick, sqrt(1.0001^tick) × 2^64, computed in Q128 (relative error below 1e-30 for any tick):
 * the boundaries the depth walk crosses. (The program's own table rounds differently in the last bits; depth does not
 * depend on them.)
 */
export function sqrtPriceAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick ${tick} out of range`);
  let result = Q128;
  let n = Math.abs(tick);
  for (let i = 0; n > 0; i++, n >>= 1) if (n & 1) result = (result * POWERS[i]!) >> 128n;
  if (tick < 0) result = (Q128 * Q128) / result;
  return result >> 64n;
}

/** Liquidity depth of a pool within `bandBps` of its price: what it takes to move the price that far. */
export interface OrcaWhirlpoolDepth {
  /** token B atoms that buy token A up to price × (1 + band) */
  readonly quoteToRaise: bigint;
  /** token A atoms that sell down to price × (1 − band) */
  readonly baseToLower: bigint;
  /** false when the tick arrays given do not cover the whole band: the figures are then lower bounds */
  readonly covered: boolean;
}

/**
 * Walks the pool's liquidity from its sqrt price up to sqrt(price × (1 + band)) and down to sqrt(price × (1 − band)),
 * crossing the initialized ticks of `arrays` (each must be this pool's): the token amounts are the standard
 * concentrated-liquidity deltas, Δb = L·Δ√P / 2^64 and Δa = L·2^64·(1/√P_low − 1/√P_high), rounded down.
 */
export function orcaWhirlpoolDepth(whirlpool: Address, pool: OrcaWhirlpool, arrays: readonly OrcaTickArray[], bandBps: number): OrcaWhirlpoolDepth {
  if (!Number.isInteger(bandBps) || bandBps <= 0 || bandBps >= 10_000) throw new RangeError(`band ${bandBps} bps`);
  const span = pool.tickSpacing * ORCA_TICKS_PER_ARRAY;
  const ticks: OrcaTick[] = [];
  let low = Infinity;
  let high = -Infinity;
  for (const array of arrays) {
    if (array.whirlpool !== whirlpool) throw new AccountDecodeError("OrcaTickArray", "mismatch", "tick array of another pool");
    ticks.push(...ticksOfOrcaTickArray(array, pool.tickSpacing));
    low = Math.min(low, array.startTickIndex);
    high = Math.max(high, array.startTickIndex + span);
  }
  ticks.sort((a, b) => a.index - b.index);
  const start = pool.sqrtPrice;
  const upper = isqrt((start * start * BigInt(10_000 + bandBps)) / 10_000n);
  const lower = isqrt((start * start * BigInt(10_000 - bandBps)) / 10_000n);

  let quoteToRaise = 0n;
  let liquidity = pool.liquidity;
  let sqrt = start;
  for (const tick of ticks) {
    if (tick.index <= pool.tickCurrentIndex) continue;
    const at = sqrtPriceAtTick(tick.index);
    if (at >= upper) break;
    quoteToRaise += (liquidity * (at - sqrt)) / Q64;
    sqrt = at;
    liquidity += tick.liquidityNet;
  }
  quoteToRaise += (liquidity * (upper - sqrt)) / Q64;

  let baseToLower = 0n;
  liquidity = pool.liquidity;
  sqrt = start;
  for (let i = ticks.length - 1; i >= 0; i--) {
    const tick = ticks[i]!;
    if (tick.index > pool.tickCurrentIndex) continue;
    const at = sqrtPriceAtTick(tick.index);
    if (at <= lower) break;
    baseToLower += (liquidity * Q64 * (sqrt - at)) / (sqrt * at);
    sqrt = at;
    liquidity -= tick.liquidityNet;
  }
  baseToLower += (liquidity * Q64 * (sqrt - lower)) / (sqrt * lower);

  const covered = arrays.length > 0 && sqrtPriceAtTick(Math.max(MIN_TICK, low)) <= lower && sqrtPriceAtTick(Math.min(MAX_TICK, high)) >= upper;
  return { quoteToRaise, baseToLower, covered };
}

// ---- instructions and events ------------------------------------------------------------------------------------

/** One pool's part of a Whirlpool swap instruction. */
export interface OrcaWhirlpoolSwapLeg extends VenueSwapReserves<OrcaWhirlpoolKind> {
  /** the signer whose token accounts pay and receive */
  readonly wallet: Address;
  /** the user's token accounts on the pool's A and B sides (a two-hop v2's intermediate side has none) */
  readonly userTokenAccounts: readonly [a: Address | undefined, b: Address | undefined];
  /** the swap sells A for B */
  readonly aToB: boolean;
}

const SWAP = "f8c69e91e17587c8";
const SWAP_V2 = "2b04ed0b1ac91e62";
const TWO_HOP = "c360ed6c44a2dbe6";
const TWO_HOP_V2 = "ba8fd11dfe02c275";
const flag = (data: Uint8Array, offset: number): boolean | undefined => (data[offset] === 1 ? true : data[offset] === 0 ? false : undefined);

/**
 * Every pool leg of a Whirlpool swap instruction (IDL 0.6.1 positions):
 * swap — authority 1, whirlpool 2, owner/vault A 3/4, owner/vault B 5/6 (11 accounts; a_to_b arg @41);
 * swap_v2 — authority 3, whirlpool 4, mint A/B 5/6, owner/vault A 7/8, owner/vault B 9/10 (15; a_to_b @41);
 * two_hop_swap — authority 1, whirlpools 2/3, pool one's owner/vault A/B 4–7, pool two's 8–11 (20; a_to_b_one/two @25/26);
 * two_hop_swap_v2 — whirlpools 0/1, mint input/intermediate/output 2/3/4, owner input 8, vault one input/intermediate
 * 9/10, vault two intermediate/output 11/12, owner output 13, authority 14 (24; a_to_b_one/two @25/26): its vaults are
 * named by direction, put back in each pool's A/B order by the a_to_b flags.
 */
export function orcaWhirlpoolSwapLegs(data: Uint8Array, key: (position: number) => Address | undefined, count: number): OrcaWhirlpoolSwapLeg[] {
  const tag = instructionTag(data);
  const leg = (pool: Address, vaultA: Address, vaultB: Address, mints: readonly [Address | undefined, Address | undefined], wallet: Address, users: readonly [Address | undefined, Address | undefined], aToB: boolean): OrcaWhirlpoolSwapLeg => ({
    kind: ORCA_WHIRLPOOL_KIND,
    pool,
    reserves: [{ account: vaultA, mint: mints[0] }, { account: vaultB, mint: mints[1] }],
    order: "given",
    user: wallet,
    wallet,
    userTokenAccounts: users,
    aToB,
  });
  if ((tag === SWAP && count >= 11) || (tag === SWAP_V2 && count >= 15)) {
    const v2 = tag === SWAP_V2;
    const aToB = flag(data, 41);
    const at = accountsAt(key, v2 ? [3, 4, 7, 8, 9, 10, 5, 6] : [1, 2, 3, 4, 5, 6]);
    if (!at || aToB === undefined) return [];
    const [wallet, pool, ownerA, vaultA, ownerB, vaultB, mintA, mintB] = at as Address[];
    return [leg(pool!, vaultA!, vaultB!, [mintA, mintB], wallet!, [ownerA, ownerB], aToB)];
  }
  if (tag === TWO_HOP && count >= 20) {
    const one = flag(data, 25);
    const two = flag(data, 26);
    const at = accountsAt(key, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    if (!at || one === undefined || two === undefined) return [];
    const [wallet, poolOne, poolTwo, ownerOneA, vaultOneA, ownerOneB, vaultOneB, ownerTwoA, vaultTwoA, ownerTwoB, vaultTwoB] = at as [Address, Address, Address, Address, Address, Address, Address, Address, Address, Address, Address];
    return [
      leg(poolOne, vaultOneA, vaultOneB, [undefined, undefined], wallet, [ownerOneA, ownerOneB], one),
      leg(poolTwo, vaultTwoA, vaultTwoB, [undefined, undefined], wallet, [ownerTwoA, ownerTwoB], two),
    ];
  }
  if (tag === TWO_HOP_V2 && count >= 24) {
    const one = flag(data, 25);
    const two = flag(data, 26);
    const at = accountsAt(key, [0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14]);
    if (!at || one === undefined || two === undefined) return [];
    const [poolOne, poolTwo, mintIn, mintMid, mintOut, ownerIn, vaultOneIn, vaultOneMid, vaultTwoMid, vaultTwoOut, ownerOut, wallet] = at as [Address, Address, Address, Address, Address, Address, Address, Address, Address, Address, Address, Address];
    // pool one: input → intermediate (A → B when a_to_b_one); pool two: intermediate → output
    return [
      one
        ? leg(poolOne, vaultOneIn, vaultOneMid, [mintIn, mintMid], wallet, [ownerIn, undefined], true)
        : leg(poolOne, vaultOneMid, vaultOneIn, [mintMid, mintIn], wallet, [undefined, ownerIn], false),
      two
        ? leg(poolTwo, vaultTwoMid, vaultTwoOut, [mintMid, mintOut], wallet, [undefined, ownerOut], true)
        : leg(poolTwo, vaultTwoOut, vaultTwoMid, [mintOut, mintMid], wallet, [ownerOut, undefined], false),
    ];
  }
  return [];
}

/** The swap-reserves reader shape for single-pool swaps; a two-hop swap has two legs (`orcaWhirlpoolSwapLegs`). */
export function orcaWhirlpoolSwapReserves(data: Uint8Array, key: (position: number) => Address | undefined, count: number): VenueSwapReserves<OrcaWhirlpoolKind> | undefined {
  const legs = orcaWhirlpoolSwapLegs(data, key, count);
  if (legs.length !== 1) return undefined;
  const [only] = legs as [OrcaWhirlpoolSwapLeg];
  return { kind: only.kind, pool: only.pool, reserves: only.reserves, order: only.order, user: only.user };
}

/** A pool seen swapped is registered with its vaults (A, B), which its pricer reads. */
export const orcaWhirlpoolSwappedPool = { reserveRoles: ["vaultA", "vaultB"] as const };

const CREATIONS: ReadonlyMap<string, { min: number; positions: readonly number[] }> = new Map([
  // initialize_pool: config 0, mint A/B 1/2, whirlpool 4, vault A/B 5/6
  ["5fb40aac54aee828", { min: 11, positions: [4, 1, 2, 5, 6] }],
  // initialize_pool_v2: config 0, mint A/B 1/2, whirlpool 6, vault A/B 7/8
  ["cf2d57f21b3fcc43", { min: 14, positions: [6, 1, 2, 7, 8] }],
  // initialize_pool_with_adaptive_fee: config 0, mint A/B 1/2, whirlpool 7, oracle 8, vault A/B 9/10
  ["8f5e604cac7c77c7", { min: 16, positions: [7, 1, 2, 9, 10, 8] }],
]);

/** Pool creations: the pool, its pair (A, B) and its vaults (and an adaptive pool's Oracle). */
export function orcaWhirlpoolPoolLifecycle(data: Uint8Array, key: (position: number) => Address | undefined, count: number): VenuePoolLifecycle<OrcaWhirlpoolKind>[] {
  const creation = CREATIONS.get(instructionTag(data));
  if (!creation || count < creation.min) return [];
  const at = accountsAt(key, creation.positions);
  if (!at) return [];
  const [pool, mintA, mintB, vaultA, vaultB, oracle] = at as [Address, Address, Address, Address, Address, Address | undefined];
  const related: Record<string, Address> = oracle ? { vaultA, vaultB, oracle } : { vaultA, vaultB };
  return [{ type: "create", kind: ORCA_WHIRLPOOL_KIND, pool, mints: [mintA, mintB], related }];
}

/** Traded (log `Program data:`, 121 B): the swap's amounts and prices as the program reports them. */
export interface OrcaWhirlpoolTraded {
  readonly whirlpool: Address;
  readonly aToB: boolean;
  readonly preSqrtPrice: bigint;
  readonly postSqrtPrice: bigint;
  readonly inputAmount: bigint;
  readonly outputAmount: bigint;
  readonly inputTransferFee: bigint;
  readonly outputTransferFee: bigint;
  readonly lpFee: bigint;
  readonly protocolFee: bigint;
}

const TRADED = getBase16Encoder().encode("e1ca49af932ba096");
const tradedDecoder = getFieldsDecoder({
  whirlpool: [8, pk],
  aToB: [40, getU8Decoder()],
  preSqrtPrice: [41, u128],
  postSqrtPrice: [57, u128],
  inputAmount: [73, u64],
  outputAmount: [81, u64],
  inputTransferFee: [89, u64],
  outputTransferFee: [97, u64],
  lpFee: [105, u64],
  protocolFee: [113, u64],
});

/** Decodes a Traded event's bytes (a `Program data:` payload); undefined for any other event. Fields are read by prefix. */
export function decodeOrcaWhirlpoolTraded(bytes: Uint8Array): OrcaWhirlpoolTraded | undefined {
  if (bytes.length < 121 || !TRADED.every((byte, i) => bytes[i] === byte)) return undefined;
  const { aToB, ...rest } = tradedDecoder.decode(bytes);
  if (aToB > 1) return undefined;
  return { ...rest, aToB: aToB === 1 };
}

/** PoolInitialized (log, 220 B): a new pool with its pair, tick spacing, decimals and initial sqrt price. */
export interface OrcaWhirlpoolPoolInitialized {
  readonly whirlpool: Address;
  readonly whirlpoolsConfig: Address;
  readonly mintA: Address;
  readonly mintB: Address;
  readonly tickSpacing: number;
  readonly decimalsA: number;
  readonly decimalsB: number;
  readonly initialSqrtPrice: bigint;
}

const POOL_INITIALIZED = getBase16Encoder().encode("6476ad570cc6fee5");
const poolInitializedDecoder = getFieldsDecoder({
  whirlpool: [8, pk],
  whirlpoolsConfig: [40, pk],
  mintA: [72, pk],
  mintB: [104, pk],
  tickSpacing: [136, u16],
  decimalsA: [202, getU8Decoder()],
  decimalsB: [203, getU8Decoder()],
  initialSqrtPrice: [204, u128],
});

/** Decodes a PoolInitialized event's bytes; undefined for any other event. */
export function decodeOrcaWhirlpoolPoolInitialized(bytes: Uint8Array): OrcaWhirlpoolPoolInitialized | undefined {
  if (bytes.length < 220 || !POOL_INITIALIZED.every((byte, i) => bytes[i] === byte)) return undefined;
  return poolInitializedDecoder.decode(bytes);
}

/** A pool's legs (one, or two for the two-hop swaps), in the listed reader shape. */
function orcaWhirlpoolLegs(data: Uint8Array, key: (position: number) => Address | undefined, count: number): VenueSwapReserves<OrcaWhirlpoolKind>[] {
  return orcaWhirlpoolSwapLegs(data, key, count).map((leg) => ({ kind: leg.kind, pool: leg.pool, reserves: leg.reserves, order: leg.order, user: leg.user }));
}

/**
 * Orca Whirlpool, `dex` "orca-whirlpool": no venue path names it (auto-routing and `poolId` reach it). Its vaults are
 * owned by each pool (an account of the program). Every swap instruction is read through its legs (two-hop swaps swap
 * two pools); adaptive-fee pools open at their Oracle's trade-enable time (`is_trade_enabled`).
 */
export const orcaWhirlpoolVenue = defineVenue({
  kind: ORCA_WHIRLPOOL_KIND,
  dex: ORCA_WHIRLPOOL_KIND,
  venue: null,
  program: ORCA_WHIRLPOOL_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [],
  adapter: orcaWhirlpoolPoolAdapter,
  instructions: {
    swapReserves: orcaWhirlpoolSwapReserves,
    swapLegs: orcaWhirlpoolLegs,
    lifecycle: orcaWhirlpoolPoolLifecycle,
    swappedPool: orcaWhirlpoolSwappedPool,
  },
  activation: orcaWhirlpoolActivation,
});
