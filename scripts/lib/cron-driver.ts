/**
 * `wrangler dev` never fires the cron triggers of `wrangler.toml`, so under `npm start` the pool registry (filled by
 * the scheduled handler) would stay empty and registry-only pools (Raydium AMM v4, Meteora DBC, non-wSOL quotes) would
 * never be priced. This drives the handler through the test route `wrangler dev --test-scheduled` exposes, which runs
 * `scheduled()` as the cron would. Not `/cdn-cgi/handler/scheduled`: with static assets (`[assets]`, the /docs page)
 * wrangler 4.86 answers that route 500 "exception" without running the handler; `/__scheduled` reaches it.
 */
export const SCHEDULED_PATH = "/__scheduled?cron=*+*+*+*+*";
/** The `wrangler dev` flag that exposes SCHEDULED_PATH. */
export const SCHEDULED_FLAG = "--test-scheduled";
export const DEFAULT_CRON_INTERVAL_MS = 10_000;

/** `CRON_INTERVAL_MS`: unset → 10 s; `0` → no cron; anything but a whole number of ms ≥ 0 is refused. */
export function parseCronInterval(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_CRON_INTERVAL_MS;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`CRON_INTERVAL_MS must be a whole number of milliseconds (0 turns the cron off), not ${JSON.stringify(raw)}`);
  return Number(raw.trim());
}

export interface CronDriver {
  stop(): void;
  /** Runs that the worker answered with a 2xx. */
  readonly runs: number;
}

/**
 * Runs the scheduled handler of the worker at `base` now and then every `intervalMs`; a run still in flight is never
 * overlapped (the next tick is skipped). Logs the first success and each change between working and failing, not
 * every tick.
 */
export function startCronDriver(base: string, intervalMs: number, log: (msg: string) => void): CronDriver {
  let runs = 0;
  let inFlight = false;
  let failing: boolean | undefined;
  const tick = async () => {
    if (inFlight) return;
    inFlight = true;
    try {
      const res = await fetch(`${base}${SCHEDULED_PATH}`, { signal: AbortSignal.timeout(Math.max(intervalMs, 5_000)) });
      const body = await res.text();
      // The assets router answers unknown paths itself: only the handler's own reply counts as a run.
      if (!res.ok || !body.includes("Ran scheduled event")) throw new Error(`HTTP ${res.status} ${JSON.stringify(body.slice(0, 60))}`);
      runs++;
      if (failing !== false) log(`cron: scheduled handler ran (every ${intervalMs / 1000} s via ${SCHEDULED_PATH})`);
      failing = false;
    } catch (err) {
      if (failing !== true) log(`cron: scheduled handler failed (${err instanceof Error ? err.message : String(err)}); retrying every ${intervalMs / 1000} s`);
      failing = true;
    } finally {
      inFlight = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    get runs() {
      return runs;
    },
  };
}
