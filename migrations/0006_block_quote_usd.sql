-- The USD per unit of a quote token that is neither SOL nor a dollar stable (an LST, USD1, a memecoin) at a block, as
-- the first reader of the block's trades quoted in it (the trade index or the /ws chain tail) had it from the price
-- service; the other reader values those trades with the same row (src/trades/block-quote-usd.ts). Written with
-- INSERT OR IGNORE and read back in the same batch: the first writer wins for both. `usd` null: no price then (the
-- trades stay unvalued in both). Kept as long as the trades (limits.tradeIngest.tradeRetentionMs).
CREATE TABLE IF NOT EXISTS block_quote_usd (
  slot        INTEGER NOT NULL,
  quote_mint  TEXT NOT NULL,
  usd         REAL,
  PRIMARY KEY (slot, quote_mint)
) WITHOUT ROWID;
