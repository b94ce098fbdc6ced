/**
 * What an account's meter knows and decides, without Durable Object APIs: its sliding windows, the month's credits,
 * and the usage not yet written to D1. src/accounts/meter.ts is the shell (D1 loads and flushes, alarms, RPC); time
 * comes in as an argument, so test/unit/accounts/meter-state.test.ts drives it with its own clock.
 */
import { limits } from "../limits";
import type { AcquireAnswer, AcquireRequest, LeaseReport, MeterTerms, UsageEntry, WindowState } from "./meter-protocol";
import { utcDay } from "./meter-protocol";
import { SlidingWindowLog } from "./sliding-window-log";

/** The month's figures the shell reads from D1 (usage_daily, credit_grants, accounts). */
export interface MonthLedger {
  month: string;
  /** Credits already written to usage_daily this month. */
  creditsUsed: number;
  /** Every grant of the account (credit_grants): each raises the monthly allowance. */
  bonusCredits: number;
  firstCallPending: boolean;
  /** Signed up through a referral whose reward is not decided yet (referral-rewards.ts). */
  referralPending: boolean;
}

export class MeterState {
  private readonly logs = new Map<string, SlidingWindowLog>();
  private pending = new Map<string, UsageEntry>();
  /** Keys used since the last flush, with when (api_keys.last_used_at). */
  private lastUsed = new Map<string, number>();
  private lastAt = 0;
  /** Leases out, by id: credits granted, credits reported spent, when the meter reclaims what is left. */
  private readonly leases = new Map<number, { credits: number; spent: number; reclaimAt: number }>();
  private nextLeaseId = 1;

  constructor(public ledger: MonthLedger) {}

  /** Credits left this month: the plan's, plus bonus, minus what is used (leased credits included). */
  creditsRemaining(terms: MeterTerms): number {
    return Math.max(0, terms.monthlyCredits + this.ledger.bonusCredits - this.ledger.creditsUsed);
  }

  acquire(meterNow: number, req: AcquireRequest): AcquireAnswer {
    if (req.report) this.applyReport(meterNow, req.report);
    this.reclaimLeases(meterNow);
    // The request's own time (its arrival at the isolate), so queueing on the way here does not bunch requests up;
    // within `maxClockSkewMs` of the meter's clock and never before an earlier grant (the logs stay in order).
    const now = Math.max(this.lastAt, Math.min(meterNow, Math.max(req.at, meterNow - limits.meter.maxClockSkewMs)));
    this.lastAt = now;
    const logs = req.terms.windows.map((w) => this.logOf(w.name, w.limit, w.ms));
    // Rate first: a request refused for rate costs nothing, and says when to come back.
    let worst: { wait: number; index: number } | undefined;
    logs.forEach((log, index) => {
      const wait = log.waitFor(now, 1);
      if (wait > 0 && (worst === undefined || wait > worst.wait)) worst = { wait, index };
    });
    if (worst !== undefined) {
      return { ok: false, reason: "rate", retryAfterMs: worst.wait, window: req.terms.windows[worst.index]!.name, windows: this.windowStates(now, req.terms), creditsRemaining: this.creditsRemaining(req.terms) };
    }
    const credits = this.creditsRemaining(req.terms);
    if (req.cost > credits) return { ok: false, reason: "credits", windows: this.windowStates(now, req.terms), creditsRemaining: credits };

    const lease = leaseSize(req.terms);
    let leaseRequests = lease === 0 ? 0 : Math.max(0, Math.min(lease, ...logs.map((log) => log.room(now) - 1)));
    const leaseCredits = leaseRequests === 0 ? 0 : Math.max(0, Math.min(credits - req.cost, Math.floor(req.terms.monthlyCredits * limits.meter.leaseCreditFraction), leaseRequests * limits.maxMintsPerPriceRequest));
    // A lease without credits could not be spent: its requests would only be counted for nothing.
    if (leaseCredits === 0) leaseRequests = 0;
    for (const log of logs) log.add(now, 1 + leaseRequests);
    this.ledger.creditsUsed += req.cost + leaseCredits;
    this.count(now, { keyId: req.keyId, day: utcDay(now), requests: 1, credits: req.cost });
    const shortest = Math.min(...req.terms.windows.map((w) => w.ms));
    const leaseMs = Math.min(limits.meter.leaseMs, Math.floor(shortest / 2));
    const leaseId = leaseRequests === 0 ? 0 : this.nextLeaseId++;
    if (leaseId !== 0) this.leases.set(leaseId, { credits: leaseCredits, spent: 0, reclaimAt: meterNow + leaseMs + limits.meter.leaseGraceMs });
    return {
      ok: true,
      leaseId,
      leaseRequests,
      leaseCredits,
      leaseMs,
      windows: this.windowStates(now, req.terms),
      creditsRemaining: this.creditsRemaining(req.terms),
      firstCallPending: this.ledger.firstCallPending,
    };
  }

  /** Credits spent outside a request (an /rpc hub shard's notification copies): usage on the key's day, no request counted. */
  spend(now: number, keyId: string, credits: number): void {
    if (credits <= 0) return;
    this.ledger.creditsUsed += credits;
    this.count(now, { keyId, day: utcDay(now), requests: 0, credits });
  }

  /** What an isolate spent from a lease becomes usage; a final report gives the unspent credits back at once. */
  applyReport(now: number, report: LeaseReport): void {
    for (const entry of report.usage) this.count(now, entry);
    const lease = this.leases.get(report.leaseId);
    // A lease this meter does not know (granted before it was evicted, or already reclaimed): its credits were never
    // debited here, so what was spent of it is counted now.
    if (lease === undefined) {
      this.ledger.creditsUsed += report.spentCredits;
      return;
    }
    lease.spent += report.spentCredits;
    if (report.final) this.endLease(report.leaseId);
  }

  /** Leases past their end (and its grace): the isolate can spend no more, so what it did not report spent goes back. */
  reclaimLeases(now: number): void {
    for (const [id, lease] of this.leases) if (lease.reclaimAt <= now) this.endLease(id);
  }

  get hasLeases(): boolean {
    return this.leases.size > 0;
  }

  private endLease(id: number): void {
    const lease = this.leases.get(id)!;
    this.leases.delete(id);
    this.ledger.creditsUsed = Math.max(0, this.ledger.creditsUsed - Math.max(0, lease.credits - lease.spent));
  }

  /** Usage waiting for the next flush (taken: the shell writes it, and gives it back with `restore` if D1 failed). */
  takePending(): { usage: UsageEntry[]; lastUsed: [string, number][] } {
    const taken = { usage: [...this.pending.values()], lastUsed: [...this.lastUsed] };
    this.pending = new Map();
    this.lastUsed = new Map();
    return taken;
  }

  restore(taken: { usage: UsageEntry[]; lastUsed: [string, number][] }): void {
    for (const entry of taken.usage) this.add(entry);
    for (const [keyId, at] of taken.lastUsed) this.lastUsed.set(keyId, Math.max(at, this.lastUsed.get(keyId) ?? 0));
  }

  get hasPending(): boolean {
    return this.pending.size > 0;
  }

  windowStates(now: number, terms: MeterTerms): WindowState[] {
    return terms.windows.map((w) => {
      const log = this.logOf(w.name, w.limit, w.ms);
      return { name: w.name, limit: w.limit, ms: w.ms, remaining: log.room(now), resetMs: log.resetIn(now) };
    });
  }

  private count(now: number, entry: UsageEntry): void {
    if (entry.requests === 0 && entry.credits === 0) return;
    this.add(entry);
    this.lastUsed.set(entry.keyId, now);
  }

  private add(entry: UsageEntry): void {
    const id = `${entry.keyId}|${entry.day}`;
    const have = this.pending.get(id);
    if (have) {
      have.requests += entry.requests;
      have.credits += entry.credits;
    } else this.pending.set(id, { ...entry });
  }

  /** The log of a window, following the terms (a plan change keeps what was counted, under the new limit). */
  private logOf(name: string, limit: number, ms: number): SlidingWindowLog {
    let log = this.logs.get(name);
    if (log === undefined) this.logs.set(name, (log = new SlidingWindowLog(limit, ms)));
    log.limit = limit;
    log.ms = ms;
    return log;
  }
}

/** Tokens an isolate may hold beyond its request: a share of the smallest limit, none for small limits (exact path). */
export function leaseSize(terms: MeterTerms): number {
  const smallest = Math.min(...terms.windows.map((w) => w.limit));
  const size = Math.min(limits.meter.maxLeaseRequests, Math.floor(smallest * limits.meter.leaseFraction));
  return size < limits.meter.minLeaseRequests ? 0 : size;
}
