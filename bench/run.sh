#!/usr/bin/env bash
# npm run bench: localnet + the bundled worker under Miniflare (two instances: normal price TTL and TTL 0 for cold
# numbers), then wrk load and latency scripts. Prints numbers; never fails CI (not part of npm test).
# BENCH_ONLY=price stops after the price section; BENCH_ONLY=trade-index runs only the trade index section;
# BENCH_ONLY=streams runs only the live streams section (/rpc PubSub hub, /ws prices confirmed and processed, candles,
# memory per idle connection);
# BENCH_ONLY=security runs only the token safety section (/api/v1/security and /api/v1/holders, cold and warm);
# BENCH_ONLY=derivation runs only the never-seen mint section (derivation CPU, first price of a non-derivable pool's mint);
# BENCH_ONLY=quote runs only the exact quotes section (/api/v1/quote per pool kind, CPU per quote per kind and of the longest walks);
# BENCH_ONLY=windows runs only the windows and agents section (trend lag under npm start conditions, /api/v1/stats latency,
# MCP tool-call overhead vs REST); TREND_LAG_SECONDS sets how long the trend is sampled there (default 90),
# STATS_INDEX_MINUTES how many minutes of block time the index spans before stats are measured (default 5).
# BENCH_SECONDS sets each wrk run's length (default 10).
set -uo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true WRANGLER_SEND_ERROR_REPORTS=false
command -v wrk >/dev/null || { echo "installing wrk"; (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null 2>&1 || { echo "wrk unavailable"; exit 1; }; }

LN_PORT=18899; WS_PORT=18900; PORT=18787; COLD_PORT=18788
# A second localnet (same seed, same world) answering after RTT_MS, like a remote RPC provider, and a TTL-0 worker on it.
RTT_MS=${RTT_MS:-25}; LN_RTT_PORT=18901; WS_RTT_PORT=18902; RTT_COLD_PORT=18789
KEY="tmd_$(node -e 'console.log(require("crypto").randomBytes(24).toString("base64url"))')"
# A FREE-plan key with its rate limits and credits raised far above the bench's load (bench/serve-worker.mjs): the
# limiter runs as for any account with large limits (leases, meter calls), and never refuses.
FREE_KEY="tmd_$(node -e 'console.log(require("crypto").randomBytes(24).toString("base64url"))')"
pids=()
# Each service runs in its own process group (setsid), so cleanup stops it with every child (npx → tsx → node).
cleanup() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT

# Others edit src/ in the same tree: each section says which code it measured.
src_measured() { echo "src at $(git rev-parse --short HEAD), uncommitted changes in src/: $(git status --porcelain -- src | wc -l) files"; }

start_localnet() { # log suffix, port, ws port, then more localnet/main.ts options; waits up to 30 s for its health
  local log=$1 port=$2 ws=$3
  shift 3
  setsid npx tsx localnet/main.ts --port "$port" --ws-port "$ws" --seed 1 "$@" >/tmp/bench-localnet$log.log 2>&1 & pids+=($!)
  for _ in $(seq 1 150); do curl -sf http://127.0.0.1:$port/health >/dev/null && break; sleep 0.2; done
}

# The bench worker; its process group in worker_pgid. A control port (5th) starts its control server (cron, D1, keys).
start_worker() { # port ttl [localnet port] [localnet ws port] [control port]
  local ln=${3:-$LN_PORT} ws=${4:-$WS_PORT}
  PORT=$1 PRICE_CACHE_TTL_MS=$2 CONTROL_PORT=${5:-} BENCH_API_KEY=$KEY BENCH_FREE_API_KEY=$FREE_KEY UPSTREAM_RPC_URL=http://127.0.0.1:$ln UPSTREAM_WS_URL=ws://127.0.0.1:$ws \
    METADATA_DEV_HOSTS=127.0.0.1:$ln setsid node bench/serve-worker.mjs >/tmp/bench-worker-$1.log 2>&1 & pids+=($!)
  worker_pgid=$!
  for _ in $(seq 1 100); do grep -q "^ready" /tmp/bench-worker-$1.log && return 0; sleep 0.2; done
  cat /tmp/bench-worker-$1.log; return 1
}

npx wrangler deploy --dry-run --outdir dist >/tmp/bench-bundle.log 2>&1 || { cat /tmp/bench-bundle.log; exit 1; }
echo "bundle: $(wc -c <dist/index.js) bytes, gzip $(gzip -c dist/index.js | wc -c) bytes"

# The trade index (issue 11): block reading on one core (tsx, in-process localnet), then ingest through the queue, D1
# rows written and read latency against its own worker on a MANUAL localnet (slots and cron runs driven by the script;
# the worker's control server on TI_CONTROL_PORT runs the cron and reads D1).
TI_LN_PORT=18903; TI_WS_PORT=18904; TI_PORT=18790; TI_CONTROL_PORT=18791
trade_index_section() {
  echo; echo "== trade index"
  src_measured
  echo "-- block reading on one core (npx tsx bench/trade-index-parse.ts)"
  npx tsx bench/trade-index-parse.ts 2>/dev/null
  echo "-- ingest through the trade-ingest queue, D1 rows written, read latency (node bench/trade-index.mjs)"
  start_localnet -ti $TI_LN_PORT $TI_WS_PORT --manual
  start_worker $TI_PORT 1000 $TI_LN_PORT $TI_WS_PORT $TI_CONTROL_PORT || return 0
  BASE_URL=http://127.0.0.1:$TI_PORT CONTROL_URL=http://127.0.0.1:$TI_CONTROL_PORT LOCALNET_URL=http://127.0.0.1:$TI_LN_PORT API_KEY=$KEY \
    WORKER_LOG=/tmp/bench-worker-$TI_PORT.log node bench/trade-index.mjs
}
if [ "${BENCH_ONLY:-}" = "trade-index" ]; then trade_index_section; exit 0; fi

# Never-seen mints (issue 21): derivation CPU on one core, then the first price of mints whose only pools cannot be derived
# (found by getProgramAccounts on first ask) against a localnet running the extra world (--extras: quiet, never-traded
# pools), each round on a fresh worker (empty registry).
EX_LN_PORT=18907; EX_WS_PORT=18908; EX_PORT=18794
derivation_section() {
  src_measured
  echo "-- derivation CPU per never-seen mint and per 100-mint list (npx tsx bench/derivation-cpu.ts)"
  npx tsx bench/derivation-cpu.ts 2>/dev/null
  echo "-- first price of a never-seen mint whose only pools are non-derivable (node bench/non-derivable-first-price.mjs)"
  start_localnet -extras $EX_LN_PORT $EX_WS_PORT --slot-ms 2000 --extras
  LOCALNET_URL=http://127.0.0.1:$EX_LN_PORT LOCALNET_WS_URL=ws://127.0.0.1:$EX_WS_PORT API_KEY=$KEY PORT=$EX_PORT \
    timeout 900 node bench/non-derivable-first-price.mjs || echo "non-derivable first price bench ended early (exit $?)"
}
if [ "${BENCH_ONLY:-}" = "derivation" ]; then echo; echo "== never-seen mints"; derivation_section; exit 0; fi

# Live streams (issue 12): its own localnet producing a slot every STREAMS_SLOT_MS (300) and its own worker (the Durable
# Objects PUBSUB_HUB, STREAM_ROOM, CHAIN_TAIL bound by bench/serve-worker.mjs; its control server hands out more keys).
STR_LN_PORT=18905; STR_WS_PORT=18906; STR_PORT=18792; STR_CONTROL_PORT=18793; STREAMS_SLOT_MS=${STREAMS_SLOT_MS:-300}
streams_section() {
  echo; echo "== streams: /rpc PubSub hub push delay, /ws price (confirmed, processed) and candle push delay, memory per idle connection (node bench/streams.mjs)"
  src_measured
  start_localnet -streams $STR_LN_PORT $STR_WS_PORT --slot-ms $STREAMS_SLOT_MS
  start_worker $STR_PORT 1000 $STR_LN_PORT $STR_WS_PORT $STR_CONTROL_PORT || return 0
  sleep 5 # the chain grows past a few dozen slots (the price bench picks the busiest tokens of the last 100)
  BASE_URL=http://127.0.0.1:$STR_PORT LOCALNET_URL=http://127.0.0.1:$STR_LN_PORT LOCALNET_WS_URL=ws://127.0.0.1:$STR_WS_PORT API_KEY=$KEY \
    CONTROL_URL=http://127.0.0.1:$STR_CONTROL_PORT WORKER_PGID=$worker_pgid SLOT_MS=$STREAMS_SLOT_MS timeout 900 node bench/streams.mjs \
    || echo "streams bench ended early (exit $?)"
  echo "-- /rpc WebSocket plan checks on one core (npx tsx bench/pubsub-checks-cpu.ts)"
  npx tsx bench/pubsub-checks-cpu.ts 2>/dev/null
}
if [ "${BENCH_ONLY:-}" = "streams" ]; then streams_section; exit 0; fi

# Windows and agents: its own localnet producing a slot every 400 ms in real time with the extras world, as npm start runs
# it, and its own worker whose cron runs every 10 s as npm start drives it (bench/cron-driver.mjs, through the control
# server): the trend's lag behind the chain, then /api/v1/stats against the index that built up, then MCP tool calls vs
# the same REST GETs.
WIN_LN_PORT=18909; WIN_WS_PORT=18910; WIN_PORT=18795; WIN_CONTROL_PORT=18796
windows_section() {
  echo; echo "== windows and agents: trend lag under npm start conditions, /api/v1/stats, MCP tool-call overhead vs REST"
  src_measured
  start_localnet -windows $WIN_LN_PORT $WIN_WS_PORT --extras
  start_worker $WIN_PORT 1000 $WIN_LN_PORT $WIN_WS_PORT $WIN_CONTROL_PORT || return 0
  local urls="BASE_URL=http://127.0.0.1:$WIN_PORT CONTROL_URL=http://127.0.0.1:$WIN_CONTROL_PORT LOCALNET_URL=http://127.0.0.1:$WIN_LN_PORT API_KEY=$KEY"
  echo "-- trend lag, sampled every 3 s for ${TREND_LAG_SECONDS:-90} s (node bench/trend-lag.mjs)"
  env $urls timeout 600 node bench/trend-lag.mjs || echo "trend lag bench ended early (exit $?)"
  echo "-- /api/v1/stats (node bench/stats.mjs)"
  env $urls timeout 600 node bench/stats.mjs || echo "stats bench ended early (exit $?)"
  echo "-- MCP tools/call vs the REST GET (node bench/mcp.mjs)"
  env $urls timeout 600 node bench/mcp.mjs || echo "MCP bench ended early (exit $?)"
}
if [ "${BENCH_ONLY:-}" = "windows" ]; then windows_section; exit 0; fi

# Exact quotes (issue 22): per pool kind, latency warm and cold, the worker's own time, upstream requests per cold quote;
# then the CPU per quote: the longest walks (DLMM and CLMM across 10 arrays, Whirlpool across 3) and every kind on a world
# pool. Its own localnet runs the extra world (--extras: LaunchLab curves and Whirlpools besides every other kind), with a
# worker of normal TTL and one of TTL 0 on it.
# (free ports picked at start: several worktrees of this project bench on the same machine)
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
quote_section() {
  local QX_LN_PORT QX_WS_PORT QX_PORT QX_COLD_PORT
  QX_LN_PORT=$(free_port); QX_WS_PORT=$(free_port); QX_PORT=$(free_port); QX_COLD_PORT=$(free_port)
  echo; echo "== quote: per pool kind, extra world (node bench/quote.mjs)"
  src_measured
  start_localnet -quote $QX_LN_PORT $QX_WS_PORT --slot-ms 2000 --extras
  start_worker $QX_PORT 1000 $QX_LN_PORT $QX_WS_PORT || return 0
  start_worker $QX_COLD_PORT 0 $QX_LN_PORT $QX_WS_PORT || return 0
  BASE_URL=http://127.0.0.1:$QX_PORT COLD_BASE_URL=http://127.0.0.1:$QX_COLD_PORT LOCALNET_URL=http://127.0.0.1:$QX_LN_PORT API_KEY=$KEY node bench/quote.mjs
  echo "-- CPU per quote: the longest walks, then every kind on a world pool (npx tsx bench/quote-walk-cpu.ts)"
  BASE_URL=http://127.0.0.1:$QX_PORT LOCALNET_URL=http://127.0.0.1:$QX_LN_PORT API_KEY=$KEY npx tsx bench/quote-walk-cpu.ts 2>/tmp/bench-quote-walk.err \
    || { echo "quote CPU bench ended early:"; tail -5 /tmp/bench-quote-walk.err; }
}
if [ "${BENCH_ONLY:-}" = "quote" ]; then quote_section; exit 0; fi

# 2 s slots: the chain stays live (fresh oracle, new swaps) without its block production competing with wrk for the 2 cores.
setsid npx tsx localnet/main.ts --port $LN_PORT --ws-port $WS_PORT --seed 1 --slot-ms 2000 >/tmp/bench-localnet.log 2>&1 & pids+=($!)
setsid npx tsx localnet/main.ts --port $LN_RTT_PORT --ws-port $WS_RTT_PORT --seed 1 --manual --latency-ms $RTT_MS >/tmp/bench-localnet-rtt.log 2>&1 & pids+=($!)
for _ in $(seq 1 100); do curl -sf http://127.0.0.1:$LN_PORT/health >/dev/null && curl -sf http://127.0.0.1:$LN_RTT_PORT/health >/dev/null && break; sleep 0.2; done
start_worker $PORT 1000 || exit 1
start_worker $COLD_PORT 0 || exit 1
start_worker $RTT_COLD_PORT 0 $LN_RTT_PORT || exit 1
BASE=http://127.0.0.1:$PORT
if [ "${BENCH_ONLY:-}" = "security" ]; then
  echo; echo "== security (node bench/security.mjs)"
  BASE_URL=$BASE LOCALNET_URL=http://127.0.0.1:$LN_PORT API_KEY=$KEY node bench/security.mjs
  exit 0
fi
MINT=$(curl -s http://127.0.0.1:$LN_PORT/__localnet/world | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const w=JSON.parse(s);const t=w.tokens.find(t=>t.venues.includes("pumpswap"))||w.tokens[0];console.log(t.mint)})')
curl -s -H "x-api-key: $KEY" "$BASE/api/v1/price?ca=$MINT" >/dev/null
curl -s -H "x-api-key: $FREE_KEY" "$BASE/api/v1/price?ca=$MINT" >/dev/null

echo; echo "== trivial route vs warm price with the plan limiter on (FREE-plan key, limits far above the load) (wrk -t1 -c50 -d${BENCH_SECONDS:-10}s, interleaved 3 rounds, same run)"
: >/tmp/bench-wrk.txt
for round in 1 2 3; do
  bench/wrk-report.sh "GET /health" "$BASE/health" | tee -a /tmp/bench-wrk.txt
  bench/wrk-report.sh "GET /api/v1/price (warm, metered)" "$BASE/api/v1/price?ca=$MINT" -H "x-api-key: $FREE_KEY" | tee -a /tmp/bench-wrk.txt
done
node -e '
const lines=require("fs").readFileSync("/tmp/bench-wrk.txt","utf8").trim().split("\n");
const rps=(label)=>lines.filter(l=>l.startsWith(label)).map(l=>Number(l.split(/\s+/).find((w,i,a)=>a[i+1]==="req/s"))).sort((a,b)=>a-b);
const med=(a)=>a[Math.floor(a.length/2)];
const h=med(rps("GET /health")), p=med(rps("GET /api/v1/price"));
console.log(`median req/s: /health ${h}, warm price ${p}, ratio ${(p/h).toFixed(2)}x (issue 13 asks >= 0.75x with the limiter on: ${p/h >= 0.75 ? "met" : "NOT met"})`);'

echo; echo "== the plan limiter on the warm price path (node bench/meter.mjs)"
BASE_URL=$BASE API_KEY=$FREE_KEY LOCALNET_URL=http://127.0.0.1:$LN_PORT node bench/meter.mjs
npx tsx bench/meter-lease-cpu.ts 2>/dev/null


echo; echo "== price: cold latency and upstream requests"
BASE_URL=$BASE COLD_BASE_URL=http://127.0.0.1:$COLD_PORT LOCALNET_URL=http://127.0.0.1:$LN_PORT API_KEY=$KEY node bench/price.mjs
echo "-- with a ${RTT_MS} ms upstream round trip (localnet --latency-ms $RTT_MS), as from a worker to a hosted RPC provider"
BASE_URL=$BASE COLD_BASE_URL=http://127.0.0.1:$RTT_COLD_PORT LOCALNET_URL=http://127.0.0.1:$LN_RTT_PORT API_KEY=$KEY N=100 COLD_ONLY=1 node bench/price.mjs

[ "${BENCH_ONLY:-}" = "price" ] && exit 0
for extra in rpc overview security; do
  if [ -f bench/$extra.mjs ]; then
    echo; echo "== $extra"
    BASE_URL=$BASE LOCALNET_URL=http://127.0.0.1:$LN_PORT API_KEY=$KEY node bench/$extra.mjs
  fi
done

quote_section

echo; echo "== decode + price per pool kind (vitest bench, real mainnet bytes)"
npx vitest bench --run --project node 2>&1 | grep -E "·|name|hz" | head -40

echo; echo "== never-seen mints: derivation CPU, and worker memory after 20,000 of them"
derivation_section
BASE_URL=$BASE API_KEY=$KEY node bench/never-seen-mints.mjs

echo; echo "== localnet memory: 1,500 slots (10 min at 400 ms) produced in manual mode, RSS and retained counts every 250"
npx tsx --expose-gc bench/localnet-memory.ts 2>/dev/null

trade_index_section

streams_section

windows_section

echo; echo "== robustness: chaos, fuzz and memory tests (their counts)"
npx vitest run test/integration/core.chaos.test.ts test/integration/core.memory.test.ts test/integration/rest.fuzz.*.test.ts test/integration/rpc.fuzz.test.ts 2>&1 \
  | grep -E '\{"(chaos|mints)"|seed|statuses|Tests ' | cut -c1-600
