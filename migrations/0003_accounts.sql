-- Accounts (issue 13): users, sessions, API keys' metadata, usage, credit grants, auth throttling.
-- The request path reads API keys from KV (hash → record); D1 is the system of record for the dashboard.
-- Times are Unix milliseconds. Secrets (passwords, session tokens, API keys) are stored only as hashes.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,                      -- acct_<hex>
  email TEXT NOT NULL UNIQUE,               -- normalised (trimmed, lower-cased)
  password_hash TEXT NOT NULL,              -- PBKDF2-SHA256 output, base64
  password_salt TEXT NOT NULL,              -- per-user random salt, base64
  password_iterations INTEGER NOT NULL,
  plan TEXT NOT NULL DEFAULT 'free',        -- src/accounts/plans.ts
  referral_code TEXT NOT NULL UNIQUE,
  referred_by TEXT REFERENCES accounts(id), -- set once, at sign-up; never the account itself
  first_call_at INTEGER,                    -- first successful API call (the referral reward's trigger)
  created_at INTEGER NOT NULL
);
CREATE INDEX accounts_referred_by ON accounts(referred_by);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,              -- SHA-256 hex of the cookie's random token
  account_id TEXT NOT NULL REFERENCES accounts(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE api_keys (
  key_id TEXT PRIMARY KEY,                  -- key_<hex>, also in the KV record
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,                     -- first characters of the key, shown to tell keys apart
  key_hash TEXT NOT NULL UNIQUE,            -- SHA-256 hex (the KV record's key)
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys(account_id);

-- Written in batches by the meter (never a row write per request).
CREATE TABLE usage_daily (
  key_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  day TEXT NOT NULL,                        -- YYYY-MM-DD (UTC)
  requests INTEGER NOT NULL DEFAULT 0,
  credits INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, day)
);
CREATE INDEX usage_daily_account ON usage_daily(account_id, day);

-- Credits beyond the plan's monthly grant (referral bonuses). One grant per (account, reason, related account).
CREATE TABLE credit_grants (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  credits INTEGER NOT NULL,
  reason TEXT NOT NULL,                     -- 'referral:referrer' | 'referral:referred'
  related_account TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, reason, related_account)
);

-- Sign-up / login throttling: fixed windows per bucket ('login:email:<hash>', 'login:ip:<ip>', 'signup:ip:<ip>').
CREATE TABLE auth_throttle (
  bucket TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);
