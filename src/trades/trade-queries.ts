/**
 * Pages of the `trades` table (migrations/0002), newest first by (slot, tx_index, ordinal), for one mint or one wallet,
 * and the opaque cursor that carries a page's last position to the next request. The mint and wallet filters each have
 * their own index (trades_by_mint, trades_by_wallet), ordered like the pages, so a page reads `limit + 1` index entries.
 */
import { z } from "zod/mini";
import { dexOfPoolKind, type PoolKind } from "../venues/pool-kinds";
import { formatTokenAmount } from "../overview/amount-format";
import type { Trade, TradePosition } from "./trade";

// ---- The cursor: base64url (no padding) of "slot:txIndex:ordinal", canonical, so one position has one cursor. ----

const cursorText = /^(0|[1-9][0-9]{0,15}):(0|[1-9][0-9]{0,9}):(0|[1-9][0-9]{0,9})$/;
const base64url = /^[A-Za-z0-9_-]{1,64}$/;

/** The cursor of the page that continues after `position` (exclusive). */
export function encodeTradeCursor(position: TradePosition): string {
  const text = `${position.slot}:${position.txIndex}:${position.ordinal}`;
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The position a cursor carries, or undefined when it is not one this service made (the route answers 400). */
export function decodeTradeCursor(cursor: string): TradePosition | undefined {
  if (!base64url.test(cursor)) return undefined;
  let text: string;
  try {
    const padded = cursor.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (cursor.length % 4)) % 4);
    text = atob(padded);
  } catch {
    return undefined;
  }
  const match = cursorText.exec(text);
  if (!match) return undefined;
  const position = { slot: Number(match[1]), txIndex: Number(match[2]), ordinal: Number(match[3]) };
  if (!Number.isSafeInteger(position.slot)) return undefined;
  // Only our own spelling is accepted (no padding variants, no trailing bits): a cursor is opaque, not a format to vary.
  return encodeTradeCursor(position) === cursor ? position : undefined;
}

// ---- The answer ----

const nullableNumber = z.nullable(z.number());

/** One trade as the API shows it (camelCase; raw amounts and their exact human forms as strings, prices as numbers). */
export const tradeItemSchema = z.object({
  signature: z.string(),
  slot: z.number(),
  blockTime: z.nullable(z.number()),
  txIndex: z.number(),
  ordinal: z.number(),
  pool: z.string(),
  /** the `dex` word of the pool's kind (`pumpfun`, `pumpswap`, `raydium-clmm`, ...) */
  kind: z.string(),
  baseMint: z.string(),
  quoteMint: z.string(),
  side: z.enum(["buy", "sell"]),
  baseAmount: z.string(),
  quoteAmount: z.string(),
  baseAmountUi: z.string(),
  quoteAmountUi: z.string(),
  priceQuote: nullableNumber,
  priceSol: nullableNumber,
  priceUsd: nullableNumber,
  valueUsd: nullableNumber,
  wallet: z.string(),
});
export type TradeItem = z.infer<typeof tradeItemSchema>;

export const tradePageSchema = z.object({ items: z.array(tradeItemSchema), nextCursor: z.nullable(z.string()) });
export type TradePage = z.infer<typeof tradePageSchema>;

export type TradeFilter = { by: "mint"; mint: string } | { by: "wallet"; wallet: string };

/** A `trades` row as D1 returns it (`tradeColumns`). */
export type TradeRow = {
  slot: number;
  tx_index: number;
  ordinal: number;
  block_time: number | null;
  signature: string;
  pool: string;
  kind: string;
  mint: string;
  quote_mint: string;
  side: string;
  base_amount: string;
  quote_amount: string;
  base_decimals: number;
  quote_decimals: number;
  price_quote: number | null;
  price_sol: number | null;
  price_usd: number | null;
  value_usd: number | null;
  wallet: string;
};

/** The columns of a `TradeRow`, in order. */
export const tradeColumns =
  "slot, tx_index, ordinal, block_time, signature, pool, kind, mint, quote_mint, side, base_amount, quote_amount, base_decimals, quote_decimals, price_quote, price_sol, price_usd, value_usd, wallet";

/**
 * One page of trades, newest first, strictly after `after` when given. Reads `limit + 1` rows: the extra one only says
 * whether a next page exists (its cursor is the last item's position).
 */
export async function readTradePage(db: D1Database, filter: TradeFilter, limit: number, after: TradePosition | undefined): Promise<TradePage> {
  const value = filter.by === "mint" ? filter.mint : filter.wallet;
  const binds: unknown[] = after ? [value, after.slot, after.txIndex, after.ordinal, limit + 1] : [value, limit + 1];
  const { results } = await db.prepare(tradePageSql(filter.by, after !== undefined)).bind(...binds).all<TradeRow>();
  const rows = results.slice(0, limit);
  const last = rows.at(-1);
  return {
    items: rows.map(tradeItemOfRow),
    nextCursor: results.length > limit && last ? encodeTradeCursor({ slot: last.slot, txIndex: last.tx_index, ordinal: last.ordinal }) : null,
  };
}

/**
 * The page query: binds (value, [slot, tx_index, ordinal,] limit). The filter column is one of two literals (never
 * request text), and each has its index ordered like the page, so SQLite walks trades_by_mint or trades_by_wallet from
 * the cursor and stops after `limit` rows, with no sort (test/integration/trades.happy.test.ts reads the query plan).
 */
export function tradePageSql(by: TradeFilter["by"], afterCursor: boolean): string {
  const from = afterCursor ? " AND (slot, tx_index, ordinal) < (?, ?, ?)" : "";
  return `SELECT ${tradeColumns} FROM trades WHERE ${by === "mint" ? "mint" : "wallet"} = ?${from} ORDER BY slot DESC, tx_index DESC, ordinal DESC LIMIT ?`;
}

/**
 * What an API item is made of: a priced trade as the index reads it from a block (`Trade`: the stream's trade events),
 * or a stored row read back (amounts as decimal text, the kind as stored). Both go through `tradeItemOf`, so REST pages
 * and stream events show a trade the same way.
 */
export type TradeItemSource = Pick<
  Trade,
  "signature" | "slot" | "blockTime" | "txIndex" | "ordinal" | "pool" | "baseMint" | "quoteMint" | "baseDecimals" | "quoteDecimals" | "priceSol" | "priceUsd" | "valueUsd" | "wallet"
> & { kind: string; side: string; baseAmount: bigint | string; quoteAmount: bigint | string; priceQuote: number | null };

/** The one serializer of a trade: the REST item and the stream's `trade` event data. */
export function tradeItemOf(trade: TradeItemSource): TradeItem {
  return {
    signature: trade.signature,
    slot: trade.slot,
    blockTime: trade.blockTime,
    txIndex: trade.txIndex,
    ordinal: trade.ordinal,
    pool: trade.pool,
    kind: dexOfPoolKind[trade.kind as PoolKind] ?? trade.kind,
    baseMint: trade.baseMint,
    quoteMint: trade.quoteMint,
    side: trade.side as TradeItem["side"],
    baseAmount: trade.baseAmount.toString(),
    quoteAmount: trade.quoteAmount.toString(),
    baseAmountUi: rawAmountUi(trade.baseAmount, trade.baseDecimals),
    quoteAmountUi: rawAmountUi(trade.quoteAmount, trade.quoteDecimals),
    priceQuote: trade.priceQuote,
    priceSol: trade.priceSol,
    priceUsd: trade.priceUsd,
    valueUsd: trade.valueUsd,
    wallet: trade.wallet,
  };
}

/** The API item of a stored row. */
export function tradeItemOfRow(row: TradeRow): TradeItem {
  return tradeItemOf({
    signature: row.signature,
    slot: row.slot,
    blockTime: row.block_time,
    txIndex: row.tx_index,
    ordinal: row.ordinal,
    pool: row.pool,
    kind: row.kind,
    baseMint: row.mint,
    quoteMint: row.quote_mint,
    side: row.side,
    baseAmount: row.base_amount,
    quoteAmount: row.quote_amount,
    baseDecimals: row.base_decimals,
    quoteDecimals: row.quote_decimals,
    priceQuote: row.price_quote,
    priceSol: row.price_sol,
    priceUsd: row.price_usd,
    valueUsd: row.value_usd,
    wallet: row.wallet,
  });
}

/** A raw amount (or its decimal text, as stored), in human units, exactly: ("1500000", 6) → "1.5". */
export function rawAmountUi(raw: bigint | string, decimals: number): string {
  return formatTokenAmount(BigInt(raw), decimals);
}
