/**
 * What the service knows of one venue (one pool kind), in one object: its names, its program and the accounts that hold
 * its liquidity, how to find and price its pools, how to read its instructions, and when a pool starts trading. Each
 * `venues/<kind>.ts` exports one descriptor; venue-list.ts lists them and every map, filter and enum derives from that
 * list (docs/architecture.md, "Adding a pool kind").
 */
import type { Address } from "@solana/kit";
import type { AccountBytes } from "../solana/accounts/account-shape";
import type { AccountLookup, PoolAdapter } from "./pool-adapter";
import type { PoolKind } from "./pool-kind-registry";
import type { PoolGraduationReader, PoolLifecycleReader, SwappedPoolRoles, SwapReserves, SwapReservesReader } from "./types";

/** Every pool leg of one swap instruction, in the order the instruction swaps them ([] for any other instruction). */
export type SwapLegsReader = (data: Uint8Array, key: (position: number) => Address | undefined, count: number) => SwapReserves[];

/** The venue path words of the price API (`/api/v1/price/venue-a/…`); the venue they mean is each descriptor's `venue`. */
export const venueIds = ["venue-a", "venue-b", "venue-c", "venue-d"] as const;
export type VenueId = (typeof venueIds)[number];

/** How a venue's instructions are read by the trade index (trades/swap-extraction.ts), by its program id. */
export interface VenueInstructionReaders {
  /** a swap → its pool, its two reserves and the user the instruction names */
  readonly swapReserves: SwapReservesReader;
  /**
   * For venues with instructions that swap through several of their pools at once (Whirlpool's two-hop swaps): every
   * pool leg of one instruction, each read as its own swap. When present it is read instead of `swapReserves`.
   */
  readonly swapLegs?: SwapLegsReader;
  /** a pool creation or migration → the pool events it stands for */
  readonly lifecycle: PoolLifecycleReader;
  /** for the kinds the pool registry learns from their swaps: what it keeps of a pool seen swapped */
  readonly swappedPool?: SwappedPoolRoles;
  /** read on the venue's own instructions inside each of its swaps (self-CPI events): a curve completed */
  readonly graduation?: PoolGraduationReader;
}

/**
 * When a pool starts accepting swaps, as its program checks it: the first slot, or the first unix second (the Clock
 * sysvar's `unix_timestamp`), at which a swap goes through. Before it the pool is not used for prices.
 */
export interface ActivationPoint {
  readonly unit: "slot" | "unix-time";
  /** the first slot / unix second at which swaps are accepted */
  readonly opensAt: bigint;
}

/**
 * Reads a pool's activation from its account (already decoded once by the venue's adapter, so the bytes are the
 * venue's pool) and, for a venue that keeps the gate beside the pool (Whirlpool's Oracle), from the related accounts
 * its adapter read (`lookup`; `address` is the pool's): undefined when the pool has no gate of that kind (the field
 * unset, or a pool type the program does not gate).
 */
export type ActivationRule = (pool: AccountBytes, lookup: AccountLookup, address: Address) => ActivationPoint | undefined;

/**
 * Meteora's activation fields (DLMM, DAMM v1 bootstrapping, DAMM v2): `activation_type` 0 = slot, 1 = unix time, and
 * swaps are accepted once the current point ≥ `activation_point`.
 */
export function slotOrTimeActivation(activationType: number, activationPoint: bigint): ActivationPoint {
  return { unit: activationType === 0 ? "slot" : "unix-time", opensAt: activationPoint };
}

/** One venue. `K` and `D` stay literal types, so the kind union and the `dex` enum derive from the list. */
export interface VenueDescriptor<K extends PoolKind = PoolKind, D extends string = string> {
  readonly kind: K;
  /** the price record's `dex` word and the overview's liquidity label: an API value, never renamed */
  readonly dex: D;
  /** the price API's venue path that routes to this kind, or null when only auto-routing and `poolId` reach it */
  readonly venue: VenueId | null;
  /** the program that owns the venue's pools */
  readonly program: Address;
  /** program-wide authority PDAs that own the vaults of every pool of the venue (not holders: liquidity) */
  readonly authorities: readonly Address[];
  /** other programs whose accounts hold the venue's liquidity (DAMM v1's shared Meteora vaults) */
  readonly liquidityPrograms: readonly Address[];
  /** how pools are found from a mint, read and priced */
  readonly adapter: PoolAdapter;
  readonly instructions: VenueInstructionReaders;
  /** when a pool starts trading (null: the venue has no activation gate on swaps) */
  readonly activation: ActivationRule | null;
}

/**
 * A venue's descriptor, its kind and dex word kept as literal types. Checks at build time that the adapter and the
 * readers belong to the kind (`adapter.kind`) and, when the list is built, that every field is there.
 */
export function defineVenue<const K extends PoolKind, const D extends string>(descriptor: VenueDescriptor<K, D> & { readonly adapter: PoolAdapter<NoInfer<K>> }): VenueDescriptor<K, D> {
  return descriptor;
}
