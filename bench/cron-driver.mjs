// The cron as `npm start` runs it (scripts/lib/cron-driver.ts: the scheduled handler now, then every intervalMs, a run
// still in flight never overlapped: that tick is skipped), but through the bench worker's control server
// (bench/serve-worker.mjs POST /__bench/scheduled) instead of wrangler dev's /__scheduled. Keeps each run's time and outcome.
export function startBenchCron(controlUrl, intervalMs) {
  const runs = []; // { ms, outcome }
  let skipped = 0;
  let failures = 0;
  let inFlight;
  const tick = () => {
    if (inFlight) return void skipped++;
    inFlight = (async () => {
      try {
        const res = await fetch(`${controlUrl}/__bench/scheduled`, { method: "POST" });
        const body = await res.json();
        if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
        runs.push({ ms: body.ms, outcome: body.outcome });
        if (body.outcome !== "ok") failures++;
      } catch (err) {
        failures++;
        console.log(`cron run failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        inFlight = undefined;
      }
    })();
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    runs,
    get skipped() {
      return skipped;
    },
    get failures() {
      return failures;
    },
    /** Stops the ticks and waits for a run in flight. */
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

/** Nearest-rank percentile (as test/e2e/trend.npm-start.test.ts takes its p95) of ascending `sorted`, q in (0, 1]. */
export const nearestRank = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
