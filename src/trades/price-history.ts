/**
 * The price of a mint at a past moment: the last trade of the mint at or before a unix time or a slot, from the
 * `trades` table (so as far back as trades are kept: limits.tradeIngest.tradeRetentionMs), with the signature and pool
 * that set it. One D1 batch: the trade (walking trades_by_mint from the moment back), the oldest trade kept and the
 * index's newest block, which bound what the answer can know.
 */
import { z } from "zod/mini";
import { tradeColumns, tradeItemOfRow, tradeItemSchema, type TradeRow } from "./trade-queries";

/** The moment asked: a unix time in seconds, or a slot. */
export type HistoryMoment = { time: number; slot?: undefined } | { slot: number; time?: undefined };

const indexPoint = z.nullable(z.object({ slot: z.number(), blockTime: z.nullable(z.number()) }));

export const priceAtSchema = z.object({
  ca: z.string(),
  /** the moment asked, as asked */
  at: z.object({ time: z.optional(z.number()), slot: z.optional(z.number()) }),
  /** the trade's prices: USD and SOL per token (null when the index had no SOL/USD for its block), and in its quote mint */
  priceUsd: z.nullable(z.number()),
  priceSol: z.nullable(z.number()),
  priceQuote: z.nullable(z.number()),
  quoteMint: z.string(),
  /** the last trade of the mint at or before the moment */
  trade: tradeItemSchema,
  /** the oldest trade the index still keeps (of any mint): moments before it cannot be answered */
  retainedFrom: indexPoint,
  /** the newest block the index holds: a moment after it is answered with what was known then */
  indexedThrough: indexPoint,
});
export type PriceAt = z.infer<typeof priceAtSchema>;

/**
 * Walks trades_by_mint (mint, slot DESC, …) from the moment back and stops at the first row: by slot the index bounds
 * the walk; by time, block times rise with slots, so the rows passed over are the mint's trades after the moment.
 */
const bySlot = `SELECT ${tradeColumns} FROM trades WHERE mint = ?1 AND slot <= ?2 ORDER BY slot DESC, tx_index DESC, ordinal DESC LIMIT 1`;
const byTime = `SELECT ${tradeColumns} FROM trades WHERE mint = ?1 AND block_time <= ?2 ORDER BY slot DESC, tx_index DESC, ordinal DESC LIMIT 1`;
const oldestTrade = "SELECT slot, block_time FROM trades ORDER BY slot ASC, tx_index ASC, ordinal ASC LIMIT 1";
const newestBlock = "SELECT slot, block_time FROM ingested_blocks ORDER BY slot DESC LIMIT 1";

export interface PriceAtLookup {
  /** the answer, or undefined when the index holds no trade of the mint at or before the moment */
  found: PriceAt | undefined;
  retainedFrom: PriceAt["retainedFrom"];
  indexedThrough: PriceAt["indexedThrough"];
}

/** The price of `mint` at `at` from the trade index. */
export async function readPriceAt(db: D1Database, mint: string, at: HistoryMoment): Promise<PriceAtLookup> {
  const [trade, oldest, newest] = await db.batch([
    db.prepare(at.slot !== undefined ? bySlot : byTime).bind(mint, at.slot ?? at.time),
    db.prepare(oldestTrade),
    db.prepare(newestBlock),
  ]);
  const point = (row: { slot: number; block_time: number | null } | undefined) => (row ? { slot: row.slot, blockTime: row.block_time } : null);
  const retainedFrom = point(oldest!.results[0] as { slot: number; block_time: number | null } | undefined);
  const indexedThrough = point(newest!.results[0] as { slot: number; block_time: number | null } | undefined);
  const row = trade!.results[0] as TradeRow | undefined;
  if (!row) return { found: undefined, retainedFrom, indexedThrough };
  const item = tradeItemOfRow(row);
  return {
    found: {
      ca: mint,
      at: at.slot !== undefined ? { slot: at.slot } : { time: at.time },
      priceUsd: row.price_usd,
      priceSol: row.price_sol,
      priceQuote: row.price_quote,
      quoteMint: row.quote_mint,
      trade: item,
      retainedFrom,
      indexedThrough,
    },
    retainedFrom,
    indexedThrough,
  };
}
