#!/usr/bin/env bash
# The project's test command: type check, bundle check (wrangler deploy --dry-run), then the vitest suite.
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
rm -f .vitest-report.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.vitest-report.json || status=1

if [ -f .vitest-report.json ]; then
  # A suite that fails to load has no failed tests of its own: count it so the line never reads "0 failed" on a red run.
  node -e 'const r=require("./.vitest-report.json");const f=r.numFailedTests||r.numFailedTestSuites;console.log(r.numPassedTests+" passed, "+f+" failed")'
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
