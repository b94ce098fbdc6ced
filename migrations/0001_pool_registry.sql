-- Pools that cannot be derived from a mint (Raydium AMM v4, non-canonical pools, Meteora DBC, ...), learned from chain.
CREATE TABLE IF NOT EXISTS pools (
  address     TEXT PRIMARY KEY,
  kind        TEXT NOT NULL,          -- raydium-amm-v4 | pumpswap | meteora-dbc | ...
  base_mint   TEXT NOT NULL,
  quote_mint  TEXT NOT NULL,
  related     TEXT NOT NULL DEFAULT '{}', -- JSON {role: address} of accounts needed to price it (vaults, ...): static facts
  source      TEXT NOT NULL,          -- swap | creation | gpa
  first_slot  INTEGER NOT NULL,
  last_slot   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS pools_by_base ON pools (base_mint);
CREATE INDEX IF NOT EXISTS pools_by_quote ON pools (quote_mint);

-- Cursor of the cron that scans new blocks.
CREATE TABLE IF NOT EXISTS ingest_cursor (
  name TEXT PRIMARY KEY,
  slot INTEGER NOT NULL
);
