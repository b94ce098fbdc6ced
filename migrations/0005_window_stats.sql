-- Windowed stats (src/stats) and windows that end at the index's last block (src/trend/window-span.ts).

-- Who traded each mint in each minute, by side: one row per distinct (mint, minute, side, wallet), written by the same
-- batch as the block's trades. Distinct buyers and sellers of a window are exact: count(DISTINCT wallet) over its
-- minutes' rows (the live minute's come from `trades`). Kept 25 h (limits.tradeIngest.walletMinuteRetentionMs).
CREATE TABLE IF NOT EXISTS wallet_minutes (
  mint    TEXT NOT NULL,
  bucket  INTEGER NOT NULL,       -- unix minute
  side    TEXT NOT NULL,          -- buy | sell
  wallet  TEXT NOT NULL,
  PRIMARY KEY (mint, bucket, side, wallet)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS wallet_minutes_by_bucket ON wallet_minutes (bucket);

-- The first block of the live minute is found by time (the live minute is read from `trades` by slot range).
CREATE INDEX IF NOT EXISTS ingested_blocks_by_time ON ingested_blocks (block_time);
