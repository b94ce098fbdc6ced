// The limiter's CPU on the warm path, which Workers clocks cannot show (they stand still during synchronous code):
// meterFromLease — spend from the isolate's lease, count usage per key and day, build the five rate-limit headers —
// timed in Node's V8 over 1,000,000 requests. The lease comes from a real meter answer shape, handed over by a stand-in
// ACCOUNT_METER binding (the Durable Object itself is not under test here; bench/meter.mjs times its round trips).
// npx tsx bench/meter-lease-cpu.ts
import { meterFromLease, meterRequest } from "../src/accounts/meter-client";
import type { AcquireAnswer, AcquireRequest } from "../src/accounts/meter-protocol";
import type { ApiKeyRecord } from "../src/accounts/api-key-record";
import type { Env } from "../src/env";

const record: ApiKeyRecord = {
  keyId: "key_bench_free",
  hash: "0".repeat(64),
  name: "bench",
  account: "acct_bench_free",
  plan: "free",
  limits: { requestsPerSecond: 1_000_000, requestsPerMinute: 60_000_000, monthlyCredits: 1_000_000_000 },
  createdAt: 0,
  revoked: false,
};
const answer = (req: AcquireRequest): AcquireAnswer => ({
  ok: true,
  leaseId: 1,
  leaseRequests: 1e12,
  leaseCredits: 1e12,
  leaseMs: 3_600_000,
  windows: req.terms.windows.map((w) => ({ ...w, remaining: w.limit - 1, resetMs: w.ms })),
  creditsRemaining: 1e9,
  firstCallPending: false,
});
const meter = { acquire: async (req: AcquireRequest) => answer(req), settle: async () => undefined };
const env = { ACCOUNT_METER: { idFromName: () => ({}), get: () => meter } } as unknown as Env;
const deps = { env, waitUntil: () => undefined };

await meterRequest(deps, record, 1); // takes the lease
const N = 1_000_000;
let headerBytes = 0;
for (let round = 0; round < 3; round++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const decision = meterFromLease(deps, record, 1);
    if (decision?.kind !== "accepted") throw new Error("lease not spent");
    headerBytes += (decision.headers.ratelimit ?? "").length;
  }
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`limiter CPU per warm request (lease spend + usage count + 5 header values), round ${round + 1}: ${ns.toFixed(0)} ns${round === 2 ? ` (${headerBytes > 0 ? "headers built" : ""})` : ""}`);
}
