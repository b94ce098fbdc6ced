import type { PlanId, RateWindow } from "./plans";

/**
 * What the isolates and an account's meter (src/accounts/meter.ts, one Durable Object per account) say to each other
 * over Durable Object RPC. The isolate sends the terms of the key record it just read, so a plan change reaches the
 * meter with the first request that carries it (`plan:set` rewrites the records; the auth cache bounds the delay).
 */
export interface MeterTerms {
  plan: PlanId;
  windows: RateWindow[];
  monthlyCredits: number;
}

/** Usage of one key on one UTC day, as the isolate spent it from a lease (or the meter counted it). */
export interface UsageEntry {
  keyId: string;
  day: string;
  requests: number;
  credits: number;
}

/**
 * What an isolate tells the meter of a lease: what it spent since its last report (sent while traffic flows, at most
 * every `limits.meter.reportEveryMs`), and, `final`, that it will spend no more of it (its unspent credits go back
 * now rather than when the meter reclaims the lease after its end).
 */
export interface LeaseReport {
  leaseId: number;
  usage: UsageEntry[];
  spentCredits: number;
  final: boolean;
}

export interface AcquireRequest {
  account: string;
  keyId: string;
  terms: MeterTerms;
  /** Credits this request costs (0 for the usage route). It always takes one request of every window. */
  cost: number;
  /** When the request reached the isolate (ms): the windows count it then, not when the call reached the meter. */
  at: number;
  report?: LeaseReport;
}

/** One window as the meter sees it after its answer: what is left outside any lease, and when its oldest grant leaves. */
export interface WindowState {
  name: RateWindow["name"];
  limit: number;
  ms: number;
  remaining: number;
  resetMs: number;
}

export type AcquireAnswer =
  | {
      ok: true;
      /** Requests and credits beyond this one that the isolate may spend without asking, until `leaseMs` from now. */
      leaseId: number;
      leaseRequests: number;
      leaseCredits: number;
      leaseMs: number;
      windows: WindowState[];
      creditsRemaining: number;
      /** The account has never made a successful call (referral trigger): tell the meter when this one succeeds. */
      firstCallPending: boolean;
    }
  | { ok: false; reason: "rate"; retryAfterMs: number; window: RateWindow["name"]; windows: WindowState[]; creditsRemaining: number }
  | { ok: false; reason: "credits"; windows: WindowState[]; creditsRemaining: number };

/** The meter's account figures for `GET /api/v1/usage`. */
export interface MeterBalance {
  month: string;
  creditsUsed: number;
  bonusCredits: number;
}

/** `YYYY-MM-DD` and `YYYY-MM` of a time, in UTC. The day is asked on every leased request: the last one is kept. */
let lastDay = { from: 0, to: -1, text: "" };
export function utcDay(now: number): string {
  if (now >= lastDay.from && now < lastDay.to) return lastDay.text;
  const from = now - (now % 86_400_000);
  lastDay = { from, to: from + 86_400_000, text: new Date(from).toISOString().slice(0, 10) };
  return lastDay.text;
}
export function utcMonth(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}
/** Start of the UTC calendar month of `now` (ms). */
export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
