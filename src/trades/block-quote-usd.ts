/**
 * The USD per unit, at a block, of a quote token that is neither SOL nor a dollar stable (an LST, USD1, a memecoin):
 * what a trade quoted in it is valued through (trade-pricing.ts `valueThroughQuotes`). Unlike SOL/USD (sol-usd-carry.ts)
 * the chain does not say it: it is the price service's answer of the moment. Two readers value the same blocks' trades
 * — the trade index about a minute after the block, the chain tail about a second after — and two answers a minute
 * apart differ, so a live candle would differ from REST's. So the answer is asked once per (block, quote token) and
 * kept (`block_quote_usd`): the first reader to value the block's trades in that token asks and stores it with
 * INSERT OR IGNORE, reading the row back in the same batch (a concurrent writer's row wins for both); the other reader
 * uses the row. An answer without a price for the token — or no answer, the request having failed — is stored as none
 * (null): the trades stay unvalued in both readers, never valued in one and not the other.
 */
import { limits } from "../limits";
import { unpricedQuotes, valueThroughQuotes } from "./trade-pricing";
import type { StoredBlock } from "./trade-store";

/** One (block, quote token) value; `usd` null: settled as none. */
export interface BlockQuoteUsdRow {
  slot: number;
  mint: string;
  usd: number | null;
}

/** Where the values are kept and asked for. */
export interface QuoteUsdSources {
  /** the rows stored for these (slot, mint) keys (absent: none stored yet) */
  stored(keys: readonly Omit<BlockQuoteUsdRow, "usd">[]): Promise<BlockQuoteUsdRow[]>;
  /** stores the rows whose key has none yet (the first writer wins) and returns the stored rows of their keys: one batch */
  settle(rows: readonly BlockQuoteUsdRow[]): Promise<BlockQuoteUsdRow[]>;
  /** USD per unit of these tokens now (at most `limits.maxQuoteHopMints`); tokens without a price are left out */
  live(mints: string[]): Promise<Map<string, number>>;
}

/**
 * Values the trades of `blocks` quoted in such tokens through the settled USD of their (block, token), in place; blocks
 * without such trades cost nothing. `readFirst`: look for stored rows before asking the price service (the trade index,
 * which usually comes second); without it (the chain tail, which usually comes first) the service is asked at once and
 * the rows stored and read back in one batch. A failed request is logged and settles its tokens as none; a storage
 * fault throws (nothing valued).
 */
export async function valueBlocksThroughQuotes(sources: QuoteUsdSources, blocks: StoredBlock[], readFirst: boolean): Promise<void> {
  const keys = blocks.flatMap((b) => unpricedQuotes(b.trades).map((mint) => ({ slot: b.slot, mint })));
  if (keys.length === 0) return;
  const settled = new Map<number, Map<string, number | null>>();
  const add = (rows: readonly BlockQuoteUsdRow[]) => {
    for (const r of rows) {
      let row = settled.get(r.slot);
      if (row === undefined) settled.set(r.slot, (row = new Map()));
      row.set(r.mint, r.usd);
    }
  };
  if (readFirst) add(await sources.stored(keys));
  const missing = keys.filter((k) => !settled.get(k.slot)?.has(k.mint));
  if (missing.length > 0) {
    const usd = await liveUsd(sources, [...new Set(missing.map((k) => k.mint))]);
    add(await sources.settle(missing.map((k) => ({ ...k, usd: usd.get(k.mint) ?? null }))));
  }
  for (const block of blocks) {
    const usdOf = new Map<string, number>();
    for (const [mint, usd] of settled.get(block.slot) ?? []) if (usd !== null) usdOf.set(mint, usd);
    block.trades = valueThroughQuotes(block.trades, block.solUsd, usdOf);
  }
}

/** The service's answer for `mints`, asked `limits.maxQuoteHopMints` at a time; a failed request leaves its tokens out (logged). */
async function liveUsd(sources: QuoteUsdSources, mints: string[]): Promise<Map<string, number>> {
  const chunks: string[][] = [];
  for (let i = 0; i < mints.length; i += limits.maxQuoteHopMints) chunks.push(mints.slice(i, i + limits.maxQuoteHopMints));
  const answers = await Promise.allSettled(chunks.map((c) => sources.live(c)));
  const out = new Map<string, number>();
  answers.forEach((a, i) => {
    if (a.status === "fulfilled") {
      for (const [mint, usd] of a.value) if (Number.isFinite(usd) && usd > 0) out.set(mint, usd);
    } else console.warn(JSON.stringify({ level: "warn", quoteUsd: "unavailable", quotes: chunks[i]!.length, reason: a.reason instanceof Error ? a.reason.message : String(a.reason) }));
  });
  return out;
}

const selectRows = `SELECT q.slot AS slot, q.quote_mint AS mint, q.usd AS usd FROM json_each(?1) AS k
  JOIN block_quote_usd AS q ON q.slot = json_extract(k.value, '$[0]') AND q.quote_mint = json_extract(k.value, '$[1]')`;
const insertRows = `INSERT OR IGNORE INTO block_quote_usd (slot, quote_mint, usd)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)`;

/** The sources of a deployment: D1's `block_quote_usd` and the price service's `quoteUsd`. */
export function d1QuoteUsdSources(db: D1Database, live: (mints: string[]) => Promise<Map<string, number>>): QuoteUsdSources {
  const select = (keys: readonly Omit<BlockQuoteUsdRow, "usd">[]) => db.prepare(selectRows).bind(JSON.stringify(keys.map((k) => [k.slot, k.mint])));
  return {
    async stored(keys) {
      return (await select(keys).all<BlockQuoteUsdRow>()).results;
    },
    async settle(rows) {
      const results = await db.batch<BlockQuoteUsdRow>([db.prepare(insertRows).bind(JSON.stringify(rows.map((r) => [r.slot, r.mint, r.usd]))), select(rows)]);
      return results[1]!.results;
    },
    live,
  };
}
