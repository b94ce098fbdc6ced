/**
 * How `vitest run --shard=i/n` splits files into lanes (scripts/test.sh runs the worker project as two lanes side by
 * side, each a vitest process with a localnet of its own from test/global-setup.ts, and the e2e project as two more). vitest's own split puts the same
 * number of files in each lane, in hash order: one lane can get the three slowest files. This one balances the lanes'
 * expected time instead (longest file first, each into the least loaded lane), from the seconds each file took in a
 * measured run below. The split depends only on the file list and this table, so every lane computes the same one and
 * each file runs in exactly one lane; a file the table does not know counts as the table's median.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds per file (setup excluded) measured in a run of the worker project on a busy 2-core machine, two lanes
 * (`npm test`, 2026-11-27): only their ratios matter. The slowest files are listed; the rest take a few seconds to half a
 * minute each and count as the median.
 */
export const FILE_SECONDS: Readonly<Record<string, number>> = {
  // The REST fuzz, one file per two routes (test/helpers/rest-fuzz.ts): ~60 s each in a lane.
  "test/integration/rest.fuzz.price-and-curve.test.ts": 247,
  "test/integration/rest.fuzz.raydium-meteora.test.ts": 247,
  "test/integration/rest.fuzz.pumpswap-overview.test.ts": 247,
  "test/integration/rpc.fuzz.test.ts": 177,
  "test/integration/overview.happy.test.ts": 153,
  "test/integration/index.ground-truth.test.ts": 134,
  "test/integration/streams.chain-tail.test.ts": 53,
  "test/integration/rpc.upstream-rules.test.ts": 41,
  "test/integration/accounts.sessions.test.ts": 41,
  "test/integration/price.happy.test.ts": 38,
  "test/integration/core.memory.test.ts": 38,
  "test/integration/accounts.signup.test.ts": 36,
  "test/integration/core.chaos.test.ts": 35,
  "test/integration/core.hangs.test.ts": 33,
  "test/integration/accounts.keys.test.ts": 31,
  "test/integration/overview.upstream.test.ts": 30,
  "test/integration/cron.registry-memo.test.ts": 30,
  "test/integration/price.sol-usd.test.ts": 25,
  "test/integration/price.every-token.test.ts": 25,
  "test/integration/accounts.rate-limits.test.ts": 25,
  "test/integration/overview.ssrf.test.ts": 16,
  "test/integration/rpc.clients.test.ts": 15,
  "test/integration/accounts.credits.test.ts": 12,
  "test/integration/rpc.conformance.test.ts": 11,
  // e2e files, setup included (one e2e lane, 2026-11-28, a busy machine)
  "test/e2e/trend.npm-start.test.ts": 98,
  "test/e2e/plan-limits.free-key.test.ts": 68,
  "test/e2e/start.npm-start.test.ts": 48,
  "test/e2e/rpc.pubsub-fuzz.test.ts": 48,
  "test/e2e/streams.protocol.test.ts": 36,
  "test/e2e/streams.fuzz.test.ts": 30,
  "test/e2e/streams.chain.test.ts": 28,
  "test/e2e/streams.new-pairs.test.ts": 22,
  "test/e2e/rpc.pubsub-sharing.test.ts": 20,
  "test/e2e/rpc.pubsub-delivery.test.ts": 20,
  "test/e2e/docs.page.test.ts": 20,
  "test/e2e/dashboard.browser.test.ts": 20,
  "test/e2e/rpc.pubsub-hibernation.test.ts": 20,
  "test/e2e/rpc.pubsub-clients.test.ts": 11,
  "test/e2e/streams.price-snapshot.test.ts": 11,
  "test/e2e/rpc.pubsub.test.ts": 8,
  "test/e2e/cron.wrangler-dev.test.ts": 8,
  "test/e2e/streams.plan-limits.test.ts": 5,
};

/**
 * Worker files that measure timing against the wall clock (the plan limiter's accuracy: accepted requests within
 * ±5 % of the ideal at 0.9×–4× load) or need a quiet machine, and so run alone, after the lanes, with no second workerd beside them. The lanes
 * leave them out; scripts/test.sh runs them in a phase of their own.
 */
export const ALONE_FILES: readonly string[] = [
  "test/integration/accounts.rate-limits.test.ts",
  // Its room must stay in memory through ~30 s of waits: beside the lanes workerd evicted the room mid-test, and the
  // test's own WebSocket (a client inside the same workerd) does not survive an eviction as a real client's does.
  "test/integration/streams.idle-tail.test.ts",
];

const MEDIAN_SECONDS = median(Object.values(FILE_SECONDS));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Splits `files` (paths relative to the root) into `count` lanes by expected time; returns each lane's files. */
export function splitIntoLanes(files: readonly string[], count: number, seconds: Readonly<Record<string, number>> = FILE_SECONDS): string[][] {
  const fallback = median(Object.values(seconds));
  const weighted = files.map((file) => ({ file, weight: seconds[file] ?? fallback }));
  weighted.sort((a, b) => b.weight - a.weight || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const lanes = Array.from({ length: count }, () => ({ load: 0, files: [] as string[] }));
  for (const { file, weight } of weighted) {
    let target = lanes[0]!;
    for (const lane of lanes) if (lane.load < target.load) target = lane;
    target.load += weight;
    target.files.push(file);
  }
  return lanes.map((lane) => lane.files);
}

export default class LaneSequencer extends BaseSequencer {
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { index, count } = this.ctx.config.shard!;
    const root = this.ctx.config.root;
    const pathOf = (spec: TestSpecification) => relative(root, spec.moduleId).split("\\").join("/");
    const alone = new Set(ALONE_FILES);
    const byKey = new Map(files.filter((spec) => !alone.has(pathOf(spec))).map((spec) => [`${spec.project.name}:${pathOf(spec)}`, spec]));
    // Keys carry the project so one file in two projects is two entries; the table is keyed by path alone.
    const seconds = Object.fromEntries([...byKey.keys()].map((k) => [k, FILE_SECONDS[k.slice(k.indexOf(":") + 1)] ?? MEDIAN_SECONDS]));
    const lanes = splitIntoLanes([...byKey.keys()], count, seconds);
    return lanes[index - 1]!.map((k) => byKey.get(k)!);
  }
}
