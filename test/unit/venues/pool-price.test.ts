import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { ratio } from "../../../src/math/fixed-point";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import { invertPoolPrice, netOfFees, priceOfMint, reservePrice, sqrtPriceX64Price } from "../../../src/venues/pool-price";
import type { PoolPrice } from "../../../src/venues/types";

const solUsdc: PoolPrice = {
  kind: "raydium-clmm",
  baseMint: WSOL_MINT,
  quoteMint: USDC_MINT,
  priceQuotePerBase: ratio(16751519922n, 100000000n),
  quoteLiquidity: 5n,
  baseReserve: 7n,
  tradable: true,
  extra: {},
};

describe("pool price orientation", () => {
  it("inverts price and swaps the reserves", () => {
    expect(invertPoolPrice(solUsdc)).toEqual({
      ...solUsdc,
      baseMint: USDC_MINT,
      quoteMint: WSOL_MINT,
      priceQuotePerBase: { num: 100000000n, den: 16751519922n },
      quoteLiquidity: 7n,
      baseReserve: 5n,
    });
  });

  it("orients a pool so the asked mint is the base, and refuses a mint the pool does not trade", () => {
    expect(priceOfMint(solUsdc, WSOL_MINT)).toBe(solUsdc);
    expect(priceOfMint(solUsdc, USDC_MINT).baseMint).toBe(USDC_MINT);
    expect(() => priceOfMint(solUsdc, address("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"))).toThrow(/mismatch/);
  });
});

describe("price helpers", () => {
  it("applies decimals as 10^(base − quote) and refuses empty reserves or a zero sqrt price", () => {
    expect(reservePrice("T", 2_000_000_000n, 300_000_000n, 9, 6)).toEqual({ num: 300_000_000_000n, den: 2_000_000_000n });
    expect(() => reservePrice("T", 0n, 1n, 9, 6)).toThrow(/value/);
    expect(sqrtPriceX64Price("T", 1n << 64n, 6, 6)).toEqual({ num: 1n << 128n, den: 1n << 128n });
    expect(() => sqrtPriceX64Price("T", 0n, 6, 6)).toThrow(/value/);
  });

  it("nets fee buckets out of a vault, never below zero", () => {
    expect(netOfFees(100n, 10n, 5n)).toBe(85n);
    expect(netOfFees(10n, 11n)).toBe(0n);
  });
});
