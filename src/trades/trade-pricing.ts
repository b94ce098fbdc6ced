/**
 * Prices a block's swaps. SOL/USD comes from the block itself: the volume-weighted median price of its SOL/USDC and
 * SOL/USDT swaps (a dust pool quoting a silly price cannot move a weighted median), else the last block's value. Never a
 * constant: with no SOL/stable swap seen yet, the caller passes the live SOL/USD of the pricing service.
 */
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import type { PoolSwap, Trade } from "./trade";

const isStable = (mint: string) => mint === USDC_MINT || mint === USDT_MINT;

/** Human units of a raw amount, as a float (prices and USD values are floats; amounts stay exact elsewhere). */
export function uiAmount(raw: bigint, decimals: number): number {
  return Number(raw) / 10 ** decimals;
}

/** Quote per base in human units. */
export function priceInQuote(swap: PoolSwap): number {
  return uiAmount(swap.quoteAmount, swap.quoteDecimals) / uiAmount(swap.baseAmount, swap.baseDecimals);
}

/** SOL/USD of a block: weighted median of its SOL/stable swap prices (weights: USD value), or `previous` without any. */
export function blockSolUsd(swaps: readonly PoolSwap[], previous: number | null): number | null {
  const points: { price: number; weight: number }[] = [];
  for (const s of swaps) {
    if (s.baseMint !== WSOL_MINT || !isStable(s.quoteMint)) continue;
    const price = priceInQuote(s);
    if (Number.isFinite(price) && price > 0) points.push({ price, weight: uiAmount(s.quoteAmount, s.quoteDecimals) });
  }
  if (points.length === 0) return previous;
  points.sort((a, b) => a.price - b.price);
  const half = points.reduce((a, p) => a + p.weight, 0) / 2;
  let seen = 0;
  for (const p of points) {
    seen += p.weight;
    if (seen >= half) return p.price;
  }
  return points[points.length - 1]!.price;
}

/**
 * USD per quote unit: USDC and USDT 1 by definition, wSOL the block's SOL/USD, any other quote token (an LST, USD1, a
 * memecoin) its own USD price as the price service finds it (`quoteUsdOf`: the stake pool's rate or the token's deepest
 * pool, one hop), else unknown.
 */
function quoteUsd(quoteMint: string, solUsd: number | null, quoteUsdOf: QuoteUsdOf): number | null {
  if (isStable(quoteMint)) return 1;
  if (quoteMint === WSOL_MINT) return solUsd;
  return quoteUsdOf(quoteMint);
}

/** USD per unit of a quote token that is neither SOL nor a dollar stable; null when it has no price. */
export type QuoteUsdOf = (quoteMint: string) => number | null;
const noQuotePrices: QuoteUsdOf = () => null;

/** The swap with its prices in quote, SOL and USD and its USD value (null where the quote has no USD price). */
export function priceSwap(swap: PoolSwap, solUsd: number | null, quoteUsdOf: QuoteUsdOf = noQuotePrices): Trade {
  const priceQuote = priceInQuote(swap);
  const usdPerQuote = quoteUsd(swap.quoteMint, solUsd, quoteUsdOf);
  const priceUsd = usdPerQuote === null ? null : priceQuote * usdPerQuote;
  const priceSol = swap.quoteMint === WSOL_MINT ? priceQuote : priceUsd !== null && solUsd ? priceUsd / solUsd : null;
  const valueUsd = usdPerQuote === null ? null : uiAmount(swap.quoteAmount, swap.quoteDecimals) * usdPerQuote;
  return { ...swap, priceQuote, priceSol, priceUsd, valueUsd };
}

/** Quote tokens of `trades` that have no USD price yet (neither SOL nor a dollar stable), once each. */
export function unpricedQuotes(trades: readonly Trade[]): string[] {
  return [...new Set(trades.filter((t) => t.priceUsd === null && t.quoteMint !== WSOL_MINT && !isStable(t.quoteMint)).map((t) => t.quoteMint))];
}

/** `trades` with the ones quoted in a token of `usdOf` valued through that token's USD price (the others as they are). */
export function valueThroughQuotes(trades: readonly Trade[], solUsd: number | null, usdOf: ReadonlyMap<string, number>): Trade[] {
  if (usdOf.size === 0) return [...trades];
  return trades.map((t) => (t.priceUsd === null && usdOf.has(t.quoteMint) ? priceSwap(t, solUsd, (m) => usdOf.get(m) ?? null) : t));
}
