#!/usr/bin/env bash
# The project's test command: type check, bundle check (wrangler deploy --dry-run), then the vitest suite.
# Needs Chromium for the browser tests (README: Tests; CHROMIUM_PATH names another binary).
# Ends with the "N passed, N failed" line CI reads.
set -uo pipefail
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true WRANGLER_SEND_ERROR_REPORTS=false

status=0
echo "== type check"
npx tsc --noEmit || status=1
npx tsc --noEmit -p localnet/tsconfig.json || status=1

echo "== static assets (Swagger UI for /docs, copied from node_modules)"
node scripts/copy-docs-assets.mjs || status=1

echo "== bundle (wrangler deploy --dry-run; its gzipped size is checked by test/unit/scripts/bundle-size.test.ts)"
npx wrangler deploy --dry-run --outdir dist >/tmp/deploy-dry-run.log 2>&1 || { cat /tmp/deploy-dry-run.log; status=1; }
grep -E "Total Upload|gzip" /tmp/deploy-dry-run.log || true
[ -f dist/index.js ] && echo "dist/index.js gzipped: $(gzip -c dist/index.js | wc -c) bytes (limit 400000)"

echo "== vitest"
# Four phases, one after another (the machines have 2 cores): the node project (two files at a time); the worker
# project as two lanes side by side, each its own vitest process with its own localnet (test/global-setup.ts), split by
# expected time (test/lanes.ts); the worker files that time themselves against the clock, alone; the e2e project, one
# file at a time (several measure latency). Each phase writes a blob report; they are merged into .vitest-report.json
# for the count below.
# Blobs alone in their folder: --merge-reports reads every file there. The lanes' console output goes beside it.
reports=.vitest-reports/blobs
logs=.vitest-reports
rm -rf "$logs" .vitest-report.json
mkdir -p "$reports"
started=$(date +%s)
phase() { echo "-- $1: $(( $(date +%s) - started )) s since the suite started"; }

phase "node"
npx vitest run --project node --reporter=default --reporter=blob --outputFile.blob="$reports/node.blob" || status=1

phase "worker (2 lanes)"
lanes=2
pids=()
for lane in $(seq 1 $lanes); do
  npx vitest run --project worker --shard="$lane/$lanes" --reporter=default --reporter=blob --outputFile.blob="$reports/worker-$lane.blob" \
    >"$logs/worker-$lane.log" 2>&1 &
  pids+=($!)
done
for lane in $(seq 1 $lanes); do
  wait "${pids[$((lane - 1))]}" || status=1
  echo "---- worker lane $lane/$lanes"
  cat "$logs/worker-$lane.log"
done

# Files that time themselves against the wall clock run alone, with no lane beside them (test/lanes.ts ALONE_FILES).
phase "worker (alone)"
alone=$(npx tsx -e 'import("./test/lanes.ts").then((m) => console.log(m.ALONE_FILES.join(" ")))')
npx vitest run --project worker $alone --reporter=default --reporter=blob --outputFile.blob="$reports/worker-alone.blob" || status=1

phase "e2e"
npx vitest run --project e2e --reporter=default --reporter=blob --outputFile.blob="$reports/e2e.blob" || status=1
phase "done"

npx vitest run --merge-reports="$reports" --reporter=json --outputFile.json=.vitest-report.json >/dev/null 2>&1 || true

missing=0
for blob in node worker-1 worker-2 worker-alone e2e; do
  [ -f "$reports/$blob.blob" ] || { echo "no report from $blob: it did not finish"; missing=$((missing + 1)); status=1; }
done
if [ -f .vitest-report.json ]; then
  # A suite that fails to load has no failed tests of its own, and a phase that died wrote no report: count both so the
  # line never reads "0 failed" on a red run.
  MISSING=$missing node -e 'const r=require("./.vitest-report.json");const f=(r.numFailedTests||r.numFailedTestSuites)+Number(process.env.MISSING);console.log(r.numPassedTests+" passed, "+f+" failed")'
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
