import { buildApp } from "./app";
import type { Env } from "./env";

export { StreamRoom } from "./streams/stream-room";

const app = buildApp();

export default {
  fetch: app.fetch,
  async scheduled(_controller: ScheduledController, _env: Env, _ctx: ExecutionContext): Promise<void> {},
} satisfies ExportedHandler<Env>;
