/**
 * The swap venues by program id, from the venue list: how each one's swap instructions name a pool, its reserves and
 * its user, which of its instructions create or migrate pools, what the pool registry keeps of a pool seen swapped, and
 * (bonding curves) which event of a swap says its curve completed. The account positions and event layouts live in
 * each venue's file (venues/*.ts, its descriptor's `instructions`); this only indexes them.
 */
import type { VenueInstructionReaders } from "../venues/venue-descriptor";
import { venueList } from "../venues/venue-list";

export type { VenueInstructionReaders } from "../venues/venue-descriptor";

/** Program id → its readers. A transaction that names none of these programs has no swap and no pool event. */
export const venueInstructionReaders: ReadonlyMap<string, VenueInstructionReaders> = new Map<string, VenueInstructionReaders>(
  venueList.map((d) => [d.program, d.instructions]),
);
