/**
 * What one unit of a pool's quote token is worth in USD. SOL comes from SOL/USD, USDC and USDT are $1 by definition, a
 * stake-pool LST (JitoSOL, mSOL, bSOL) is its stake pool's exchange rate × SOL/USD (the stake-pool account is read with
 * the pool), and any other token — USD1, PYUSD and other stablecoins included — is priced like any token: through its
 * own deepest SOL-, USD- or LST-quoted pool. That is one hop and never more: a quote token's pools quoted in yet another
 * token are not followed, so no price depends on a chain of tokens, and a token priced only against the token being
 * asked about (a cycle) is refused with that reason.
 */
import type { Address } from "@solana/kit";
import { ADDRESS_BYTES, BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import { mul, type Ratio } from "../math/fixed-point";
import type { AccountLookup } from "../venues/pool-adapter";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import { lstSolRate, STAKE_POOL_LSTS } from "../venues/stake-pool-price";
import { baseQuoteValue, type QuoteValue, type QuoteValueOf } from "./pool-choice";
import type { Priced } from "./pool-evaluation";

/** A quote token's USD value through its own pools, or why it has none and which tokens its passed-over pools quote it in. */
export type QuoteHop = QuoteValue | { reason: string; quotedIn: Address[] };

const isValue = (v: QuoteValue | string | QuoteHop | undefined): v is QuoteValue => typeof v === "object" && "usd" in v;

/** SOL, USDC, USDT and the stake-pool LSTs: valued without any other pool. */
export function directQuoteValue(solUsd: Ratio, solSource: "pyth" | "pool", lookup: AccountLookup): QuoteValueOf {
  const base = baseQuoteValue(solUsd, solSource);
  return (quote) => {
    const direct = base(quote);
    if (isValue(direct)) return direct;
    const lst = STAKE_POOL_LSTS.get(quote);
    if (!lst) return direct;
    const account = lookup(lst.account);
    if (!account) return `its stake pool ${lst.account} was not read`;
    try {
      return { usd: mul(lstSolRate(quote, account), solUsd), source: `stake-pool:${lst.account}` };
    } catch (err) {
      if (!(err instanceof AccountDecodeError)) throw err;
      return `its stake pool ${lst.account} is unreadable (${err.message})`;
    }
  };
}

/** Tokens that pools of `priced` are quoted in and that need a hop: neither SOL/USD stables nor a readable LST. */
export function hopQuotesOf(priced: readonly Priced[], direct: QuoteValueOf): Address[] {
  return [...new Set(priced.map((p) => p.price.quoteMint))].filter((q) => !isValue(direct(q)));
}

/**
 * The quote values a token's pools are chosen by: direct values first, then the quote tokens' hops. Inside a hop
 * (pricing a quote token itself) nothing further is followed. A quote token whose only pools are quoted in `mint` is a
 * cycle, and says so.
 */
export function quoteValueOf(mint: Address, direct: QuoteValueOf, hops: ReadonlyMap<Address, QuoteHop> | undefined): QuoteValueOf {
  return (quote) => {
    // SOL's own USD price comes from its dollar markets: through an LST or a token priced in SOL it would be SOL/USD
    // times a pool's own SOL-per-SOL rate, a circle.
    if (mint === WSOL_MINT && quote !== USDC_MINT && quote !== USDT_MINT) return "SOL is priced only against USDC and USDT";
    const value = direct(quote);
    if (isValue(value)) return value;
    if (STAKE_POOL_LSTS.has(quote) && !hops) return value;
    if (!hops) return `${quote} is itself priced through another token's pool, and a quote token's price is followed one hop only`;
    const hop = hops.get(quote);
    if (!hop) return `${quote} was not priced: more than ${limits.maxQuoteHopMints} quote tokens in one request`;
    if (isValue(hop)) return hop;
    if (hop.quotedIn.includes(mint)) return `${quote} trades only against ${mint} itself or other unpriced tokens (a cycle), so it has no USD price of its own: refused`;
    return `${quote} has no USD price of its own (${hop.reason})`;
  };
}

// Values only, never promises (a price computation shared between requests must not wait on another shared task).
const hopCache = new BoundedCache<Address, { until: number; hop: QuoteHop }>("quote-hops", limits.isolateCacheBudgets.quoteHops, (e) =>
  "usd" in e.hop ? 160 + e.hop.source.length : 64 + e.hop.reason.length * 2 + ADDRESS_BYTES * e.hop.quotedIn.length,
);

/** Quote hops still fresh in this isolate (see `rememberHop`); the others are to compute. */
export function cachedHops(quotes: readonly Address[], now: number): { known: Map<Address, QuoteHop>; missing: Address[] } {
  const known = new Map<Address, QuoteHop>();
  const missing: Address[] = [];
  for (const q of quotes) {
    const hit = hopCache.get(q);
    if (hit && hit.until > now) known.set(q, hit.hop);
    else missing.push(q);
  }
  return { known, missing };
}

/** Keeps a hop: a price as long as a price record (`ttlMs`), a token without one `limits.quoteHopMissTtlMs`. */
export function rememberHop(quote: Address, hop: QuoteHop, now: number, ttlMs: number): void {
  if (ttlMs <= 0) return;
  hopCache.set(quote, { until: now + (isValue(hop) ? ttlMs : limits.quoteHopMissTtlMs), hop });
}
