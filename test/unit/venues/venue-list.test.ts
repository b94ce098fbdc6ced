/**
 * The venue list is the one place a pool kind is written down: every descriptor is complete, and every map, enum and
 * filter built from the list carries every kind. The compiler checks the same at build time (venue-list.ts
 * `everyKindListedOnce`, `defineVenue`'s type); this file type-checks under `tsc -p localnet/tsconfig.json`, so the
 * `@ts-expect-error` lines below fail the build if an incomplete descriptor ever compiles.
 */
import { describe, expect, it } from "vitest";
import { poolSwapSchema } from "../../../src/trades/trade";
import { venueInstructionReaders } from "../../../src/trades/pool-legs";
import { VENUE_AUTHORITIES, VENUE_PROGRAMS } from "../../../src/overview/liquidity-owners";
import { adapterByKind, poolAdapters } from "../../../src/venues/pool-adapters";
import {
  descriptorOfKind,
  descriptorsFor,
  dexNames,
  dexOfPoolKind,
  liquidityAuthorities,
  liquidityPrograms,
  venueIds,
  venueOfKind,
  type PoolKind,
} from "../../../src/venues/pool-kinds";
import { defineVenue, type VenueDescriptor } from "../../../src/venues/venue-descriptor";
import { everyKindListedOnce, liquidityOnlyVenues, venueList } from "../../../src/venues/venue-list";
import { raydiumCpmmVenue } from "../../../src/venues/raydium-cpmm";

/** Every field a descriptor must carry (`activation` may be null: "no gate", said explicitly). */
const FIELDS: readonly (keyof VenueDescriptor)[] = ["kind", "dex", "venue", "program", "authorities", "liquidityPrograms", "adapter", "instructions", "activation"];

describe("the venue list", () => {
  it("passes the compiler's check: every declared kind listed, none twice", () => {
    expect(everyKindListedOnce).toBe(true);
  });

  it("every descriptor carries every field, its adapter and readers are its own", () => {
    for (const d of venueList) {
      for (const field of FIELDS) expect(d[field], `${d.kind}.${field}`).not.toBeUndefined();
      expect(d.adapter.kind, d.kind).toBe(d.kind);
      expect(typeof d.instructions.swapReserves, d.kind).toBe("function");
      expect(typeof d.instructions.lifecycle, d.kind).toBe("function");
      expect(d.activation === null || typeof d.activation === "function", d.kind).toBe(true);
      expect(d.venue === null || (venueIds as readonly string[]).includes(d.venue), d.kind).toBe(true);
    }
  });

  it("every kind is in every derived map, enum and filter", () => {
    const kinds = venueList.map((d) => d.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(Object.keys(descriptorOfKind).sort()).toEqual([...kinds].sort());
    expect(Object.keys(dexOfPoolKind).sort()).toEqual([...kinds].sort());
    expect(Object.keys(venueOfKind).sort()).toEqual([...kinds].sort());
    expect(poolAdapters.map((a) => a.kind)).toEqual(kinds);
    expect(poolSwapSchema.shape.kind.options).toEqual(kinds);
    for (const d of venueList) {
      const kind: PoolKind = d.kind;
      expect(descriptorOfKind[kind]).toBe(d);
      expect(dexOfPoolKind[kind]).toBe(d.dex);
      expect(dexNames).toContain(d.dex);
      expect(adapterByKind.get(kind)).toBe(d.adapter);
      expect(venueInstructionReaders.get(d.program)).toBe(d.instructions);
      expect(VENUE_PROGRAMS.get(d.program)).toBe(d.dex);
      for (const p of d.liquidityPrograms) expect(VENUE_PROGRAMS.get(p)).toBe(d.dex);
      for (const a of d.authorities) expect(VENUE_AUTHORITIES.get(a)).toBe(d.dex);
      expect(descriptorsFor(undefined)).toContain(d);
      if (d.venue) expect(descriptorsFor(d.venue)).toContain(d);
    }
  });

  it("dex words are unique, every venue path routes somewhere, and no program or authority belongs to two venues", () => {
    expect(new Set(dexNames).size).toBe(dexNames.length);
    for (const venue of venueIds) expect(descriptorsFor(venue).length, venue).toBeGreaterThan(0);
    const programs = [...venueList.flatMap((d) => [d.program, ...d.liquidityPrograms]), ...liquidityOnlyVenues.map((v) => v.program)];
    const authorities = [...venueList.flatMap((d) => d.authorities), ...liquidityOnlyVenues.flatMap((v) => v.authorities)];
    expect(new Set(programs).size).toBe(programs.length);
    expect(new Set(authorities).size).toBe(authorities.length);
    expect(liquidityPrograms.size).toBe(programs.length);
    expect(liquidityAuthorities.size).toBe(authorities.length);
  });

  it("a descriptor lacking a field, or an adapter of another kind, does not compile", () => {
    const { activation: _activation, ...withoutActivation } = raydiumCpmmVenue;
    // @ts-expect-error the activation rule is required (null says "no gate")
    expect(() => defineVenue(withoutActivation)).not.toThrow();
    const otherAdapter = { ...raydiumCpmmVenue, adapter: descriptorOfKind["raydium-clmm"].adapter };
    // @ts-expect-error a CLMM adapter in the CPMM descriptor
    expect(() => defineVenue(otherAdapter)).not.toThrow();
  });
});
