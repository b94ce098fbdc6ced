// Runs in Node once per e2e run: the worker bundled, and wrangler.toml read, a single time for every file that serves
// the worker (helpers/served-worker.ts).
import { rm } from "node:fs/promises";
import type { TestProject } from "vitest/node";
import { buildWorkerBundle, wranglerWorkerOptions } from "./helpers/served-worker";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's `wrangler deploy --dry-run` bundle (dir holds index.js) and wrangler.toml's Miniflare options, read-only. */
    e2eWorkerBundle: { dir: string; workerOptions: Record<string, unknown> } | undefined;
  }
}

export default async function setup(project: TestProject) {
  const [dir, workerOptions] = await Promise.all([buildWorkerBundle(), wranglerWorkerOptions()]);
  project.provide("e2eWorkerBundle", { dir, workerOptions });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
