/**
 * Stage durations of one request, sent as `Server-Timing` (W3C Server Timing) so a caller — and `npm run bench` —
 * sees where a cold answer spends its time. Stages may overlap (they run in parallel); `total` is the whole request.
 *
 * Workers clocks advance only across I/O (timers are frozen while JavaScript runs, a Spectre mitigation), so on
 * Cloudflare a stage that is pure CPU (decode) reads 0 and I/O stages (cache, registry, upstream) read their wait.
 */
export const stages = ["auth", "meter", "cache", "candidates", "registry", "upstream", "decode"] as const;
export type Stage = (typeof stages)[number];

export class StageTimings {
  private readonly totals = new Map<Stage, number>();
  private readonly counts = new Map<Stage, number>();
  private readonly startedAt = performance.now();

  add(stage: Stage, ms: number): void {
    this.totals.set(stage, (this.totals.get(stage) ?? 0) + ms);
    this.counts.set(stage, (this.counts.get(stage) ?? 0) + 1);
  }

  /** Times `work` (a promise, or a function whose result may be a promise) under `stage`. */
  async time<T>(stage: Stage, work: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  /** Synchronous work (decoding): same as `time` without a promise. */
  timeSync<T>(stage: Stage, work: () => T): T {
    const start = performance.now();
    try {
      return work();
    } finally {
      this.add(stage, performance.now() - start);
    }
  }

  /** `auth;dur=0.3, upstream;dur=2.1;desc="2 calls", total;dur=3.0` — stages in a fixed order, only those that ran. */
  header(): string {
    const parts: string[] = [];
    for (const stage of stages) {
      const ms = this.totals.get(stage);
      if (ms === undefined) continue;
      const count = this.counts.get(stage)!;
      parts.push(`${stage};dur=${ms.toFixed(1)}${count > 1 ? `;desc="${count} calls"` : ""}`);
    }
    parts.push(`total;dur=${(performance.now() - this.startedAt).toFixed(1)}`);
    return parts.join(", ");
  }
}

/** Timings that record nothing, for callers outside a request (cron, tests of the service alone). */
export const noTimings: Pick<StageTimings, "time" | "timeSync" | "add"> = {
  time: async (_stage, work) => work(),
  timeSync: (_stage, work) => work(),
  add: () => undefined,
};
export type Timings = Pick<StageTimings, "time" | "timeSync" | "add">;
