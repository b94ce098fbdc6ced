/**
 * localnet's ground truth of swaps (`GET /__localnet/trades`) turned into what the trade index should hold, computed
 * without the worker's code: each swap oriented as the API orients it (quote: the stablecoins, then wSOL), priced with
 * the block's SOL/USD recomputed from the truth's own SOL/stable swaps, placed at its block's time.
 */
import { env } from "cloudflare:workers";
import type { TradeRecord } from "../../localnet/src/world/swap-truth";
import { chainRpcText } from "./localnet";

export const WSOL = "So11111111111111111111111111111111111111112";
export const STABLES = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
/**
 * Tokens the trend never ranks: SOL and the dollar stablecoins (USDC, USDT, and USD1 and PYUSD, which the world's
 * extras edition trades against USDC) — they are what others are valued in, not tokens that trend.
 */
export const NOT_TRENDING = new Set([WSOL, ...STABLES, "USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB", "2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo"]);

/** SOL/USD the index stored per block of slots `lo`..`hi`. */
export async function storedSolUsd(lo: number, hi: number): Promise<{ slot: number; sol_usd: number }[]> {
  const { results } = await env.DB.prepare("SELECT slot, sol_usd FROM ingested_blocks WHERE slot BETWEEN ? AND ? ORDER BY slot").bind(lo, hi).all<{ slot: number; sol_usd: number }>();
  return results;
}

/** SOL/USD per slot from the ground truth alone: each block's USD-weighted median SOL/stable price, carried; null before the first. */
export function truthSolUsdCarry(truth: readonly TradeRecord[], slots: readonly number[]): Map<number, number | null> {
  const out = new Map<number, number | null>();
  let carry: number | null = null;
  for (const slot of slots) {
    const points = truth
      .filter((t) => !t.failed && t.slot === slot)
      .flatMap((t) => {
        const sol = [t.poolIn, t.poolOut].find((m) => m.mint === WSOL);
        const usd = [t.poolIn, t.poolOut].find((m) => STABLES.has(m.mint));
        return sol && usd ? [{ price: Number(usd.amount) / 1e6 / (Number(sol.amount) / 1e9), weight: Number(usd.amount) / 1e6 }] : [];
      })
      .sort((a, b) => a.price - b.price);
    if (points.length > 0) {
      const half = points.reduce((a, p) => a + p.weight, 0) / 2;
      let seen = 0;
      carry = points.find((p) => (seen += p.weight) >= half)!.price;
    }
    out.set(slot, carry);
  }
  return out;
}

/** SOL/USD per slot as the ground truth prices it; blocks before any SOL/stable swap keep the index's start value. */
export async function truthSolUsd(truth: readonly TradeRecord[], lo: number, hi: number): Promise<Map<number, number>> {
  const stored = await storedSolUsd(lo, hi);
  const carry = truthSolUsdCarry(truth, stored.map((b) => b.slot));
  return new Map(stored.map((b) => [b.slot, carry.get(b.slot) ?? b.sol_usd]));
}

/** Block times of `slots`, in batches of 200 (a node takes request bodies of at most 50 KiB, localnet as Agave does). */
export async function blockTimes(slots: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let from = 0; from < slots.length; from += 200) {
    const page = slots.slice(from, from + 200);
    const body = JSON.stringify(page.map((s, i) => ({ jsonrpc: "2.0", id: i, method: "getBlockTime", params: [s] })));
    const answers = JSON.parse(await chainRpcText(body)) as { id: number; result: number }[];
    for (const a of answers) out.set(page[a.id]!, a.result);
  }
  return out;
}

export interface PricedTruth {
  key: string;
  slot: number;
  order: [number, number, number];
  minute: number;
  /** block time, unix seconds */
  time: number;
  base: string;
  buy: boolean;
  valueUsd: number;
  quoteUi: number;
  baseRaw: bigint;
  usdPerQuote: number;
  quoteMint: string;
}

/**
 * USD per quote unit the index used for trades quoted in a token other than SOL, USDC and USDT (an LST, USD1, a
 * memecoin), by trade key, with the quote's mint and decimals. The index values such a trade through the quote token's
 * own price at the time it indexes the block (price.happy checks that price against the raw accounts), which the ground
 * truth cannot replay; the amounts, sides and bases of those trades still come from the truth.
 */
async function indexedQuoteValues(lo: number, hi: number): Promise<Map<string, { quoteMint: string; decimals: number; usdPerQuote: number }>> {
  const { results } = await env.DB.prepare(
    `SELECT signature, ordinal, quote_mint, quote_decimals, price_usd / price_quote AS usd_per_quote FROM trades
     WHERE slot BETWEEN ? AND ? AND quote_mint NOT IN (?, ?, ?) AND price_usd IS NOT NULL AND price_quote > 0`,
  )
    .bind(lo, hi, WSOL, ...STABLES)
    .all<{ signature: string; ordinal: number; quote_mint: string; quote_decimals: number; usd_per_quote: number }>();
  return new Map(results.map((r) => [`${r.signature}:${r.ordinal}`, { quoteMint: r.quote_mint, decimals: r.quote_decimals, usdPerQuote: r.usd_per_quote }]));
}

/**
 * The ground truth's trades with a USD value, oriented as the API orients them (quote: stables, then wSOL, else the
 * pool's quote token when the index gave it a USD value).
 */
export async function pricedTruth(truth: readonly TradeRecord[], lo: number, hi: number): Promise<PricedTruth[]> {
  const sol = await truthSolUsd(truth, lo, hi);
  const made = truth.filter((t) => !t.failed);
  const times = await blockTimes([...new Set(made.map((t) => t.slot))]);
  const otherQuotes = await indexedQuoteValues(lo, hi);
  const out: PricedTruth[] = [];
  for (const t of made) {
    const sides = [t.poolIn, t.poolOut];
    const other = otherQuotes.get(`${t.signature}:${t.ordinal}`);
    const quote = sides.find((m) => STABLES.has(m.mint)) ?? sides.find((m) => m.mint === WSOL) ?? (other && sides.find((m) => m.mint === other.quoteMint));
    if (!quote) continue;
    const base = sides.find((m) => m !== quote)!;
    const usdPerQuote = STABLES.has(quote.mint) ? 1 : quote.mint === WSOL ? sol.get(t.slot)! : other!.usdPerQuote;
    const quoteUi = Number(quote.amount) / 10 ** (STABLES.has(quote.mint) ? 6 : quote.mint === WSOL ? 9 : other!.decimals);
    out.push({
      key: `${t.signature}:${t.ordinal}`, slot: t.slot, order: [t.slot, t.txIndex, t.ordinal], minute: Math.floor(times.get(t.slot)! / 60), time: times.get(t.slot)!,
      base: base.mint, buy: base === t.poolOut, valueUsd: quoteUi * usdPerQuote, quoteUi, baseRaw: BigInt(base.amount), usdPerQuote, quoteMint: quote.mint,
    });
  }
  return out;
}

/** Trade order: slot, transaction, swap. */
export const later = (a: PricedTruth, b: PricedTruth) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2];
