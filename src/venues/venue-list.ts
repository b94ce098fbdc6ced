/**
 * The one list of venues. Every pool kind's descriptor is here, once; the kind union's coverage, the `dex` enum, the
 * venue-path filters, the adapters the price service tries, the trade index's instruction readers and the overview's
 * liquidity owners all derive from it (pool-kinds.ts). The order is the order of the API's `dex` enum: append.
 *
 * Adding a pool kind = its `venues/<kind>.ts` (declaring its kind, exporting its descriptor) + one line here; the
 * compiler refuses a declared kind that is not listed, a descriptor that lacks a field, or a listed kind twice.
 */
import type { Address } from "@solana/kit";
import { meteoraDammV1Venue } from "./meteora-damm-v1";
import { meteoraDammV2Venue } from "./meteora-damm-v2";
import { meteoraDbcVenue } from "./meteora-dbc";
import { meteoraDlmmVenue } from "./meteora-dlmm";
import { orcaWhirlpoolVenue } from "./orca-whirlpool";
import type { PoolKind } from "./pool-kind-registry";
import { pumpBondingCurveVenue } from "./pump-bonding-curve";
import { pumpSwapVenue } from "./pumpswap-pool";
import { raydiumAmmV4Venue } from "./raydium-amm-v4";
import { raydiumClmmVenue } from "./raydium-clmm";
import { raydiumCpmmVenue } from "./raydium-cpmm";
import { raydiumLaunchLabVenue } from "./raydium-launchlab";
import type { VenueDescriptor } from "./venue-descriptor";

export const venueList = [
  pumpBondingCurveVenue,
  pumpSwapVenue,
  raydiumAmmV4Venue,
  raydiumCpmmVenue,
  raydiumClmmVenue,
  meteoraDlmmVenue,
  meteoraDammV1Venue,
  meteoraDammV2Venue,
  meteoraDbcVenue,
  raydiumLaunchLabVenue,
  orcaWhirlpoolVenue,
] as const satisfies readonly VenueDescriptor[];

type Listed = (typeof venueList)[number];
/** Kinds a venue file declares but the list lacks: must be none (the error names them). */
type Unlisted = Exclude<PoolKind, Listed["kind"]>;
/** Kinds listed more than once: must be none. */
type ListedTwice<T extends readonly { kind: string }[], Seen extends string = never> = T extends readonly [infer H extends { kind: string }, ...infer R extends readonly { kind: string }[]]
  ? (H["kind"] extends Seen ? H["kind"] : never) | ListedTwice<R, Seen | H["kind"]>
  : never;
type Twice = ListedTwice<typeof venueList>;
/** Compile-time check: this line fails to type-check, naming the kinds, when a declared kind is unlisted or listed twice. */
export const everyKindListedOnce: [Unlisted, Twice] extends [never, never] ? true : { unlisted: Unlisted; twice: Twice } = true;

/**
 * Venues whose accounts own liquidity but whose pools are not priced yet (so holder lists leave them out): a venue moves
 * from here to `venueList` when its descriptor is written. The authority owns every pool's vaults; the program's own
 * accounts own theirs. None today.
 */
export const liquidityOnlyVenues: readonly { readonly name: never; readonly program: Address; readonly authorities: readonly Address[] }[] = [];
