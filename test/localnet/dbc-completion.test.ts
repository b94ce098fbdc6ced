/**
 * localnet never trades a DBC pool the program would call complete: the program's test is the quote reserve reaching
 * the config's migration_quote_threshold (is_curve_complete), and rounding in the curve math lets the reserve get there
 * a few atoms before sqrt_price reaches the migration price. A world pool that did so kept trading here while the
 * service, reading the same bytes, rightly called it complete.
 */
import { describe, expect, it } from "vitest";
import { createWorld } from "../../localnet/src/world/index.js";
import { simulateSwap } from "../../localnet/src/world/swap-simulation.js";
import type { WorldState } from "../../localnet/src/world/world-state.js";

describe("DBC curves in localnet's life", () => {
  it("a buy that would bring the quote reserve to the migration threshold is not made, even below the migration price", () => {
    // Given a live curve 1% of its sqrt range below the migration price
    const state = (createWorld({ seed: 7, metadataBaseUrl: "http://127.0.0.1:1" }) as unknown as { state: WorldState }).state;
    const pool = [...state.dbc.pools.values()].find((p) => !p.isMigrated && !p.configState.scheduler)!;
    expect(pool).toBeDefined();
    const c = pool.configState;
    pool.sqrtPrice = c.sqrtMigration - (c.sqrtMigration - c.sqrtStart) / 100n;
    const buy = c.migrationQuoteThreshold / 10_000n; // moves the price ~0.01 % of the range: far from the migration price

    // When its quote reserve is well below the threshold, the buy is made
    pool.quoteReserve = c.migrationQuoteThreshold - 100n * buy;
    const made = simulateSwap(state, pool.address, "buy", buy);
    expect(typeof made === "string" ? made : "made").toBe("made");

    // And when the reserve is within the buy of the threshold (rounding put it there), it is not
    pool.quoteReserve = c.migrationQuoteThreshold - buy / 2n;
    expect(simulateSwap(state, pool.address, "buy", buy)).toBeTypeOf("string");
    // (sells stay open: they take the reserve away from the threshold)
    expect(typeof simulateSwap(state, pool.address, "sell", 1_000_000n)).toBe("object");
  });
});
