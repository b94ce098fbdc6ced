-- The trade index (src/trades, src/trend): swaps read from blocks by the cron and its queue consumers.
-- Budget, retention and what moves elsewhere at mainnet scale: docs/indexing.md.

-- Blocks whose trades are stored. The insert of a block's row is the first statement of the batch that stores the
-- block: a second attempt fails on the primary key and the whole batch rolls back, so no trade is counted twice.
CREATE TABLE IF NOT EXISTS ingested_blocks (
  slot        INTEGER PRIMARY KEY,
  block_time  INTEGER,             -- unix seconds (null when the node has none)
  trades      INTEGER NOT NULL,
  sol_usd     REAL                 -- SOL/USD used to price the block's trades
);

-- Slot ranges handed out by the cron (inline or through the queue); state: pending | done.
CREATE TABLE IF NOT EXISTS ingest_ranges (
  from_slot   INTEGER PRIMARY KEY,
  to_slot     INTEGER NOT NULL,
  state       TEXT NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0,
  updated_at  INTEGER NOT NULL     -- unix ms
);

-- Blocks that could not be read or parsed: recorded and skipped, never silently.
CREATE TABLE IF NOT EXISTS ingest_failures (
  slot        INTEGER PRIMARY KEY,
  reason      TEXT NOT NULL,
  at          INTEGER NOT NULL     -- unix ms
);

-- Recent trades (bounded window, limits.tradeRetentionMs), one row per swap of one pool.
CREATE TABLE IF NOT EXISTS trades (
  slot          INTEGER NOT NULL,
  tx_index      INTEGER NOT NULL,
  ordinal       INTEGER NOT NULL,
  block_time    INTEGER,
  signature     TEXT NOT NULL,
  pool          TEXT NOT NULL,
  kind          TEXT NOT NULL,
  mint          TEXT NOT NULL,       -- base mint
  quote_mint    TEXT NOT NULL,
  side          TEXT NOT NULL,       -- buy | sell (the trader's side of the base token)
  base_amount   TEXT NOT NULL,       -- raw u64 as decimal text (exact)
  quote_amount  TEXT NOT NULL,
  base_decimals INTEGER NOT NULL,
  quote_decimals INTEGER NOT NULL,
  price_quote   REAL NOT NULL,
  price_sol     REAL,
  price_usd     REAL,
  value_usd     REAL,
  wallet        TEXT NOT NULL,
  PRIMARY KEY (slot, tx_index, ordinal)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS trades_by_mint ON trades (mint, slot DESC, tx_index DESC, ordinal DESC);
CREATE INDEX IF NOT EXISTS trades_by_wallet ON trades (wallet, slot DESC, tx_index DESC, ordinal DESC);

-- Per-mint buckets of one minute (`bucket` = unix minute) and one hour (`bucket` = unix hour), written by the same
-- batch as the block's trades (additive; open/close by the order key slot·2^20 + tx_index·2^6 + ordinal).
CREATE TABLE IF NOT EXISTS minute_buckets (
  mint        TEXT NOT NULL,
  bucket      INTEGER NOT NULL,
  buys        INTEGER NOT NULL,
  sells       INTEGER NOT NULL,
  buy_usd     REAL NOT NULL,
  sell_usd    REAL NOT NULL,
  buy_sol     REAL NOT NULL,
  sell_sol    REAL NOT NULL,
  buy_base    REAL NOT NULL,        -- base token, human units
  sell_base   REAL NOT NULL,
  wallets     INTEGER,              -- distinct wallets, set when the bucket closes (null while open)
  first_key   INTEGER NOT NULL,
  last_key    INTEGER NOT NULL,
  open_usd REAL, high_usd REAL, low_usd REAL, close_usd REAL,
  open_sol REAL, high_sol REAL, low_sol REAL, close_sol REAL,
  PRIMARY KEY (mint, bucket)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS minute_buckets_by_bucket ON minute_buckets (bucket);

CREATE TABLE IF NOT EXISTS hour_buckets (
  mint        TEXT NOT NULL,
  bucket      INTEGER NOT NULL,
  buys        INTEGER NOT NULL,
  sells       INTEGER NOT NULL,
  buy_usd     REAL NOT NULL,
  sell_usd    REAL NOT NULL,
  buy_sol     REAL NOT NULL,
  sell_sol    REAL NOT NULL,
  buy_base    REAL NOT NULL,
  sell_base   REAL NOT NULL,
  wallets     INTEGER,
  first_key   INTEGER NOT NULL,
  last_key    INTEGER NOT NULL,
  open_usd REAL, high_usd REAL, low_usd REAL, close_usd REAL,
  open_sol REAL, high_sol REAL, low_sol REAL, close_sol REAL,
  PRIMARY KEY (mint, bucket)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS hour_buckets_by_bucket ON hour_buckets (bucket);

-- Trend results, one row per window (hour = 1..24), computed by the cron after ingest: the route reads one row.
CREATE TABLE IF NOT EXISTS trend_windows (
  hour        INTEGER PRIMARY KEY,
  body        TEXT NOT NULL,        -- JSON: [{token_address, token_symbol, latest_price, buy_volume_usd, sell_volume_usd, net_inflow_usd}] (≤ 100, ranked)
  slot        INTEGER NOT NULL,     -- the last ingested slot the window ends at
  end_minute  INTEGER NOT NULL,     -- unix minute the window ends with (inclusive)
  updated_at  INTEGER NOT NULL      -- unix ms
);

-- Symbols of traded mints (Metaplex metadata), read by the cron for trend entries.
CREATE TABLE IF NOT EXISTS token_symbols (
  mint        TEXT PRIMARY KEY,
  symbol      TEXT NOT NULL,
  decimals    INTEGER
);
