/**
 * The isolate's side of the meter: one call per request to the account's AccountMeter, except while the isolate
 * holds a lease — requests and credits the meter granted ahead, spent here with no call at all (the warm price
 * path). Leases exist only when the limits are large (meter-state.ts `leaseSize`). What a lease's requests spent is
 * reported in the background at most every `reportEveryMs` while traffic flows, and finally with the next meter call;
 * the meter takes back a lease's unspent credits when it ends. No work waits for a lease to end.
 * docs/accounts.md#lease-design gives the accuracy bounds.
 * Fail open: a meter that throws or does not answer within `limits.meter.callTimeoutMs` lets the request through
 * (logged, account id only), as unkey does: an outage of the limiter must not become an outage of the API.
 */
import type { Env } from "../env";
import { limits } from "../limits";
import type { ApiKeyRecord } from "./api-key-record";
import type { AcquireAnswer, LeaseReport, MeterTerms, UsageEntry, WindowState } from "./meter-protocol";
import { utcDay } from "./meter-protocol";
import { accountTerms, termsKeyOf, type AccountTerms } from "./plans";
import { rateLimitHeaders, seconds } from "./rate-limit-headers";

export type MeterDecision =
  | { kind: "accepted"; headers: Record<string, string>; firstCallPending: boolean }
  | { kind: "rate-limited"; retryAfterSeconds: number; window: string; headers: Record<string, string> }
  | { kind: "out-of-credits"; creditsRemaining: number; headers: Record<string, string> }
  /** The meter failed: the request passes, without rate-limit headers. */
  | { kind: "unmetered" };

interface Lease {
  id: number;
  termsKey: string;
  requests: number;
  credits: number;
  expiresAt: number;
  grantedAt: number;
  windows: WindowState[];
  usage: Map<string, UsageEntry>;
  /** credits spent since the last report */
  spentCredits: number;
  lastReportAt: number;
  firstCallPending: boolean;
}

/**
 * The lease of each account this isolate serves (at most one each, at most `limits.meter.maxIsolateLeases`, in the
 * order granted). An ended lease leaves when its account asks again or, if it went quiet, at the next sweep.
 */
const leases = new Map<string, Lease>();
let lastSweepAt = 0;
/** A meter call in flight per account: requests arriving meanwhile wait for its lease instead of all calling too. */
const inFlight = new Map<string, Promise<unknown>>();

const termsCache = new WeakMap<ApiKeyRecord, { terms: AccountTerms; meter: MeterTerms; key: string }>();

/** The terms of a key record (its plan and custom limits), computed once per record object (records are cached by auth). */
export function termsOf(record: ApiKeyRecord): { terms: AccountTerms; meter: MeterTerms; key: string } {
  let hit = termsCache.get(record);
  if (hit === undefined) {
    const terms = accountTerms(record.plan, record.limits);
    const meter: MeterTerms = { plan: terms.id, windows: terms.windows, monthlyCredits: terms.monthlyCredits };
    hit = { terms, meter, key: JSON.stringify(meter) };
    termsCache.set(record, hit);
  }
  return hit;
}

export interface MeterDeps {
  env: Env;
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The warm path: the request spent from this isolate's lease of its account, synchronously (no promise, no call);
 * undefined when there is no usable lease and the meter must be asked (`meterRequest`).
 */
export function meterFromLease(deps: MeterDeps, record: ApiKeyRecord, cost: number): MeterDecision | undefined {
  const now = Date.now();
  const decision = spendLease(record, termsOf(record).key, cost, now);
  if (decision !== undefined) {
    reportIfDue(deps, record.account, now);
    sweepEndedLeases(deps, now);
  }
  return decision;
}

/** Meters one request of `cost` credits for the key of `record`. */
export async function meterRequest(deps: MeterDeps, record: ApiKeyRecord, cost: number): Promise<MeterDecision> {
  const { meter, key } = termsOf(record);
  const now = Date.now();
  sweepEndedLeases(deps, now);
  const spent = spendLease(record, key, cost, now);
  if (spent) {
    reportIfDue(deps, record.account, now);
    return spent;
  }
  const waiting = inFlight.get(record.account);
  if (waiting !== undefined) {
    // Another request's call: waited for on this request's own timer (that request may be cancelled with its timers).
    await within(waiting, limits.meter.callTimeoutMs).catch(() => undefined);
    const after = spendLease(record, key, cost, Date.now());
    if (after) {
      reportIfDue(deps, record.account, Date.now());
      return after;
    }
  }
  const call = askMeter(deps, record, meter, key, cost, now);
  inFlight.set(record.account, call);
  try {
    return await call;
  } finally {
    if (inFlight.get(record.account) === call) inFlight.delete(record.account);
  }
}

/** The account's first successful call (referral reward): told once per lease that reported it pending. */
export function firstCallSucceeded(deps: MeterDeps, account: string): void {
  const lease = leases.get(account);
  if (lease) lease.firstCallPending = false;
  deps.waitUntil(
    within(stubOf(deps.env, account).recordFirstCall(account), limits.meter.callTimeoutMs * 5).catch((err: unknown) => logFailure("first-call", account, err)),
  );
}

/** Hands this isolate's lease of `account` back now (the usage route, so the figures it reads include this isolate's). */
export async function settleLease(deps: MeterDeps, account: string): Promise<void> {
  const lease = leases.get(account);
  if (lease === undefined) return;
  leases.delete(account);
  await within(stubOf(deps.env, account).settle(account, reportOf(lease, true)), limits.meter.callTimeoutMs).catch((err: unknown) => logFailure("settle", account, err));
}

/**
 * Ended leases of accounts that sent nothing since (their usage would otherwise wait for their next request), settled
 * in the background of this request; at most every `reportEveryMs`. Also keeps the map within its bound.
 */
function sweepEndedLeases(deps: MeterDeps, now: number): void {
  if (now - lastSweepAt < limits.meter.reportEveryMs || leases.size === 0) return;
  lastSweepAt = now;
  let over = leases.size - limits.meter.maxIsolateLeases;
  for (const [account, lease] of leases) {
    if (now < lease.expiresAt && over <= 0) continue;
    over--;
    deps.waitUntil(settleLease(deps, account));
  }
}

/** While traffic flows: what the account's lease spent goes to the meter in the background, at most every `reportEveryMs`. */
function reportIfDue(deps: MeterDeps, account: string, now: number): void {
  const lease = leases.get(account);
  if (lease === undefined || lease.usage.size === 0 || now - lease.lastReportAt < limits.meter.reportEveryMs) return;
  lease.lastReportAt = now;
  deps.waitUntil(within(stubOf(deps.env, account).settle(account, reportOf(lease, false)), limits.meter.callTimeoutMs).catch((err: unknown) => logFailure("report", account, err)));
}

function spendLease(record: ApiKeyRecord, termsKey: string, cost: number, now: number): MeterDecision | undefined {
  const lease = leases.get(record.account);
  if (lease === undefined || lease.termsKey !== termsKey || now >= lease.expiresAt || lease.requests < 1 || lease.credits < cost) return undefined;
  lease.requests -= 1;
  lease.credits -= cost;
  lease.spentCredits += cost;
  const day = utcDay(now);
  const id = `${record.keyId}|${day}`;
  const entry = lease.usage.get(id);
  if (entry) {
    entry.requests += 1;
    entry.credits += cost;
  } else lease.usage.set(id, { keyId: record.keyId, day, requests: 1, credits: cost });
  // What the client sees: the meter's figures at grant, plus what this lease still holds.
  return { kind: "accepted", headers: rateLimitHeaders(lease.windows, lease.requests, now - lease.grantedAt), firstCallPending: lease.firstCallPending };
}

async function askMeter(deps: MeterDeps, record: ApiKeyRecord, terms: MeterTerms, termsKey: string, cost: number, at: number): Promise<MeterDecision> {
  const old = leases.get(record.account);
  leases.delete(record.account);
  const report = old === undefined ? undefined : reportOf(old, true);
  let answer: AcquireAnswer;
  try {
    answer = await within(stubOf(deps.env, record.account).acquire({ account: record.account, keyId: record.keyId, terms, cost, at, report }) as Promise<AcquireAnswer>, limits.meter.callTimeoutMs);
  } catch (err) {
    logFailure("acquire", record.account, err);
    return { kind: "unmetered" };
  }
  const headers = rateLimitHeaders(answer.windows);
  if (!answer.ok) {
    if (answer.reason === "rate") return { kind: "rate-limited", retryAfterSeconds: Math.max(1, seconds(answer.retryAfterMs)), window: answer.window, headers };
    return { kind: "out-of-credits", creditsRemaining: answer.creditsRemaining, headers };
  }
  if (answer.leaseRequests > 0) {
    const now = Date.now();
    const lease: Lease = {
      id: answer.leaseId,
      termsKey,
      requests: answer.leaseRequests,
      credits: answer.leaseCredits,
      grantedAt: now,
      expiresAt: now + answer.leaseMs,
      windows: answer.windows,
      usage: new Map(),
      spentCredits: 0,
      lastReportAt: now,
      firstCallPending: answer.firstCallPending,
    };
    leases.set(record.account, lease);
    if (leases.size > limits.meter.maxIsolateLeases) lastSweepAt = 0;
  }
  return { kind: "accepted", headers: rateLimitHeaders(answer.windows, answer.leaseRequests), firstCallPending: answer.firstCallPending };
}

/** What the lease spent since its last report (taken); `final`: it is spent no more. */
function reportOf(lease: Lease, final: boolean): LeaseReport {
  const report = { leaseId: lease.id, usage: [...lease.usage.values()], spentCredits: lease.spentCredits, final };
  lease.usage = new Map();
  lease.spentCredits = 0;
  if (final) {
    lease.credits = 0;
    lease.requests = 0;
  }
  return report;
}

function stubOf(env: Env, account: string) {
  return env.ACCOUNT_METER.get(env.ACCOUNT_METER.idFromName(account));
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`meter did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function logFailure(call: string, account: string, err: unknown): void {
  console.error(JSON.stringify({ level: "error", event: "meter-failed", call, account, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err), failOpen: true }));
}

export type ConnectionAdmission = { ok: true; tokensCap: number } | { ok: false; message: string };

/**
 * A /ws connection of the key's account: admitted while the account holds fewer than its plan's `wsConnections` (the
 * meter counts them across every room shard). Fails open like the request path.
 */
export async function admitConnection(env: Env, record: ApiKeyRecord, connectionId: string): Promise<ConnectionAdmission> {
  const { terms } = termsOf(record);
  try {
    const opened = await within(stubOf(env, record.account).openConnection(connectionId, record.keyId, terms.wsConnections, connectionKeyOf(record)) as Promise<{ ok: boolean; open: number }>, limits.meter.callTimeoutMs);
    if (!opened.ok) return { ok: false, message: `Too many connections for this account; max ${terms.wsConnections} on the ${terms.label} plan` };
  } catch (err) {
    logFailure("open-connection", record.account, err);
  }
  return { ok: true, tokensCap: terms.wsTokensPerSubscription };
}

/** What the meter keeps of a socket's key to check it again (meter.ts checkConnectionKeys): its hash, never the key. */
function connectionKeyOf(record: ApiKeyRecord) {
  return { keyHash: record.hash, termsKey: termsKeyOf(record.plan, record.limits) };
}

/** An /rpc WebSocket of the key's account: admitted while the account holds fewer than its plan's `rpcWsConnections`. Fails open. */
export async function admitRpcConnection(env: Env, record: ApiKeyRecord, socketId: string): Promise<{ ok: true } | { ok: false; message: string }> {
  const { terms } = termsOf(record);
  try {
    const opened = await within(stubOf(env, record.account).openConnection(socketId, record.keyId, terms.rpcWsConnections, connectionKeyOf(record)) as Promise<{ ok: boolean; open: number }>, limits.meter.callTimeoutMs);
    if (!opened.ok) return { ok: false, message: `Too many /rpc WebSocket connections for this account; max ${terms.rpcWsConnections} on the ${terms.label} plan` };
  } catch (err) {
    logFailure("open-connection", record.account, err);
  }
  return { ok: true };
}

/** Credits an /rpc hub shard spent for the account's notification copies; answers what is left (undefined: the meter failed, fail open). */
export async function chargeStream(env: Env, record: ApiKeyRecord, credits: number): Promise<number | undefined> {
  try {
    const answer = await within(stubOf(env, record.account).chargeStream(record.account, record.keyId, termsOf(record).meter, credits) as Promise<{ creditsRemaining: number }>, limits.meter.callTimeoutMs);
    return answer.creditsRemaining;
  } catch (err) {
    logFailure("charge-stream", record.account, err);
    return undefined;
  }
}

/** The connection left: the account's meter counts one less. */
export async function releaseConnection(env: Env, account: string, connectionId: string): Promise<void> {
  await within(stubOf(env, account).closeConnection(connectionId) as Promise<void>, limits.meter.callTimeoutMs).catch((err: unknown) => logFailure("close-connection", account, err));
}

/**
 * Asks the account's meter to write what it has counted to D1 now (it otherwise does every `flushMs`), for a page that
 * reads usage_daily itself (the dashboard). A failing meter is logged and the caller reads what D1 has.
 */
export async function flushAccountUsage(env: Env, account: string): Promise<void> {
  await within(stubOf(env, account).balance(account) as Promise<unknown>, limits.meter.callTimeoutMs).catch((err: unknown) => logFailure("flush", account, err));
}

/**
 * A key of the account was revoked: the meter closes its open /ws and /rpc sockets now. A failing meter is logged; its
 * periodic key check (`limits.meter.keyCheckMs`) closes them after all.
 */
export async function closeRevokedKeySockets(env: Env, account: string, keyHash: string): Promise<void> {
  await within(stubOf(env, account).keyRevoked(keyHash) as Promise<number>, limits.meter.callTimeoutMs).catch((err: unknown) => logFailure("key-revoked", account, err));
}
