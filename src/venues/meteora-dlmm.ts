/**
 * Meteora DLMM (program LBUZKhRx…): liquidity in discrete bins; spot price = (1 + bin_step/10⁴)^active_id
 * Y per X. X/Y are not sorted (the pump token is often X); pair PDAs sort the mints by bytes.
 * Layout: LbPair of lb_clmm 0.12.0 (dlmm-sdk @fb02e51 idls/dlmm.json); limit orders (function_type, collect_fee_mode)
 * do not move the active-bin price.
 */
import { address, getAddressDecoder, getBase16Encoder, getI32Decoder, getU16Decoder, getU64Decoder, getU8Decoder, type Address } from "@solana/kit";
import type { Ratio } from "../math/fixed-point";
import { METEORA_DLMM_PROGRAM_ADDRESS } from "../solana/well-known";
import { assertAccountShape, type AccountBytes } from "../solana/accounts/account-shape";
import { DEFAULT_QUOTE_MINTS, derivedQuoteMints, pairCandidates } from "./candidates";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { getFieldsDecoder } from "../solana/accounts/field-layout";
import { addressBytes, findPda, memoizeByIndex, sortedMintBytes, u16Le } from "./pda";
import { netOfFees, toHumanPrice } from "./pool-price";
import { readVaultAmount } from "../solana/accounts/spl-token";
import type { DecimalsOf, PoolCandidate, PoolPrice, RelatedAccounts, RelatedAddresses, SwappedPoolRoles } from "./types";
import { poolCreationsAt, swapReservesAt } from "./instruction-readers";
import { definePoolAdapter } from "./pool-adapter";
import { defineVenue, slotOrTimeActivation, type ActivationPoint } from "./venue-descriptor";

declare module "./pool-kind-registry" {
  interface PoolKindRegistry {
    "meteora-dlmm": true;
  }
}

export { METEORA_DLMM_PROGRAM_ADDRESS };

export const METEORA_DLMM_PAIR_DISCRIMINATOR = getBase16Encoder().encode("210b3162b565b10d");
export const METEORA_DLMM_PAIR_SIZE = 904;
/** Base key of customizable permissionless pairs (launch pools), a seed instead of a preset. */
const ILM_BASE_KEY = address("MFGQxwAmB91SwuYX36okv2Qmdc9aMuHTwWGUrp4AtB1");

/** A legacy preset: pairs created from it are PDA([min, max, bin_step u16 LE, base_factor u16 LE]). */
export interface DlmmPreset {
  readonly binStep: number;
  readonly baseFactor: number;
}

/**
 * Presets whose pairs are verified on mainnet fixtures. The complete lists live on chain (PresetParameter
 * disc f23ef422b5703aaa, PresetParameter2 disc abec9473a271deae): callers that enumerated them pass their own.
 */
export const METEORA_DLMM_KNOWN_PRESETS: readonly DlmmPreset[] = [{ binStep: 250, baseFactor: 4000 }];
/** PresetParameter2 indices seen on mainnet pairs (B5Eia4cE → 0, ESuD7dd6 → 21, 8ztFxjFP → 71). */
export const METEORA_DLMM_KNOWN_PRESET2_INDICES: readonly number[] = [0, 21, 71];

export interface MeteoraDlmmPair {
  readonly baseFactor: number;
  /** 0 Permissionless, 1 Permission, 2 CustomizablePermissionless, 3 PermissionlessV2 (preset-derived) */
  readonly pairType: number;
  readonly activeId: number;
  readonly binStep: number;
  /** 0 enabled */
  readonly status: number;
  readonly tokenXMint: Address;
  readonly tokenYMint: Address;
  readonly reserveX: Address;
  readonly reserveY: Address;
  readonly protocolFeeX: bigint;
  readonly protocolFeeY: bigint;
  /** 0 slot, 1 unix time: the unit of `activationPoint` */
  readonly activationType: number;
  readonly activationPoint: bigint;
}

const pairDecoder = getFieldsDecoder({
  baseFactor: [8, getU16Decoder()],
  pairType: [75, getU8Decoder()],
  activeId: [76, getI32Decoder()],
  binStep: [80, getU16Decoder()],
  status: [82, getU8Decoder()],
  tokenXMint: [88, getAddressDecoder()],
  tokenYMint: [120, getAddressDecoder()],
  reserveX: [152, getAddressDecoder()],
  reserveY: [184, getAddressDecoder()],
  protocolFeeX: [216, getU64Decoder()],
  protocolFeeY: [224, getU64Decoder()],
  activationType: [86, getU8Decoder()],
  activationPoint: [816, getU64Decoder()],
});

/** Decodes an LbPair. */
export function decodeMeteoraDlmmPair(account: AccountBytes): MeteoraDlmmPair {
  assertAccountShape(account, {
    layout: "MeteoraDlmmPair",
    owners: [METEORA_DLMM_PROGRAM_ADDRESS],
    size: METEORA_DLMM_PAIR_SIZE,
    discriminator: METEORA_DLMM_PAIR_DISCRIMINATOR,
  });
  return pairDecoder.decode(account.data);
}

/** Pair of a legacy preset: PDA([min, max, bin_step u16 LE, base_factor u16 LE]). */
export function findMeteoraDlmmPairAddress(mintA: Address, mintB: Address, preset: DlmmPreset): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DLMM_PROGRAM_ADDRESS, [low, high, u16Le(preset.binStep), u16Le(preset.baseFactor)]);
}

/** PresetParameter2 PDA: ["preset_parameter2", index u16 LE] (memoised). */
export const findMeteoraDlmmPreset2Address = memoizeByIndex((index) =>
  findPda(METEORA_DLMM_PROGRAM_ADDRESS, ["preset_parameter2", u16Le(index)]),
);

/**
 * Pair of a PresetParameter2 (stored as LbPair.base_key at 784 for pair type 3) or, with the ILM base key,
 * a customizable pair: PDA([key, min, max]).
 */
export function findMeteoraDlmmKeyedPairAddress(key: Address, mintA: Address, mintB: Address): Promise<Address> {
  const [low, high] = sortedMintBytes(mintA, mintB);
  return findPda(METEORA_DLMM_PROGRAM_ADDRESS, [addressBytes(key), low, high]);
}

/**
 * Pairs of `mint` against each quote mint: customizable, legacy presets, PresetParameter2 indices.
 * Permission pairs use an arbitrary base key and cannot be derived.
 */
export function listMeteoraDlmmPairCandidates(
  mint: Address,
  quoteMints: readonly Address[] = DEFAULT_QUOTE_MINTS,
  presets: readonly DlmmPreset[] = METEORA_DLMM_KNOWN_PRESETS,
  preset2Indices: readonly number[] = METEORA_DLMM_KNOWN_PRESET2_INDICES,
): Promise<PoolCandidate[]> {
  return pairCandidates("meteora-dlmm", mint, quoteMints, [
    (quoteMint) => findMeteoraDlmmKeyedPairAddress(ILM_BASE_KEY, mint, quoteMint),
    ...presets.map((preset) => (quoteMint: Address) => findMeteoraDlmmPairAddress(mint, quoteMint, preset)),
    ...preset2Indices.map(
      (index) => async (quoteMint: Address) =>
        findMeteoraDlmmKeyedPairAddress(await findMeteoraDlmmPreset2Address(index), mint, quoteMint),
    ),
  ]);
}

const SCALE_BITS = 128n;
const ONE = 1n << SCALE_BITS;

/**
 * (1 + binStep/10⁴)^activeId as a ratio, by square-and-multiply in fixed point with a 2^128 scale
 * (each product truncated to 128 fractional bits). |active_id| ≤ 443,636 makes ≤ 38 truncations and
 * amplifies the base's rounding by at most that exponent: relative error < 1e-32. An exact power would
 * carry thousands of digits (10080^1054 for ESuD7dd6) into every later multiplication.
 */
export function dlmmBinPrice(binStep: number, activeId: number): Ratio {
  let base = ((10_000n + BigInt(binStep)) << SCALE_BITS) / 10_000n;
  let result = ONE;
  for (let exponent = Math.abs(activeId); exponent > 0; exponent >>= 1) {
    if (exponent & 1) result = (result * base) >> SCALE_BITS;
    base = (base * base) >> SCALE_BITS;
  }
  return activeId >= 0 ? { num: result, den: ONE } : { num: ONE, den: result };
}

type Related = "reserveX" | "reserveY";

/** The two reserve token accounts (for depth; the price itself needs only the pair). */
export function requiredAccountsForMeteoraDlmmPair(pair: MeteoraDlmmPair): RelatedAddresses<Related> {
  return { reserveX: pair.reserveX, reserveY: pair.reserveY };
}

/** Price Y per X at the active bin; depth = reserve balances − unclaimed protocol fees. */
export function priceFromMeteoraDlmmPair(
  pair: MeteoraDlmmPair,
  related: RelatedAccounts<Related>,
  decimalsOf: DecimalsOf,
): PoolPrice {
  if (pair.binStep === 0) throw new AccountDecodeError("MeteoraDlmmPair", "value", "zero bin step");
  const reserveX = readVaultAmount("MeteoraDlmmPair", related.reserveX, pair.tokenXMint);
  const reserveY = readVaultAmount("MeteoraDlmmPair", related.reserveY, pair.tokenYMint);
  return {
    kind: "meteora-dlmm",
    baseMint: pair.tokenXMint,
    quoteMint: pair.tokenYMint,
    priceQuotePerBase: toHumanPrice(
      dlmmBinPrice(pair.binStep, pair.activeId),
      decimalsOf(pair.tokenXMint),
      decimalsOf(pair.tokenYMint),
    ),
    quoteLiquidity: netOfFees(reserveY, pair.protocolFeeY),
    baseReserve: netOfFees(reserveX, pair.protocolFeeX),
    tradable: pair.status === 0,
    extra: {},
  };
}

/** Permissionless presets the price service derives (bin step, base factor); not exhaustive — the registry covers the rest. */
export const METEORA_DLMM_DERIVED_PRESETS: readonly DlmmPreset[] = [
  ...METEORA_DLMM_KNOWN_PRESETS,
  { binStep: 10, baseFactor: 10_000 },
  { binStep: 25, baseFactor: 10_000 },
  { binStep: 80, baseFactor: 6_250 },
  { binStep: 100, baseFactor: 10_000 },
];

export const meteoraDlmmPairAdapter = definePoolAdapter({
  kind: "meteora-dlmm",
  candidates: (mint) => listMeteoraDlmmPairCandidates(mint, derivedQuoteMints(mint), METEORA_DLMM_DERIVED_PRESETS),
  decode: decodeMeteoraDlmmPair,
  required: requiredAccountsForMeteoraDlmmPair,
  price: (state, _mint, related, decimalsOf) => priceFromMeteoraDlmmPair(state, related, decimalsOf),
});

/** The pricer and the registry name the pair's reserves by these roles. */
const RESERVE_ROLES = ["reserveX", "reserveY"] as const;
/** DLMM swap, swap2 and their exact-out / price-impact forms. */
const dlmmSwaps = new Set(["f8c69e91e17587c8", "414b3f4ceb5b5b88", "fa49652126cf4bb8", "2bd7f784893cf351", "38ade6d0ade49ccd", "4a62c0d6b1334b33"]);
/**
 * The pair and reserves of swap, swap2, swap_exact_out(2), swap_with_price_impact(2) (dlmm-sdk IDL 0.12.0): lb_pair 0,
 * reserve_x/y 2/3, token_x/y mint 6/7, user 10.
 */
export const meteoraDlmmSwapReserves = swapReservesAt("meteora-dlmm", dlmmSwaps, { pool: 0, vaults: [2, 3], mints: [6, 7], user: 10 }, "given");

/** A DLMM pair seen swapped is registered with its two reserves, which its pricer reads. */
export const meteoraDlmmSwappedPool: SwappedPoolRoles = { reserveRoles: RESERVE_ROLES };

/** Pair initialisations (dlmm-sdk IDL 0.12.0) → first account position of [lb_pair, mint x, mint y, reserve x, reserve y]. */
const dlmmPairCreations = new Map<string, number[]>([
  ["2d9aedd2dd0fa65c", [0, 2, 3, 4, 5]], // initialize_lb_pair
  ["493b2478ed536cc6", [0, 2, 3, 4, 5]], // initialize_lb_pair2
  ["2e2729876fb7c840", [0, 2, 3, 4, 5]], // initialize_customizable_permissionless_lb_pair
  ["f349817e3313f16b", [0, 2, 3, 4, 5]], // initialize_customizable_permissionless_lb_pair2
  ["6c66d555fb033515", [1, 3, 4, 5, 6]], // initialize_permission_lb_pair
]);

/** A pair initialisation → a created pool. */
export const meteoraDlmmPoolLifecycle = poolCreationsAt("meteora-dlmm", dlmmPairCreations, RESERVE_ROLES);

/** Pair types whose swaps wait for the activation point: Permission (1) and CustomizablePermissionless (2). */
const GATED_PAIR_TYPES = new Set([1, 2]);

/**
 * When a pair opens: Permission and CustomizablePermissionless pairs refuse swaps while the current slot (activation
 * type 0) or unix time (1) is below activation_point; the program does not gate other pair types (dlmm-sdk @fb02e51
 * commons/src/quote.rs validate_swap_activation, ts-client isSwapDisabled). A pre-activation swap address may trade
 * earlier; prices follow the public opening.
 */
export function meteoraDlmmActivation(account: AccountBytes): ActivationPoint | undefined {
  const pair = decodeMeteoraDlmmPair(account);
  if (!GATED_PAIR_TYPES.has(pair.pairType)) return undefined;
  return slotOrTimeActivation(pair.activationType, pair.activationPoint);
}

/** Meteora DLMM: venue-c. Reserves are owned by the pair account itself (no program-wide authority). */
export const meteoraDlmmVenue = defineVenue({
  kind: "meteora-dlmm",
  dex: "meteora-dlmm",
  venue: "venue-c",
  program: METEORA_DLMM_PROGRAM_ADDRESS,
  authorities: [],
  liquidityPrograms: [],
  adapter: meteoraDlmmPairAdapter,
  instructions: { swapReserves: meteoraDlmmSwapReserves, lifecycle: meteoraDlmmPoolLifecycle, swappedPool: meteoraDlmmSwappedPool },
  activation: meteoraDlmmActivation,
});
