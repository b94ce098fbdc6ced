/**
 * The worker must stay deployable on the free plan with room to spare: the bundle `wrangler deploy` uploads, gzipped,
 * stays under 400 KB (the free plan's limit is 3 MB compressed; we were at ~233 KB when this was written). Full `zod`
 * or its locales sneaking in costs ~100 KB, which is what this catches. Static assets (public/) are not part of it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, expect, it } from "vitest";

const maxGzipBytes = 400_000;
const projectRoot = path.resolve(import.meta.dirname, "../../..");
const quietWrangler = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true", WRANGLER_SEND_ERROR_REPORTS: "false" };
let outdir: string | undefined;

afterAll(async () => {
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

it(`the deployed bundle is at most ${maxGzipBytes / 1000} KB gzipped`, async () => {
  // Given the worker bundled exactly as `wrangler deploy` would (npm test has just done so into E2E_WORKER_BUNDLE)
  let bundleDir = process.env.E2E_WORKER_BUNDLE ? path.resolve(projectRoot, process.env.E2E_WORKER_BUNDLE) : undefined;
  if (!bundleDir) {
    bundleDir = outdir = await mkdtemp(path.join(os.tmpdir(), "tmd-bundle-"));
    await promisify(execFile)(path.join(projectRoot, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
      cwd: projectRoot,
      env: { ...process.env, ...quietWrangler },
    });
  }
  // When it is gzipped
  const gzipped = gzipSync(await readFile(path.join(bundleDir, "index.js"))).length;
  console.log(`[bundle] index.js gzipped: ${gzipped} bytes (limit ${maxGzipBytes})`);
  // Then it fits the budget
  expect(gzipped).toBeLessThanOrEqual(maxGzipBytes);
}, 120_000);
