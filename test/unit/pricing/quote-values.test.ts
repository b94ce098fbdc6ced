import { address, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { compare, div, mul, ratio, type Ratio } from "../../../src/math/fixed-point";
import { pickBest } from "../../../src/pricing/pool-choice";
import type { Priced } from "../../../src/pricing/pool-evaluation";
import { directQuoteValue, hopQuotesOf, quoteValueOf, type QuoteHop } from "../../../src/pricing/quote-values";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import { adapterByKind } from "../../../src/venues/pool-adapters";
import type { AccountLookup } from "../../../src/venues/pool-adapter";
import type { PoolPrice } from "../../../src/venues/types";
import { loadAccountFixture } from "../../helpers/fixtures";

const TOKEN = address("7uUTzNs4UFgarqY6TyRnW3ZnMFpcsw1iookL8R5KCGwA");
const MEME = address("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");
const USD1 = address("USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB");
const JITOSOL = address("J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn");
const JITO_POOL = address("Jito4APyf642JPZPx3hGc6WWJ8zPKtRbRs4P815Awbb");
const jitoPool = loadAccountFixture("spl-stake-pool/stake_pool_Jito4APy_jitosol.json");
const solUsd = ratio(15_012_345_678n, 100_000_000n); // 150.12345678 $/SOL
const cpmm = adapterByKind.get("raydium-cpmm")!;
let poolSeq = 0;
const poolAddress = () => address(["9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", "HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur", "8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC", "EtAdVRLFH22rjWh3mcUasKFF27WtHhsaCvK27tPFFWig"][poolSeq++ % 4]!);

/** A priced pool of TOKEN (6 decimals) quoted in `quote`: `price` quote units per token, `quoteAtoms` of quote depth. */
function pool(quote: Address, price: Ratio, quoteAtoms: bigint, quoteDecimals: number, base = TOKEN): Priced {
  const p: PoolPrice = { kind: "raydium-cpmm", baseMint: base, quoteMint: quote, priceQuotePerBase: price, quoteLiquidity: quoteAtoms, baseReserve: 1_000_000_000_000n, tradable: true, extra: {} };
  return { adapter: cpmm, pool: poolAddress(), price: p, quoteDecimals };
}
const lookupOf = (accounts: Record<string, typeof jitoPool>): AccountLookup => (a) => accounts[a];
const eq = (a: Ratio, b: Ratio) => compare(a, b) === 0;

describe("quote values: SOL, the dollar stables, stake-pool LSTs", () => {
  const direct = directQuoteValue(solUsd, "pyth", lookupOf({ [JITO_POOL]: jitoPool }));

  it("SOL is SOL/USD (with its source), USDC and USDT are $1 by definition, every other stablecoin is not", () => {
    expect(direct(WSOL_MINT)).toEqual({ usd: solUsd, source: "sol-usd:pyth" });
    expect(direct(USDC_MINT)).toEqual({ usd: ratio(1n), source: "fixed-usd" });
    expect(direct(USDT_MINT)).toEqual({ usd: ratio(1n), source: "fixed-usd" });
    expect(typeof direct(USD1)).toBe("string");
  });

  it("JitoSOL is its stake pool's rate × SOL/USD, named by the stake pool", () => {
    const v = direct(JITOSOL);
    if (typeof v === "string") throw new Error(v);
    expect(v.source).toBe(`stake-pool:${JITO_POOL}`);
    expect(eq(v.usd, mul(ratio(6_639_028_734_407_647n, 6_189_948_258_688_516n), solUsd))).toBe(true);
  });

  it("an LST whose stake pool was not read (or not readable) needs a hop instead", () => {
    const unread = directQuoteValue(solUsd, "pyth", () => undefined);
    expect(unread(JITOSOL)).toMatch(/stake pool Jito4APy.* was not read/);
    expect(hopQuotesOf([pool(JITOSOL, ratio(1n), 1n, 9)], unread)).toEqual([JITOSOL]);
    expect(hopQuotesOf([pool(JITOSOL, ratio(1n), 1n, 9)], direct)).toEqual([]);
  });
});

describe("pricing through a quote token: one hop, cycles refused", () => {
  const direct = directQuoteValue(solUsd, "pool", lookupOf({ [JITO_POOL]: jitoPool }));
  const memeUsd = ratio(123n, 1_000_000n); // $0.000123 per MEME, from MEME's own SOL pool
  const memePool = address("GUXAutvXh2Cvv2avGkbY8CfcsN9v2Uiwr8VCCqpn9HiU");

  it("a memecoin-quoted pool is priced at the memecoin's own USD price, and says which pool gave it", () => {
    const hops = new Map<Address, QuoteHop>([[MEME, { usd: memeUsd, source: `pool:${memePool}` }]]);
    const p = pool(MEME, ratio(2_500n), 40_000_000_000_000n, 6); // 2,500 MEME per TOKEN
    const { best } = pickBest([p], solUsd, 6, false, quoteValueOf(TOKEN, direct, hops));
    expect(best?.quoteSource).toBe(`pool:${memePool}`);
    expect(eq(best!.priceUsd, mul(ratio(2_500n), memeUsd))).toBe(true);
    expect(eq(best!.priceSol, div(mul(ratio(2_500n), memeUsd), solUsd))).toBe(true);
  });

  it("routes by USD depth in the quote's own decimals and value: a deep JitoSOL pool beats a shallow SOL pool", () => {
    // 100 SOL of depth (9 dp) against 5,000 JitoSOL (9 dp) ≈ 5,362 SOL of depth
    const sol = pool(WSOL_MINT, ratio(1n, 1000n), 100_000_000_000n, 9);
    const jito = pool(JITOSOL, ratio(1n, 1070n), 5_000_000_000_000n, 9);
    const { best } = pickBest([sol, jito], solUsd, 6, false, quoteValueOf(TOKEN, direct, new Map()));
    expect(best?.pool).toBe(jito.pool);
    expect(best?.quoteSource).toBe(`stake-pool:${JITO_POOL}`);
    // and a USD1 pool is valued by USD1's own price (here $0.9998), not at $1
    const usd1 = pool(USD1, ratio(3n, 2n), 10_000_000_000n, 6);
    const hops = new Map<Address, QuoteHop>([[USD1, { usd: ratio(9_998n, 10_000n), source: `pool:${memePool}` }]]);
    const r = pickBest([usd1], solUsd, 6, false, quoteValueOf(TOKEN, direct, hops));
    expect(eq(r.best!.priceUsd, ratio(3n * 9_998n, 2n * 10_000n))).toBe(true);
  });

  it("refuses a cycle with a clear reason: the quote token trades only against the token asked", () => {
    // MEME's own pools are all quoted in TOKEN: its hop found no price and lists TOKEN among its quotes
    const hops = new Map<Address, QuoteHop>([[MEME, { reason: "pool X (raydium-cpmm) quotes MEME in TOKEN: one hop only", quotedIn: [TOKEN] }]]);
    const { best, refusals } = pickBest([pool(MEME, ratio(2n), 1_000_000_000n, 6)], solUsd, 6, false, quoteValueOf(TOKEN, direct, hops));
    expect(best).toBeUndefined();
    expect(refusals[0]).toMatch(new RegExp(`quotes ${TOKEN} in ${MEME}: ${MEME} trades only against ${TOKEN} itself .*\\(a cycle\\).*refused`));
  });

  it("inside a hop nothing further is followed, and a quote left out by the hop budget says so", () => {
    const insideHop = quoteValueOf(MEME, direct, undefined);
    expect(insideHop(USD1)).toMatch(/followed one hop only/);
    expect(insideHop(JITOSOL)).toMatchObject({ source: `stake-pool:${JITO_POOL}` }); // a rate is not a hop
    expect(quoteValueOf(TOKEN, direct, new Map())(USD1)).toMatch(/more than 16 quote tokens in one request/);
  });

  it("SOL itself is priced only against USDC and USDT: through an LST or a SOL-priced token it would be circular", () => {
    const forSol = quoteValueOf(WSOL_MINT, direct, new Map());
    expect(forSol(USDC_MINT)).toMatchObject({ source: "fixed-usd" });
    expect(forSol(JITOSOL)).toBe("SOL is priced only against USDC and USDT");
    expect(forSol(USD1)).toBe("SOL is priced only against USDC and USDT");
  });
});
