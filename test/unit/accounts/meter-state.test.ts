/**
 * The meter's arithmetic on its own clock (no Durable Object): the exact sliding log, lease sizes per plan, credits
 * debited at grant and refunded, refusals that cost nothing.
 */
import { describe, expect, it } from "vitest";
import { SlidingWindowLog } from "../../../src/accounts/sliding-window-log";
import { leaseSize, MeterState } from "../../../src/accounts/meter-state";
import { accountTerms, plans, type PlanId } from "../../../src/accounts/plans";
import type { AcquireRequest, MeterTerms } from "../../../src/accounts/meter-protocol";

const termsOf = (plan: PlanId, custom = {}): MeterTerms => {
  const t = accountTerms(plan, custom);
  return { plan: t.id, windows: t.windows, monthlyCredits: t.monthlyCredits };
};
const request = (terms: MeterTerms, at: number, cost = 1): AcquireRequest => ({ account: "acct_u", keyId: "key_u", terms, cost, at });
const fresh = () => new MeterState({ month: "2026-11", creditsUsed: 0, bonusCredits: 0, firstCallPending: false, referralPending: false });

describe("SlidingWindowLog", () => {
  it("at most `limit` in any window; the next fits when the oldest leaves, not before", () => {
    // Given 3 per 1000 ms, grants at 0, 100, 200
    const log = new SlidingWindowLog(3, 1000);
    for (const t of [0, 100, 200]) {
      expect(log.waitFor(t, 1)).toBe(0);
      log.add(t, 1);
    }
    // Then at 999 a fourth waits 1 ms (the grant at 0 leaves at 1000), and at 1000 it fits
    expect(log.room(999)).toBe(0);
    expect(log.waitFor(999, 1)).toBe(1);
    expect(log.resetIn(999)).toBe(1);
    expect(log.waitFor(1000, 1)).toBe(0);
    // and two more at 1000 wait for the one at 100
    expect(log.waitFor(1000, 2)).toBe(100);
  });

  it("a lease of n is one entry, counted whole", () => {
    const log = new SlidingWindowLog(100, 1000);
    log.add(0, 60);
    expect(log.room(500)).toBe(40);
    expect(log.waitFor(500, 41)).toBe(500);
    expect(log.used(1000)).toBe(0);
  });
});

describe("MeterState", () => {
  it("no lease on FREE, PRO, ADVANCED (every request asks: exact); DEV leases 10,000", () => {
    expect(["free", "pro", "advanced"].map((p) => leaseSize(termsOf(p as PlanId)))).toEqual([0, 0, 0]);
    expect(leaseSize(termsOf("dev"))).toBe(10_000);
    // a custom 1,000 / s gets 1% of it
    expect(leaseSize(termsOf("pro", { requestsPerSecond: 1000, requestsPerMinute: 60_000 }))).toBe(10);
  });

  it("FREE: one per second; a refusal says when, and costs neither credits nor a slot", () => {
    const state = fresh();
    const terms = termsOf("free");
    expect(state.acquire(0, request(terms, 0))).toMatchObject({ ok: true, leaseRequests: 0, creditsRemaining: plans.free.monthlyCredits - 1 });
    expect(state.acquire(400, request(terms, 400))).toMatchObject({ ok: false, reason: "rate", retryAfterMs: 600, window: "second", creditsRemaining: plans.free.monthlyCredits - 1 });
    expect(state.acquire(1000, request(terms, 1000))).toMatchObject({ ok: true });
    expect(state.ledger.creditsUsed).toBe(2);
  });

  it("credits: a request costing more than is left is refused whole; a lease's credits are debited, then refunded", () => {
    const state = fresh();
    const small = termsOf("pro", { monthlyCredits: 5 });
    expect(state.acquire(0, request(small, 0, 3))).toMatchObject({ ok: true, creditsRemaining: 2 });
    expect(state.acquire(10, request(small, 10, 3))).toMatchObject({ ok: false, reason: "credits", creditsRemaining: 2 });
    // DEV: the lease takes credits ahead; a final report gives back what was not spent
    const dev = fresh();
    const granted = dev.acquire(0, request(termsOf("dev"), 0, 1));
    expect(granted).toMatchObject({ ok: true, leaseId: 1, leaseRequests: 10_000, leaseCredits: 1_000_000, leaseMs: 500 });
    expect(dev.ledger.creditsUsed).toBe(1 + 1_000_000);
    dev.applyReport(300, { leaseId: 1, usage: [{ keyId: "key_u", day: "1970-01-01", requests: 3, credits: 4 }], spentCredits: 4, final: false });
    dev.applyReport(500, { leaseId: 1, usage: [{ keyId: "key_u", day: "1970-01-01", requests: 4, credits: 5 }], spentCredits: 5, final: true });
    expect(dev.ledger.creditsUsed).toBe(10);
    expect(dev.takePending().usage).toEqual([{ keyId: "key_u", day: "1970-01-01", requests: 8, credits: 10 }]);
    expect(dev.hasLeases).toBe(false);
    // and a lease whose isolate never says it is done: the meter takes back what was not reported spent after its end
    const quiet = fresh();
    quiet.acquire(0, request(termsOf("dev"), 0, 1));
    quiet.applyReport(250, { leaseId: 1, usage: [{ keyId: "key_u", day: "1970-01-01", requests: 2, credits: 2 }], spentCredits: 2, final: false });
    quiet.reclaimLeases(1499);
    expect(quiet.ledger.creditsUsed).toBe(1 + 1_000_000);
    quiet.reclaimLeases(1500);
    expect(quiet.ledger.creditsUsed).toBe(3);
    // a report arriving after the reclaim (or at a meter that was evicted since the grant) still counts what it spent
    quiet.applyReport(1600, { leaseId: 1, usage: [{ keyId: "key_u", day: "1970-01-01", requests: 1, credits: 1 }], spentCredits: 1, final: true });
    expect(quiet.ledger.creditsUsed).toBe(4);
  });

  it("a request is counted at its own time, within the allowed skew and never before an earlier grant", () => {
    const state = fresh();
    const terms = termsOf("pro", { requestsPerSecond: 2 });
    state.acquire(1000, request(terms, 1000));
    // arrives at the meter 300 ms after it reached the isolate: counted at 1000 too
    state.acquire(1300, request(terms, 1000));
    // so at 2000 (one second after both) there is room for two again
    expect(state.acquire(2000, request(terms, 2000))).toMatchObject({ ok: true });
    expect(state.acquire(2000, request(terms, 2000))).toMatchObject({ ok: true });
    expect(state.acquire(2000, request(terms, 2000))).toMatchObject({ ok: false, reason: "rate" });
  });
});
