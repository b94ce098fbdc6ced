import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import LaneSequencer from "./test/lanes.ts";

/**
 * Three projects (`npm test` runs them one after another, the worker project as two lanes side by side: scripts/test.sh):
 * - node: pure code (decoders, math, policies) on real mainnet bytes from test/fixtures, localnet driven by real
 *   clients — two files at once;
 * - e2e: the bundled worker served by Miniflare on a free port, for clients that need a real WebSocket server (and
 *   npm start, headless Chromium) — one file at a time, since several measure latency;
 * - worker: the worker under workerd (KV, D1, Cache API, Durable Objects for real), over HTTP against a localnet started
 *   in globalSetup — one localnet per vitest process, so each lane (`--shard=i/n`, split by test/lanes.ts) has its own.
 */
/** The worker's and its tests' dependencies, pre-bundled for the worker project (below). */
const WORKER_PREBUNDLED = [
  "@solana/kit",
  "zod",
  "hono",
  "@modelcontextprotocol/sdk/types.js",
  "@modelcontextprotocol/sdk/server/index.js",
  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
  "fast-check",
  "@noble/hashes/sha256",
  "@noble/hashes/hmac",
  "@noble/hashes/utils",
  "ipaddr.js",
];

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    // Lanes start together (scripts/test.sh sets VITEST_LANE): each keeps its own pre-bundle cache, so two processes
    // never write one cache at once.
    cacheDir: path.join("node_modules/.vite", process.env.VITEST_LANE ?? "default"),
    test: {
      // The machines have 2 cores: the node project's files run two at a time (e2e and worker: one, see each).
      maxWorkers: 2,
      // `--shard=i/n` balances the lanes by each file's measured time (vitest's own split counts files).
      sequence: { sequencer: LaneSequencer },
      projects: [
        {
          test: {
            name: "node",
            environment: "node",
            include: ["test/unit/**/*.test.ts", "test/localnet/**/*.test.ts"],
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
        {
          test: {
            name: "e2e",
            environment: "node",
            include: ["test/e2e/**/*.test.ts"],
            // Each file serves the worker and a chain of its own and some measure latency: one at a time.
            fileParallelism: false,
            // The worker is bundled once for every file (test/e2e/helpers/served-worker.ts).
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
        {
          plugins: [
            cloudflareTest(({ inject }) => ({
              main: "./src/index.ts",
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  LOCALNET_URL: inject("localnetUrl"),
                  UPSTREAM_RPC_URL: inject("localnetUrl"),
                  UPSTREAM_WS_URL: inject("localnetWsUrl"),
                  METADATA_DEV_HOSTS: inject("localnetHost"),
                  HOLDERS_FULL_SCAN: "true",
                  DEVICE_COOKIE_SECRET: "test device-cookie secret (tests only)",
                },
              },
            })),
          ],
          test: {
            name: "worker",
            include: ["test/integration/**/*.test.ts"],
            // Each file gets a new workerd that loads every module anew; pre-bundling the dependencies (kit alone is
            // ~40 packages) into a few files cut that per-file start-up by a third to a half in a measured run.
            deps: { optimizer: { ssr: { enabled: true, include: WORKER_PREBUNDLED } } },
            // One localnet per process: its files run one after another so one file's slot advances never land mid-check in
            // another. Lanes run side by side, each with its own localnet (scripts/test.sh).
            fileParallelism: false,
            globalSetup: ["./test/global-setup.ts"],
            setupFiles: ["./test/apply-migrations.ts"],
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  };
});
