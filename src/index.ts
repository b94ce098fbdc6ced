import { buildApp } from "./app";
import type { Env } from "./env";
import { servicesOf } from "./services";
import { ingestRecentBlocks } from "./pool-registry/block-ingest";

const app = buildApp();

export default {
  fetch: app.fetch,
  /** Cron: learn the pools that trade now (the registry behind non-derivable pool kinds). */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil(
      ingestRecentBlocks(env.DB, servicesOf(env).upstream).then(
        (report) => console.log(JSON.stringify({ level: "info", cron: "pools", ...report })),
        (err: unknown) => console.error(JSON.stringify({ level: "error", cron: "pools", error: err instanceof Error ? err.message : String(err) })),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
