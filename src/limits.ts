/**
 * Every numeric limit of the service, with where it comes from. Tests exercise each at N and N+1.
 */
export const limits = {
  /** Longest accepted request URL (chars). 100 mints × 44 chars + commas fits with room; Cloudflare itself stops at 16 KiB. */
  maxUrlLength: 8192,
  /** Largest REST request body (bytes). REST is GET-only; anything bigger is abuse. */
  maxRestBodyBytes: 1024,
  /** MCP (`POST /mcp`): one JSON-RPC message; a tool call's arguments are a query's worth (≤ 100 mints), far under this. */
  maxMcpBodyBytes: 64 * 1024,
  /** Largest JSON-RPC request body (bytes). */
  maxRpcBodyBytes: 50 * 1024,
  /** Most mints in one price request (plans may lower it). Also one getMultipleAccounts page. */
  maxMintsPerPriceRequest: 100,
  /** Agave's getMultipleAccounts cap. */
  maxAccountsPerCall: 100,
  /** getMultipleAccounts calls sent together in one JSON-RPC batch (one HTTP request); providers accept batches of this size. */
  maxCallsPerBatch: 10,
  /** Spec: getBlocks / getBlocksWithLimit span. */
  maxSlotSpan: 500_000,
  /** JSON-RPC batch cap (our choice; Agave has none by default but providers cap around 100). */
  maxRpcBatch: 100,
  /** Deepest nesting of one JSON-RPC request element (the request object is level 1; a batch's array is not counted). Agave's own configs need 6. */
  maxRpcJsonDepth: 32,
  /**
   * WebSocket PubSub on /rpc. Largest client frame read (bytes): subscribe requests are a few hundred bytes,
   * a programSubscribe with 4 memcmp filters of 128 bytes stays under 2 KiB; 64 KiB leaves room and stops abuse.
   */
  maxPubSubFrameBytes: 64 * 1024,
  /** Live plus requested subscriptions per client socket; kit's channel pool opens another socket past 100 (its default). */
  maxPubSubSubscriptionsPerSocket: 100,
  /**
   * Pass-through requests held per socket while the upstream socket is still opening; one more is answered -32063.
   * Subscribes wait too, bounded by the subscription cap (a client may open its whole set as it connects).
   */
  maxPubSubQueuedFrames: 16,
  /** Requests per socket sent upstream and not yet answered (room for a full set of subscribes and their unsubscribes); one more is answered -32063. */
  maxPubSubInFlightRequests: 200,
  /** How long opening the upstream PubSub socket may take before the next URL is tried (ms). */
  pubSubConnectTimeoutMs: 5000,
  /** Agave's getProgramAccounts filter cap. */
  maxProgramAccountFilters: 4,
  /** Per-attempt upstream timeout (ms). */
  upstreamAttemptTimeoutMs: 5000,
  /** Attempts per idempotent upstream call, across all upstreams (first try + 2 retries). */
  upstreamMaxAttempts: 3,
  /** Consecutive failures that open an upstream's circuit. */
  upstreamBreakerFailureThreshold: 3,
  /** How long an open circuit refuses requests before one probe is let through (ms). */
  upstreamBreakerOpenMs: 10_000,
  /**
   * Longest we honour an upstream's Retry-After (ms): a hostile or buggy header must not park an upstream for hours. The
   * same figure as the longest Retry-After we pass on (maxRetryAfterSeconds), so what a client is told is when we try again.
   */
  upstreamMaxCooldownMs: 60_000,
  /** Largest body sent upstream (bytes): Agave's MAX_REQUEST_BODY_SIZE. The node answers 413 above it, so a bigger one is refused here, unsent. */
  upstreamMaxRequestBytes: 50 * 1024,
  /**
   * Largest upstream answer read (bytes), by method; a batch's answer gets the largest cap among its methods.
   * Production isolates have 128 MB for all their requests and an answer costs about twice its size while held
   * (bytes, then text). 8 MiB is far above what the service's own reads need (100 token or pool accounts in
   * base64: ~100 KB); getBlock (mainnet: ~1-6 MB in json with full transactions) and getProgramAccounts (selective
   * filters required, but a popular mint has many holders) get 16 MiB.
   */
  upstreamAnswerCapBytes: { default: 8 * 1024 * 1024, getBlock: 16 * 1024 * 1024, getProgramAccounts: 16 * 1024 * 1024 } as Readonly<Record<string, number>> & { default: number },
  /** A half-open circuit's probe not settled within its attempt timeout plus this (ms) is presumed lost (a cancelled request): another may go. */
  upstreamProbeGraceMs: 1000,
  /** Retry-After we pass on (REST header, JSON-RPC `retryAfterSeconds`) is clamped to this range (s): a hostile or buggy upstream value stops here. */
  minRetryAfterSeconds: 1,
  maxRetryAfterSeconds: 60,
  /** How long the finalized slot learned from the upstream is reused to decide cacheability (ms). */
  finalizedSlotTtlMs: 1000,
  /** Cache API max-age of immutable JSON-RPC results (s). The data never changes; this only bounds storage. */
  immutableRpcCacheSeconds: 7 * 24 * 3600,
  /** Agave's getSignaturesForAddress `limit` cap (MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT). */
  maxSignaturesForAddressLimit: 1000,
  /** Agave's getSignatureStatuses cap (MAX_GET_SIGNATURE_STATUSES_QUERY_ITEMS). */
  maxSignatureStatuses: 256,
  /** Agave's getRecentPrioritizationFees key cap (MAX_TX_ACCOUNT_LOCKS). */
  maxPrioritizationFeeKeys: 128,
  /** Agave's getRecentPerformanceSamples `limit` cap (PERFORMANCE_SAMPLES_LIMIT). */
  maxPerformanceSamples: 720,
  /** Agave's getSlotLeaders `limit` cap (MAX_GET_SLOT_LEADERS). */
  maxSlotLeaders: 5000,
  /** Agave's memcmp filter caps: decoded bytes (MAX_DATA_SIZE), base58 / base64 text length (MAX_DATA_BASE58_SIZE / MAX_DATA_BASE64_SIZE). */
  maxMemcmpBytes: 128,
  maxMemcmpBase58Chars: 175,
  maxMemcmpBase64Chars: 172,
  /** Account reads for one cold price: one normally; more only for accounts that could not be known in advance. */
  maxPriceReadPasses: 3,
  /** Pools (not curves) below this USD depth are not used for a price: dust pools are trivially moved. */
  minPoolLiquidityUsd: 100,
  /** Stale price records may be served this long after they were computed when the upstream fails (ms). */
  maxStaleMs: 60_000,
  /** How long a colo keeps a mint's derived candidate pools (s): derivations never change, so as long as the Cache API keeps them. */
  candidateStoreSeconds: 7 * 24 * 3600,
  /** Longest metadata URI taken from chain data (chars, after trimming). */
  maxMetadataUriLength: 2048,
  /** How long a price record is fresh when PRICE_CACHE_TTL_MS is not set (ms). */
  defaultPriceCacheTtlMs: 1000,
  /**
   * SOL/USD from the deepest SOL/USD-stable pool (used when the oracle is stale) is remembered this long (ms): the default
   * price TTL, so a burst of cold prices reads the SOL pools once, not once per mint batch.
   */
  solUsdFromPoolsMemoMs: 1000,
  /**
   * SOL's supply (the chain's getSupply: total and circulating lamports), for SOL's market cap and overview, is reused
   * this long (ms). It moves by inflation and fee burn, ~5% a year (a ten-millionth in 10 minutes), and getSupply is
   * among a node's heavier calls.
   */
  solSupplyTtlMs: 10 * 60_000,
  /**
   * Distinct quote tokens (not SOL, USDC, USDT or a stake-pool LST) one cold price computation prices through their own
   * pools. Each is one more candidate lookup and account read, done once for all of them; a 100-mint list of memecoins
   * quoted in as many different memecoins is priced for the first 16 and told why for the rest.
   */
  maxQuoteHopMints: 16,
  /**
   * A quote token found to have no USD price of its own (all its pools quoted in other unpriced tokens, a cycle, no
   * pool) is not looked at again for this long (ms): such tokens gain a SOL or USD pool rarely, and every price of a
   * token that has a pool quoted in one would otherwise pay one more upstream read. A price found is kept only as long
   * as a price record.
   */
  quoteHopMissTtlMs: 30_000,
  /** Pyth SOL/USD older than this (by publish time) falls back to the deepest SOL/USDC pool (s). */
  maxOracleAgeSeconds: 60,
  /** Metadata fetch: whole-request timeout (ms), body cap (bytes), redirects. */
  metadataTimeoutMs: 3000,
  metadataMaxBytes: 64 * 1024,
  metadataMaxRedirects: 3,
  /** Overview: how long a token's profile (on-chain identity + off-chain JSON) is reused (ms). */
  overviewProfileTtlMs: 5 * 60_000,
  /** Overview: the same when the off-chain fetch failed transiently (timeout, network, HTTP status) — retry soon (ms). */
  overviewProfileRetryTtlMs: 30_000,
  /** Overview: how long holder figures (largest accounts, owners, supply) are reused (ms). */
  overviewHoldersTtlMs: 30_000,
  /** Overview: owners classified (read) in rank order, at most; 2 getMultipleAccounts pages, one batched request. */
  overviewMaxOwnersClassified: 200,
  /**
   * Trade index (src/trades/ingest-*.ts; budget and retention reasoned in docs/indexing.md). Mainnet makes ~150 slots a
   * minute: more than `inlineMaxSlots` waiting goes to the queue in ranges of `rangeSlots`.
   */
  tradeIngest: {
    /** getBlock calls in flight per range (one page is stored in one D1 batch) */
    blockConcurrency: 8,
    /** slots per range (a queue message); ~8 s of mainnet blocks, a few MB of JSON each */
    rangeSlots: 20,
    /** at most this many waiting slots are ingested inside the cron run; more go to the queue */
    inlineMaxSlots: 64,
    /** slots handed out per run at most (mainnet catches up ~80× faster than it produces) */
    maxSlotsPerRun: 12_000,
    /** the first run (or a restarted chain) starts this many slots back (~1 min at 400 ms) */
    initialSlots: 150,
    /** behind by more than this (25 h of slots at 400 ms), the older slots are given up (logged): trend needs 24 h */
    maxCatchUpSlots: 225_000,
    /** a pending range untouched this long (lost message, dead consumer) is handed out again */
    staleRangeMs: 120_000,
    maxRedispatchPerRun: 200,
    /** after this many attempts, blocks of a range that still cannot be read are recorded and skipped */
    maxRangeAttempts: 5,
    /** rows per D1 statement when storing (one JSON parameter each; D1 caps a bound string at 2 MB) */
    rowsPerStatement: 1000,
    /**
     * a store batch rolled back because another writer stored one of its blocks first is retried this often: each retry
     * drops the blocks stored meanwhile, so only yet another concurrent writer (the cron and queue consumers racing on
     * one range) makes it fail again
     */
    storeRetries: 3,
    /** ranges per `Queue.sendBatch` call: Cloudflare Queues take at most 100 messages per batch */
    queueSendBatch: 100,
    /** symbols read from the chain per trend run (new mints only; the rest come from D1) */
    symbolReadsPerRun: 300,
    /** retention: trades (per mint / per wallet pages), minute and hour buckets, the ingested-block guard, failure records */
    tradeRetentionMs: 2 * 3_600_000,
    minuteBucketRetentionMs: 48 * 3_600_000,
    /** who traded each minute (distinct buyers/sellers of the stats windows): the longest window, 24 h, and an hour's margin */
    walletMinuteRetentionMs: 25 * 3_600_000,
    hourBucketRetentionMs: 30 * 24 * 3_600_000,
    blockRetentionMs: 48 * 3_600_000,
    failureRetentionMs: 7 * 24 * 3_600_000,
  },
  /**
   * The SOL/USD carry of a reader that did not just read the block before (src/trades/sol-usd-carry.ts): the trade
   * index's ranges taken out of order, the chain tail's first block. It looks back this many slots (~1 min of mainnet)
   * and reads at most this many blocks (a mainnet block nearly always has SOL/stable swaps: one read; localnet's arbitrage
   * skips about one block in twelve); past them it takes the live SOL/USD.
   */
  solUsdCarry: {
    slots: 150,
    blockReads: 8,
  },
  /** API keys validated in this isolate are trusted this long before KV is read again (ms); bounds revocation delay. */
  authCacheMs: 5000,
  /**
   * The account web app (sign-up, sessions, dashboard; src/routes/account-*.ts, docs/accounts.md). Each value has a test
   * at N and N+1 (test/integration/accounts.*.test.ts).
   */
  accountWeb: {
    /**
     * PBKDF2-SHA256 iterations per password: the most Cloudflare's production runtime allows (more → NotSupportedError,
     * workerd's limit enforcer, cloudflare/workerd#1346); local workerd enforces no cap, so no local test can catch more.
     */
    pbkdf2Iterations: 100_000,
    /** Password hashing objects (src/accounts/password-hasher.ts), by email hash: one email's attempts queue, others run side by side. */
    passwordHasherShards: 32,
    /** A session lasts this long from login (ms); logout ends it at once. */
    sessionTtlMs: 7 * 24 * 3_600_000,
    /** RFC 5321's longest forward path less its angle brackets. */
    maxEmailChars: 254,
    minPasswordChars: 8,
    /** Passphrases fit; anything longer is not a password a person types. */
    maxPasswordChars: 256,
    maxKeyNameChars: 64,
    /** Live keys per account; revoked ones stay listed, so the history has its own cap. */
    maxActiveKeysPerAccount: 20,
    maxKeysPerAccount: 100,
    /** Largest form body read (bytes): the biggest form (sign-up at every cap) is well under 1 KiB encoded. */
    maxFormBodyBytes: 4096,
    /**
     * Login throttling (docs/accounts.md#login-throttling): sliding windows of `loginWindowMs` over the attempts D1
     * `auth_attempts` records, each counted before the password is checked (a throttled guess costs no PBKDF2). Per
     * address: a hard cap over any emails, judged first, so an address over it writes nothing. Per (email, address) and
     * per email: the first attempts are free, then each next one waits a delay that doubles from `loginDelayBaseMs` up to
     * `loginDelayMaxMs` after the newest (a slowdown, never a lock). The per-email one is skipped for a browser holding a
     * device cookie from an earlier login to that email, so strangers' guesses never keep the owner out.
     */
    loginWindowMs: 15 * 60_000,
    loginAttemptsPerAddress: 100,
    loginFreeAttemptsPerEmailAddress: 5,
    loginFreeAttemptsPerEmail: 10,
    loginDelayBaseMs: 1_000,
    /** One guess a minute per email at worst: ~96 guesses a day against a 8+ character password. */
    loginDelayMaxMs: 60_000,
    /** A device cookie (signed: HMAC-SHA-256 with DEVICE_COOKIE_SECRET) vouches for a browser that logged in to an email this long. */
    deviceCookieTtlMs: 365 * 86_400_000,
    /** Sign-ups per client address (IPv6: per /64) and per IPv6 /48 in any sliding `signupWindowMs`. */
    signupWindowMs: 3_600_000,
    signupsPerAddress: 10,
    signupsPerIpv6Net48: 20,
    /**
     * Referral rewards (docs/accounts.md#referral-rewards): granted once the referred account has spent this many
     * credits on ≥ `referralMinDays` distinct UTC days (or is on a paid plan), at most `referralRewardsPerMonth` for one
     * referrer in a UTC month.
     */
    referralMinCredits: 1_000,
    referralMinDays: 2,
    referralRewardsPerMonth: 10,
    /** The one-time cookie that carries a new key from the POST to the page that shows it (s). */
    newKeyCookieSeconds: 120,
    /**
     * Expired sessions and ended throttle attempts the cron deletes per table per run, at most: a table swollen by an
     * attack drains over a few runs instead of one DELETE long enough to hit D1's statement time limit.
     */
    authSweepBatchRows: 5000,
  },
  /**
   * Programs whose address bytes PDA derivation keeps decoded (~40 B each): every venue program and the few others we
   * derive under are ~20; a caller deriving under arbitrary programs clears the map at this size instead of growing it.
   */
  pdaProgramBytesEntries: 256,
  /** Every REST request answers within this (ms), else 504. Above one upstream attempt (5 s) with a retry, below Cloudflare's 100 s proxy limit. */
  requestDeadlineMs: 15_000,
  /** A task shared by the requests of an isolate (an identical price computation or account read) settles within this (ms). */
  sharedTaskDeadlineMs: 15_000,
  /**
   * Byte budgets of the isolate-level caches (LRU). Together 60 MiB, under half of a production isolate's 128 MB,
   * so a stream of never-seen mints cannot take the isolate down. Entries are estimated (see isolate/bounded-cache.ts).
   */
  isolateCacheBudgets: {
    /** price records (the warm path): 2 KiB each with their JSON text → ~8,000 mints */
    priceRecords: 16 * 1024 * 1024,
    /** candidate pools per mint (~51 addresses, ~8 KiB) → ~1,000 mints; the Cache API holds the rest for the colo */
    derivedCandidates: 8 * 1024 * 1024,
    /** related accounts (vaults, reserves) of pools seen to exist */
    relatedOfPool: 4 * 1024 * 1024,
    /** registry rows per mint, kept `registryMemoMs` */
    registryMemo: 4 * 1024 * 1024,
    /** pool-scan outcomes per mint (~30 B a miss, ~170 B a found pool), kept `poolScan.missTtlMs` → ~30,000 misses */
    poolScanMemo: 1024 * 1024,
    /** overview parts: token profiles (with off-chain JSON ≤ 64 KiB), holder figures, market records */
    overviewProfiles: 8 * 1024 * 1024,
    overviewHolders: 4 * 1024 * 1024,
    overviewMarket: 2 * 1024 * 1024,
    /** validated API keys (by hash) */
    apiKeys: 1024 * 1024,
    /** addresses already validated as base58, and their decoded bytes */
    validatedAddresses: 1024 * 1024,
    addressBytes: 1024 * 1024,
    /** the incinerator's ATAs per mint (two addresses, ~100 bytes) → ~10,000 mints */
    burnAccounts: 1024 * 1024,
    /** USD values of quote tokens reached in one hop (~250 B each with their reasons) → ~1,000 quote tokens */
    quoteHops: 256 * 1024,
    /**
     * security reports (~4 KiB each → ~500 mints) and holder censuses (~300 bytes per owner held: a census of more
     * than ~28,000 owners is larger than the budget and is kept by the Cache API only)
     */
    securityReports: 2 * 1024 * 1024,
    holderCensuses: 8 * 1024 * 1024,
  },
  /** How long a mint's registry rows are reused before D1 is asked again (ms): a newly registered pool is used within this. */
  registryMemoMs: 5000,
  /**
   * The same for a mint with no registered pool (ms): a pool the chain tail registers as it reads its first block
   * (~1 s after it) is used within this, so a new AMM v4 or DBC pool prices within 5 s of its block even for a client
   * that asked before (issue 12). A miss costs one D1 read per mint per isolate per this.
   */
  registryMissMemoMs: 1000,
  /**
   * Pools found on first ask (pool-registry/pool-scan.ts): a mint with no registered pool is scanned with
   * getProgramAccounts, 17 calls (one per kind and mint field: pool-scan.ts `scanCallsPerMint`), sent as one JSON-RPC batch, one attempt.
   * getProgramAccounts is a heavy call at providers (Helius bills it 10 credits, 10× a standard call; QuickNode caps it
   * at 3 requests/s beside the plan's limits), so one scan is ~170 Helius credits and the scans are capped per isolate.
   */
  poolScan: {
    /** Scans in flight at once per isolate: 2 × 17 calls stays within a provider's few-per-second getProgramAccounts limit. */
    maxConcurrent: 2,
    /** Scans started per isolate per minute: 10 × 17 = 170 calls a minute (~2.8/s, under QuickNode's 3/s). Beyond it, derived pools only. */
    perMinute: 10,
    /** A mint with no pool is not scanned again for this long (ms): the chain tail registers pools created since within seconds. */
    missTtlMs: 15 * 60_000,
    /** Pools found are reused this long (ms) while D1 takes them (the registry serves them after, with its own memo). */
    hitTtlMs: 60_000,
    /** A second ask of a mint whose scan runs waits for it at most this long (ms); the upstream's own timeouts end the scan before. */
    waitMs: 10_000,
    /** How often such a waiter looks at the running scan's outcome (ms). */
    pollMs: 20,
    /** Largest answer of one scan batch (bytes): ~150 B a pool with a 64-byte slice → ~7,000 pools; more means a quote-like mint. */
    answerCapBytes: 1024 * 1024,
  },

  // ---- trade index reads (routes/trend.ts, routes/trades.ts, routes/ohlcv.ts) ----
  /** Trend: `hour` 1..24 (the cron keeps one precomputed row per window hour, migrations/0002 `trend_windows`). */
  trendMaxHour: 24,
  /** Trend: `limit` 1..100 (a `trend_windows` row holds at most 100 ranked entries). */
  trendMaxLimit: 100,
  /** Trend: how long an answer (per hour and limit) is reused from the Cache API (s); the cron rewrites rows about once a minute. */
  trendCacheSeconds: 5,
  /** Stats: mints per request, as many as a price list (every window of every mint is one D1 batch of 8 statements). */
  statsMaxMints: 100,
  /**
   * Price history: the largest `time` (unix seconds) accepted, 2^32 − 1 (the year 2106). A larger value is milliseconds
   * by mistake, refused (400) rather than read as a moment 50,000 years ahead.
   */
  maxHistoryUnixSeconds: 4_294_967_295,
  /** Trades: page size 1..100, 50 when not given. */
  tradesMaxLimit: 100,
  tradesDefaultLimit: 50,
  /** OHLCV: candles per answer 1..1000, 300 when not given (GeckoTerminal's defaults and cap are 100 / 1000). */
  ohlcvMaxLimit: 1000,
  ohlcvDefaultLimit: 300,
  /**
   * OHLCV: bucket rows read per request, at most. A candle needs up to interval / bucket rows (15m: 15, 1d: 24), so a
   * large limit on those intervals is cut here (the oldest candles are left out); 5,000 compact rows decode well
   * within the Workers 10 ms CPU budget.
   */
  ohlcvMaxBucketRows: 5000,
  /**
   * OHLCV 1s: candles of the last hour only, read from the stored trades (kept two hours, tradeIngest.tradeRetentionMs);
   * Codex keeps 1-second candles for a day, but a day of seconds is 86,400 candles and minute candles serve it better.
   */
  ohlcvSecondCandlesWindowSeconds: 3600,
  /** OHLCV 1s: trade rows read per request, at most (the same read budget as `ohlcvMaxBucketRows`); the oldest second of a cut read is left out. */
  ohlcvMaxTradeRows: 5000,

  // ---- token safety and holders (src/security, routes/security.ts and routes/holders.ts; docs/security.md) ----
  security: {
    /** How long a security report and a holder census are reused (ms): the overview's holder figures age the same way. */
    reportTtlMs: 30_000,
    /**
     * Sniper window: a buy in the creation slot or in the next `sniperWindowSlots` slots (~1.2 s of mainnet at 400 ms
     * a slot) is a sniper's. Bots that buy on the create's own notification land within one or two slots.
     */
    sniperWindowSlots: 3,
    /** Buyers of a launch whose balances are read back (their associated accounts, one getMultipleAccounts page). */
    maxLaunchBuyersRead: 100,
    /** Trades of one mint read to find its launch buyers and its creator's trades (one D1 query each, indexed). */
    maxLaunchTrades: 2_000,
    /**
     * Byte budget of the holder scan (one getProgramAccounts sliced to owner + amount, ~130 bytes of JSON per token
     * account): 16 MiB is ~120,000 accounts, the upstream answer cap of getProgramAccounts. Past it the census says
     * `partial` and falls back to the 20 largest accounts.
     */
    holderScanMaxBytes: 16 * 1024 * 1024,
    /** The scan's own time budget (ms): under the request deadline, so a slow scan degrades instead of timing out. */
    holderScanTimeoutMs: 8_000,
    /** LP accounts read for a pool's LP mint: the 20 largest (getTokenLargestAccounts) and their owners. */
    lpOwnersRead: 20,
    /**
     * Byte budget of the scan of a pool's positions (one getProgramAccounts sliced to what decides the figures: DAMM v2
     * 160 bytes, ~340 bytes of JSON a position, 4 MiB ≈ 12,000 positions; Raydium CLMM 88 bytes ≈ 20,000; Orca
     * Whirlpool 56 bytes ≈ 25,000 (its LockConfig scan, 32 bytes, the same budget); Meteora DLMM 1,152 bytes (owner
     * and 70 bin shares, ~1.7 KB of JSON) ≈ 2,400 (its lock_release_point scan, 8 bytes, the same budget)), far above the few dozen a launch pool has. Past it the position
     * figures are left out, saying why.
     */
    positionsScanMaxBytes: 4 * 1024 * 1024,
    /** The position scan's own time budget (ms), under the request deadline like the holder scan's. */
    positionsScanTimeoutMs: 5_000,
    /**
     * Positions whose holder is read: the 20 with the most (unlocked) liquidity. DAMM v2: their NFT accounts, one
     * getMultipleAccounts page. Raydium CLMM and Orca Whirlpool: their NFT mints (one page), then one
     * getTokenLargestAccounts per NFT still in supply (≤ 20 small calls, in parallel), the NFT accounts and their
     * owners (one page each). Meteora DLMM: their owners (one page). A launch pool has a handful of positions; in a
     * busy pool the rest can only add withdrawable liquidity, and the answer names them as unseen.
     */
    positionHoldersRead: 20,
  },
  /** Holders page: 1..100 owners, 50 when not given. */
  holdersMaxLimit: 100,
  holdersDefaultLimit: 50,

  // ---- pubsub hub (pubsub/pubsub-hub.ts: one Durable Object, one upstream PubSub socket, shared subscriptions) ----
  /**
   * Waits before each attempt to open the hub's upstream socket again after it failed or closed (ms), one per
   * consecutive failure: ~3.6 s in all covers a node restart. When every attempt has failed the hub gives up and
   * closes its clients with 1014 (they reconnect, as after a node restart).
   */
  pubSubHubReconnectDelaysMs: [100, 250, 500, 1000, 1750] as readonly number[],
  pubSubHub: {
    /**
     * Hub shards per upstream cluster: a socket goes to the shard of its account (FNV-1a of the account id), so one
     * account's subscriptions are counted exactly in one object and shared there. bench/streams.mjs measures a shard.
     */
    shards: 16,
    /**
     * Client sockets one shard accepts; one more is refused (HTTP 503, JSON-RPC -32051). bench/streams.mjs measures one
     * shard with 1,000 sockets and subscriptions: push delay p50 20–24 ms, p99 45–63 ms on a quiet 2-core machine
     * (p50 189 ms, p99 1.3 s with the machine at load 17); the hub's own bookkeeping is 0.06 µs per copy
     * (bench/pubsub-checks-cpu.ts), the rest is workerd's sends, linear in copies. 2,000 doubles the quiet figures
     * (p99 ~130 ms), still well inside a 400 ms slot; idle sockets cost ~117 KB each (bench), 2,000 ≈ 230 MB.
     */
    socketsPerShard: 2_000,
    /**
     * A socket sent this many bytes since its client last sent anything (a frame or a ping) is a client that does not
     * read: closed (1008), never buffered (workerd shows no `bufferedAmount`). The same figure as /ws.
     */
    maxUnackedBytes: 4 * 1024 * 1024,
    /** Notification copies delivered per credit (a subscribe costs 1 credit; copies are billed per this many, rounded down). */
    notificationsPerCredit: 100,
    /** How often a shard reports the copies it delivered to each account's meter (ms); the meter answers what is left. */
    chargeEveryMs: 5_000,
  },

  // ---- streams: GET /ws and its rooms (src/routes/streams.ts, src/streams/; docs/streams.md) ----
  /**
   * The service's own caps; the plans (src/accounts/plans.ts) set lower ones per account — connections per account,
   * counted exactly by the account's meter, and tokens per subscription (docs/accounts.md). Every cap has
   * a test at N and N+1 (test/unit/streams/stream-room-state.test.ts, test/e2e/streams.protocol.test.ts).
   */
  streams: {
    /**
     * Room shards (`STREAM_ROOM.idFromName("shard-N")`). Workerd caps an object at 32,768 sockets; what a shard can
     * really serve is bound by its one thread and 128 MB: the room's logic costs ~1.2–1.5 µs per delivered frame and
     * ~25 bytes of resume ring per frame kept 60 s (measured, docs/streams.md#capacity), so 2,000 sockets at 10
     * frames/s each (20,000 frames/s) take ~3% of the thread before workerd's own send and ~30 MB of rings.
     * 32 shards × 2,000 = 64,000 sockets with every shard far from both caps.
     */
    shards: 32,
    /** Sockets of one account in one shard: each shard's own backstop (the plan's connections per account are counted across shards by the account's meter). */
    connectionsPerKeyPerShard: 20,
    /** Addresses in one subscribe, whatever the plan (Birdeye allows 100 per connection); plans allow fewer. */
    tokensPerSubscription: 100,
    /** Live subscriptions per socket; their ids and seqs must fit a socket attachment (2,048 bytes, workerd's cap). */
    subscriptionsPerSocket: 25,
    /** Client frames per socket: a token bucket refilled at this rate (per second), holding at most `messageBurst`. */
    messagesPerSecond: 10,
    messageBurst: 20,
    /** Largest client frame read (bytes); bigger ones get an error frame and count as abuse (1009 when it closes). */
    maxFrameBytes: 64 * 1024,
    /** Bad frames (invalid, refused, over the rate) a socket may send; the next one closes it (1008, or 1009 for an oversize frame). */
    maxBadFrames: 10,
    /** A socket upgraded without a key must send `{"apiKey":"..."}` within this (ms), else 1008. */
    authTimeoutMs: 10_000,
    /** Server heartbeat `{"type":"heartbeat"}` to every socket (ms). */
    heartbeatMs: 20_000,
    /** Events kept per subscription for `resume`, and how long a closed socket's subscriptions wait to be resumed (ms). */
    resumeWindowMs: 60_000,
    /** Event data bytes kept per subscription for `resume` (the oldest go first past it). */
    resumeRingBytes: 256 * 1024,
    /**
     * A socket that has been sent this many bytes since the client last sent anything (a frame or an app ping) is
     * taken for a client that does not read and is closed (1008): workerd shows no `bufferedAmount`, so nothing else
     * tells a slow reader from a quiet one. Clients that only listen ping (every 20 s is plenty) to stay.
     */
    maxUnackedBytes: 4 * 1024 * 1024,
  },

  // ---- chain tail (src/streams/chain-tail.ts): follows confirmed blocks for the /ws rooms ----
  chainTail: {
    /** Pause between polls once caught up (ms): about one mainnet slot (400 ms), so a block is read within ~1 slot of confirmation. */
    pollMs: 400,
    /**
     * Slots read back after an outage or eviction, at most (~60 s of mainnet slots at 400 ms): older events would reach
     * clients too late to be live, and a room's resume window is 60 s too. Slots older than this are skipped (logged).
     */
    maxCatchUpSlots: 150,
    /** Blocks read per alarm run (getBlock in flight together, then handled in slot order); the next run starts at once. */
    blocksPerRun: 8,
    /** Backoff after an upstream fault (ms): doubles from the first value up to the second. */
    retryMinMs: 500,
    retryMaxMs: 10_000,
    /** Attempts of one publish to a room (rooms take each position once, so a retry never duplicates), and the step between them. */
    publishAttempts: 3,
    publishRetryMs: 50,
    /** Consecutive failed publishes to a room before its topics are dropped (it registers again on its next setTopics). */
    maxPublishFailures: 5,
    /**
     * Distinct topics one room registers (its sockets' union). A room's set is one storage value: 20,000 topics of ≤ 52
     * chars stay near 1 MB, under the 2 MB a SQLite-backed Durable Object stores per value; more is refused (shard the room).
     */
    maxTopicsPerRoom: 20_000,
    /**
     * Pools the tail remembers having registered (an isolate LRU, ~150 bytes each → ~14,000 pools), so it writes only new
     * ones to D1 (a mainnet block swaps hundreds of known pools). Adds 2 MiB to the isolate caches' 50 MiB.
     */
    registeredPoolsMemoBytes: 2 * 1024 * 1024,
    /**
     * Characters of a room's name in `setTopics`: ours are "shard-N" or a 64-hex Durable Object id; anything longer is
     * not a room and is refused (the name is a storage key, `room:<name>`).
     */
    maxRoomNameLength: 128,
    /**
     * Bytes of an upstream `slotSubscribe` frame the tail reads: a slot notification is ~150 bytes (slot, parent, root);
     * a frame this big is not one and is ignored without parsing, so a misbehaving upstream cannot make the tail read MBs.
     */
    maxSlotNotificationBytes: 4096,
  },

  // ---- accounts: the meter (src/accounts/meter*.ts), rate limits and credits per account (docs/accounts.md#lease-design) ----
  meter: {
    /**
     * A lease (tokens an isolate spends without asking the meter) holds at most this share of the smallest window's
     * limit: each isolate can overshoot or undershoot a window by one lease at most, so with 5 isolates on one account
     * the error stays within 5%. Under `minLeaseRequests` tokens (every real plan's per-second limit) there is no
     * lease: every request asks the meter, and the count is exact.
     */
    leaseFraction: 0.01,
    minLeaseRequests: 2,
    maxLeaseRequests: 10_000,
    /** Credits in one lease, at most this share of the month's credits (they are debited at grant and refunded when the lease ends). */
    leaseCreditFraction: 0.01,
    /** How long a lease may be spent (ms), at most half the shortest window; unspent credits go back when it ends. */
    leaseMs: 1000,
    /** The meter reclaims a lease's unspent credits this long after its end (ms): past any isolate's last spend of it. */
    leaseGraceMs: 1000,
    /** An isolate spending a lease reports its usage to the meter at most this often (ms), in the background. */
    reportEveryMs: 250,
    /**
     * Leases one isolate holds (one per account; ~1 KB each with its usage entries): past this the oldest is settled
     * and dropped. Ended leases of accounts that went quiet are settled by the next request of any account.
     */
    maxIsolateLeases: 1_000,
    /**
     * The windows count a request at its arrival in the isolate (sent with the call), not at the meter: at most this far
     * (ms) behind the meter's clock (isolates' clocks are NTP-synchronised; a call queued longer counts as arriving now).
     */
    maxClockSkewMs: 1000,
    /** A meter call not answered within this (ms) lets the request pass (fail open, logged). */
    callTimeoutMs: 1000,
    /** A /ws connection counted this long (ms) is past its handoff to its room: at the plan's limit, the meter asks that room whether it still holds it. */
    connectionSettleMs: 5000,
    /**
     * While an account holds sockets (/ws or /rpc), its meter reads their keys' records again this often (ms): a
     * revoked key's sockets, and those of a key whose plan or terms changed, are closed at the next check — within
     * 5 s of the change (KV, as the request path reads it, and D1's `revoked_at`).
     */
    keyCheckMs: 3_000,
    /** The meter writes its accumulated usage to D1 this often (ms): one batch, never a write per request. */
    flushMs: 10_000,
  },
  /**
   * Exact quotes (GET /api/v1/quote). A walk reads this many tick arrays (Raydium CLMM: 60 ticks × spacing each) or
   * bin arrays (Meteora DLMM: 70 bins each) from the current one in the swap's direction, one batched read: ten arrays
   * are the walk the CPU budget is measured on (bench), and a swap that needs more answers 422 with the depth read.
   */
  quoteWalkArrays: 10,
  /** Slippage a quote's minimum received may be asked for, in basis points: 0 to 100 % (the default when absent: 50 = 0.5 %). */
  maxQuoteSlippageBps: 10_000,
  defaultQuoteSlippageBps: 50,
  /** Decimal places a `usd` amount may carry: cents and below to a millionth (USDC's and USDT's own precision). */
  maxUsdAmountDecimals: 6,
  /** Exact-output sizes (a buy in tokens, a sell in SOL or USD) search the exact-input swap: at most this many steps (u64 halves in 64). */
  maxQuoteSearchSteps: 70,
} as const;
