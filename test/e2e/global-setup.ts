// Runs in Node once per e2e run: the worker bundled, and wrangler.toml read, a single time for every file that serves
// the worker (helpers/served-worker.ts).
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildWorkerBundle, wranglerWorkerOptions } from "./helpers/served-worker";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's `wrangler deploy --dry-run` bundle (dir holds index.js) and wrangler.toml's Miniflare options, read-only. */
    e2eWorkerBundle: { dir: string; workerOptions: Record<string, unknown> } | undefined;
  }
}

/**
 * `E2E_WORKER_BUNDLE` names a bundle made already (scripts/test.sh points it at the `wrangler deploy --dry-run` it just
 * ran, so its e2e lanes do not each bundle again); it is only read, never removed.
 */
export default async function setup(project: TestProject) {
  const given = process.env.E2E_WORKER_BUNDLE;
  const made = given && existsSync(path.join(given, "index.js")) ? undefined : await buildWorkerBundle();
  const dir = made ?? path.resolve(given!);
  project.provide("e2eWorkerBundle", { dir, workerOptions: await wranglerWorkerOptions() });
  return async () => {
    if (made) await rm(made, { recursive: true, force: true });
  };
}
