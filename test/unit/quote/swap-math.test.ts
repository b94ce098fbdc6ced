import { describe, expect, it } from "vitest";
import {
  ceilDiv,
  deltaAmount0X64,
  deltaAmount1X64,
  nextSqrtFromAmount0X64,
  Q64,
  RAYDIUM_MAX_SQRT_PRICE_X64,
  RAYDIUM_MAX_TICK,
  RAYDIUM_MIN_SQRT_PRICE_X64,
  RAYDIUM_MIN_TICK,
  raydiumSqrtPriceAtTick,
  raydiumTickAtSqrtPrice,
} from "../../../src/quote/swap-math";

describe("Raydium CLMM tick math", () => {
  it("reproduces the program's bounds: MIN/MAX_SQRT_PRICE_X64 are the sqrt prices of MIN/MAX_TICK", () => {
    // Given the program's constants (raydium-clmm tick_math.rs), When the table is applied at the extreme ticks
    // Then it gives exactly those constants (every factor of the table takes part at ±443636)
    expect(raydiumSqrtPriceAtTick(RAYDIUM_MIN_TICK)).toBe(RAYDIUM_MIN_SQRT_PRICE_X64);
    expect(raydiumSqrtPriceAtTick(RAYDIUM_MAX_TICK)).toBe(RAYDIUM_MAX_SQRT_PRICE_X64);
    expect(raydiumSqrtPriceAtTick(0)).toBe(Q64);
  });

  it("stays within one part in 10^10 of √1.0001^tick (float reference) and is monotonic", () => {
    for (const tick of [-200_000, -60_000, -1, 1, 17, 60_000, 200_000]) {
      const exact = Math.sqrt(1.0001 ** tick) * 2 ** 64;
      expect(Math.abs(Number(raydiumSqrtPriceAtTick(tick)) / exact - 1)).toBeLessThan(1e-10);
      expect(raydiumSqrtPriceAtTick(tick + 1)).toBeGreaterThan(raydiumSqrtPriceAtTick(tick));
    }
  });

  it("the tick at a sqrt price is the greatest tick at or below it", () => {
    for (const tick of [-100_000, -7, 0, 5, 99_999]) {
      const sqrt = raydiumSqrtPriceAtTick(tick);
      expect(raydiumTickAtSqrtPrice(sqrt)).toBe(tick);
      expect(raydiumTickAtSqrtPrice(sqrt - 1n)).toBe(tick - 1);
      expect(raydiumTickAtSqrtPrice(sqrt + 1n)).toBe(tick);
    }
  });
});

describe("concentrated-liquidity amounts round as the program does", () => {
  const L = 123_456_789_012_345n;
  const a = raydiumSqrtPriceAtTick(-1000);
  const b = raydiumSqrtPriceAtTick(1000);
  it("rounded-up amounts exceed rounded-down ones by at most one atom", () => {
    for (const [up, down] of [
      [deltaAmount0X64(a, b, L, true), deltaAmount0X64(a, b, L, false)],
      [deltaAmount1X64(a, b, L, true), deltaAmount1X64(a, b, L, false)],
    ]) {
      expect(up! - down!).toBeGreaterThanOrEqual(0n);
      expect(up! - down!).toBeLessThanOrEqual(2n);
    }
  });

  it("token 0 in moves the price down, rounded up: the amount back to the start covers what went in", () => {
    const next = nextSqrtFromAmount0X64(b, L, 1_000_000n);
    expect(next).toBeLessThan(b);
    expect(deltaAmount0X64(next, b, L, true)).toBeLessThanOrEqual(1_000_000n);
    expect(ceilDiv(7n, 2n)).toBe(4n);
    expect(ceilDiv(0n, 5n)).toBe(0n);
  });
});
