-- Sign-up and login throttles become sliding windows: one row per counted attempt (its bucket and time), so "at most N
-- in any window" holds exactly, with no clock-hour edge. An attempt a throttle refuses writes no row, and every
-- login attempt is first counted against its address's cap, so the rows one address can cause are bounded.
-- Buckets: 'login:ip:<address>', 'login:pair:<sha256 of email|address>', 'login:email:<sha256 of the email>',
-- 'signup:ip:<address or IPv6 /64>', 'signup:net48:<IPv6 /48>'.
DROP TABLE auth_throttle;
CREATE TABLE auth_attempts (
  bucket TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX auth_attempts_bucket ON auth_attempts(bucket, at);
CREATE INDEX auth_attempts_at ON auth_attempts(at);

-- Referral rewards wait for real use of the referred account (docs/accounts.md): when they were granted, once.
ALTER TABLE accounts ADD COLUMN referral_rewarded_at INTEGER;
CREATE INDEX credit_grants_month ON credit_grants(account_id, reason, created_at);
