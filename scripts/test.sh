#!/usr/bin/env bash
# The project's test command: type check, bundle check (wrangler deploy --dry-run), then the vitest suite.
# Needs Chromium for the browser tests (README: Tests; CHROMIUM_PATH names another binary).
# Ends with the "N passed, N failed" line CI reads.
set -uo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true WRANGLER_SEND_ERROR_REPORTS=false

status=0
# Every step that fails is named again at the end: a run can fail outside the tests (type check, bundle, a vitest
# process that exits non-zero on an error outside any test) while every test passed.
failed_steps=()
fail() { status=1; failed_steps+=("$1"); }
test_started=$(date +%s)
echo "== type check"
npx tsc --noEmit || fail "type check (tsc --noEmit)"
npx tsc --noEmit -p localnet/tsconfig.json || fail "type check (localnet)"

echo "== static assets (Swagger UI for /docs, copied from node_modules)"
node scripts/copy-docs-assets.mjs || fail "static assets"

echo "== bundle (wrangler deploy --dry-run; its gzipped size is checked by test/unit/scripts/bundle-size.test.ts)"
npx wrangler deploy --dry-run --outdir dist >/tmp/deploy-dry-run.log 2>&1 || { cat /tmp/deploy-dry-run.log; fail "bundle (wrangler deploy --dry-run)"; }
grep -E "Total Upload|gzip" /tmp/deploy-dry-run.log || true
[ -f dist/index.js ] && echo "dist/index.js gzipped: $(gzip -c dist/index.js | wc -c) bytes (limit 400000)"

echo "== vitest"
# The machines have 2 cores. The e2e files mostly wait (on slots, sockets, npm start): they run as two lanes in the
# background from the start, beside the node project (two files at a time) and then the worker project's two lanes
# (each its own vitest process with its own localnet, test/global-setup.ts; split by expected time, test/lanes.ts).
# The worker files that time themselves against the clock run last, alone. Each lane writes a blob report; they are
# merged into .vitest-report.json for the count below. Blobs sit alone in their folder (--merge-reports reads every
# file there); the lanes' console output goes beside it.
reports=.vitest-reports/blobs
logs=.vitest-reports
rm -rf "$logs" .vitest-report.json
mkdir -p "$reports"
started=$(date +%s)
phase() { echo "-- $1: $(( $(date +%s) - started )) s since the suite started"; }
blobs=(node worker-alone)

# lane PROJECT NAME [vitest args…]: one vitest process in the background, its output to $logs/NAME.log
lane() {
  local project=$1 name=$2
  shift 2
  VITEST_LANE="$name" npx vitest run --project "$project" "$@" --reporter=default --reporter=blob --outputFile.blob="$reports/$name.blob" >"$logs/$name.log" 2>&1 &
  pids+=($!)
  names+=("$name")
  blobs+=("$name")
}
# settle: waits for the lanes started since the last settle, then prints their output
settle() {
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || fail "vitest lane ${names[$i]} exited non-zero"
    echo "---- ${names[$i]}"
    cat "$logs/${names[$i]}.log"
  done
  pids=()
  names=()
}

# The e2e lanes serve the bundle made above instead of each bundling again (test/e2e/global-setup.ts).
export E2E_WORKER_BUNDLE=dist
e2e_lanes=2
pids=()
names=()
for i in $(seq 1 $e2e_lanes); do lane e2e "e2e-$i" --shard="$i/$e2e_lanes"; done
e2e_pids=("${pids[@]}")
e2e_names=("${names[@]}")
pids=()
names=()

phase "node (e2e lanes beside it)"
npx vitest run --project node --reporter=default --reporter=blob --outputFile.blob="$reports/node.blob" || fail "vitest node project exited non-zero"

phase "worker (2 lanes, e2e beside them)"
worker_lanes=2
for i in $(seq 1 $worker_lanes); do lane worker "worker-$i" --shard="$i/$worker_lanes"; done
settle

phase "e2e (waiting for its lanes)"
pids=("${e2e_pids[@]}")
names=("${e2e_names[@]}")
settle

# Files that time themselves against the wall clock run alone, with nothing beside them (test/lanes.ts ALONE_FILES).
phase "worker (alone)"
alone=$(npx tsx -e 'import("./test/lanes.ts").then((m) => console.log(m.ALONE_FILES.join(" ")))')
npx vitest run --project worker $alone --reporter=default --reporter=blob --outputFile.blob="$reports/worker-alone.blob" || fail "vitest worker-alone exited non-zero"
phase "done"

npx vitest run --merge-reports="$reports" --reporter=json --outputFile.json=.vitest-report.json >/dev/null 2>&1 || true

missing=0
for blob in "${blobs[@]}"; do
  [ -f "$reports/$blob.blob" ] || { echo "no report from $blob: it did not finish"; missing=$((missing + 1)); fail "no report from $blob"; }
done
for step in "${failed_steps[@]}"; do echo "FAILED step: $step"; done
if [ -f .vitest-report.json ]; then
  # A suite that fails to load has no failed tests of its own, and a phase that died wrote no report: count both so the
  # line never reads "0 failed" on a red run.
  # The failures again, last, where a reader of only the end of the output sees them: the message and its diff
  # (the stack left out), so a failure seen only in a CI tail says what it saw.
  node -e 'const r=require("./.vitest-report.json");for(const f of r.testResults||[]){const t=(f.assertionResults||[]).filter((a)=>a.status==="failed");if(f.status==="failed"&&!t.length)console.log("FAILED (file did not load) "+f.name.replace(process.cwd()+"/","")+": "+String(f.message||"").split("\n")[0].slice(0,300));for(const a of t){const m=String((a.failureMessages||[])[0]||"").split("\n").filter((l)=>!/^\s+at /.test(l));console.log("FAILED "+f.name.replace(process.cwd()+"/","")+" > "+a.fullName+": "+m[0].slice(0,300));for(const l of m.slice(1,24))if(l.trim())console.log("    "+l.slice(0,400))}}'
  echo "npm test took $(( $(date +%s) - test_started )) s (type check, bundle and every test)"
  # A failed step with no failed test (type check, bundle, a lane's error outside the tests) counts as a failure.
  MISSING=$missing STEPS=${#failed_steps[@]} node -e 'const r=require("./.vitest-report.json");let f=(r.numFailedTests||r.numFailedTestSuites)+Number(process.env.MISSING);if(f===0)f=Number(process.env.STEPS);console.log(r.numPassedTests+" passed, "+f+" failed")'
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
