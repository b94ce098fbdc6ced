/**
 * Everything that derives from the venue list (venue-list.ts): the `dex` words and enum, each kind's descriptor,
 * the kinds a venue path routes to, and the venues liquidity owners are labelled with. Nothing here is written by
 * hand per venue.
 */
import type { Address } from "@solana/kit";
import type { PoolKind } from "./pool-kind-registry";
import type { VenueDescriptor, VenueId } from "./venue-descriptor";
import { liquidityOnlyVenues, venueList } from "./venue-list";

export type { PoolKind } from "./pool-kind-registry";
export { venueIds, type VenueId } from "./venue-descriptor";

type Listed = (typeof venueList)[number];
/** `dex` values: the venue and pool kind, precisely. */
export type DexName = Listed["dex"];
/** The descriptor of kind `K`, with its literal `dex`. */
export type DescriptorOf<K extends PoolKind> = Extract<Listed, { kind: K }>;

/** Kind → descriptor, for every kind (the list covers every declared kind: venue-list.ts). */
export const descriptorOfKind = Object.fromEntries(venueList.map((d) => [d.kind, d])) as { readonly [K in PoolKind]: DescriptorOf<K> };

/** Pool kind → its `dex` word. */
export const dexOfPoolKind = Object.fromEntries(venueList.map((d) => [d.kind, d.dex])) as { readonly [K in PoolKind]: DescriptorOf<K>["dex"] };

/** `dex` values in the API enum's order. */
export const dexNames = venueList.map((d) => d.dex) as [DexName, ...DexName[]];

/** Pool kind → the venue path that routes to it (null: auto-routing and `poolId` only). */
export const venueOfKind = Object.fromEntries(venueList.map((d) => [d.kind, d.venue])) as { readonly [K in PoolKind]: VenueId | null };

/** The descriptors a venue path routes to (every venue for auto-routing). */
export function descriptorsFor(venue: VenueId | undefined): readonly VenueDescriptor[] {
  return venue ? venueList.filter((d) => d.venue === venue) : venueList;
}

/** Venue names shown beside liquidity owners: the `dex` words, plus venues whose pools own tokens but are not priced. */
export type LiquidityVenue = DexName | (typeof liquidityOnlyVenues)[number]["name"];

/** Program-wide authority PDAs that own the vaults of every pool of their venue. */
export const liquidityAuthorities: ReadonlyMap<Address, LiquidityVenue> = new Map<Address, LiquidityVenue>([
  ...venueList.flatMap((d) => d.authorities.map((a): [Address, LiquidityVenue] => [a, d.dex])),
  ...liquidityOnlyVenues.flatMap((v) => v.authorities.map((a): [Address, LiquidityVenue] => [a, v.name])),
]);

/** Programs whose accounts (pools, curves, shared vaults) own liquidity vaults. */
export const liquidityPrograms: ReadonlyMap<Address, LiquidityVenue> = new Map<Address, LiquidityVenue>([
  ...venueList.flatMap((d) => [d.program, ...d.liquidityPrograms].map((p): [Address, LiquidityVenue] => [p, d.dex])),
  ...liquidityOnlyVenues.map((v): [Address, LiquidityVenue] => [v.program, v.name]),
]);
