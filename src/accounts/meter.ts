/**
 * `AccountMeter`: one Durable Object per account (`ACCOUNT_METER.idFromName(account)`), the single place where its
 * rate windows, credits and WebSocket connections are counted, whichever isolate or key a request arrives through.
 * MeterState holds the arithmetic; this shell loads the month's ledger from D1, writes usage back in batches (alarm every
 * `limits.meter.flushMs`, and on demand for `GET /api/v1/usage`), keeps the account's open /ws connections in its own
 * SQLite (they outlive an eviction), marks the first successful call, and decides the referral reward once the
 * account's usage written to D1 shows real use (referral-rewards.ts).
 * What is kept only in memory: the sliding windows (an evicted meter starts them empty, in the caller's favour) and
 * usage not yet flushed (at most `flushMs` of it is lost if the object dies between alarms).
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { limits } from "../limits";
import type { AcquireAnswer, AcquireRequest, LeaseReport, MeterBalance } from "./meter-protocol";
import { utcMonth } from "./meter-protocol";
import { MeterState } from "./meter-state";
import { rewardReferral } from "./referral-rewards";
import { connectionOfSocketId, roomOfConnection } from "../socket-shards";
import { readBonusCredits, readMonthLedger, writeUsage } from "./usage-store";
import { apiKeyRecordSchema } from "./api-key-record";
import { kvKeyForHash } from "./api-keys";
import type { MeterTerms } from "./meter-protocol";
import { termsKeyOf } from "./plans";
import { clusterKeyOf, configOf } from "../config";
import { hubNameOf, hubShardOfSocketId } from "../socket-shards";

/** What a socket was admitted under: its key's hash (to read the record again) and the key's terms then (termsOf().key). */
export interface ConnectionKey {
  keyHash: string;
  termsKey: string;
}

/** Close reasons of the key checks, the same on /ws and /rpc. */
export const keyRevokedReason = "API key revoked";
export const termsChangedReason = "The plan of this key changed; reconnect";

export class AccountMeter extends DurableObject<Env> {
  private state: MeterState | undefined;
  private account: string | undefined;
  private loading: Promise<MeterState> | undefined;
  /** An alarm is known to be set (saves a storage read per request on the exact path). */
  private alarmSet = false;
  /** D1 work done by flushes (read by the batching test and logged): statements, not requests, are what D1 bills. */
  readonly flushStats = { flushes: 0, statements: 0, usageRows: 0, requests: 0 };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS connections (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, at INTEGER NOT NULL)");
    // Added for the key checks (keyCheckMs); rows from before have neither and are not checked.
    for (const column of ["key_hash TEXT", "terms TEXT"]) {
      try {
        ctx.storage.sql.exec(`ALTER TABLE connections ADD COLUMN ${column}`);
      } catch {
        // already there
      }
    }
  }

  /** One request: allowed (with a lease when the limits are large), or refused for rate or credits. */
  async acquire(req: AcquireRequest): Promise<AcquireAnswer> {
    const now = Date.now();
    const state = await this.ledger(req.account, now);
    const answer = state.acquire(now, req);
    await this.scheduleFlush();
    return answer;
  }

  /** An isolate's lease ended without a new request to carry its report. */
  async settle(account: string, report: LeaseReport): Promise<void> {
    const now = Date.now();
    const state = await this.ledger(account, now);
    state.applyReport(now, report);
    state.reclaimLeases(now);
    await this.scheduleFlush();
  }

  /** The account's first successful call, recorded once (accounts.first_call_at); it earns no reward by itself. */
  async recordFirstCall(account: string): Promise<void> {
    const now = Date.now();
    const state = await this.ledger(account, now);
    if (!state.ledger.firstCallPending) return;
    state.ledger.firstCallPending = false;
    await this.env.DB.prepare("UPDATE accounts SET first_call_at = ?2 WHERE id = ?1 AND first_call_at IS NULL").bind(account, now).run();
  }

  /** After a flush that wrote credits: the referral reward when the use is there, and the balances it changed refreshed. */
  private async decideReferral(state: MeterState, account: string): Promise<void> {
    const outcome = await rewardReferral(this.env.DB, account, Date.now());
    if (!outcome.decided) return;
    state.ledger.referralPending = false;
    for (const other of outcome.credited) {
      if (other === account) state.ledger.bonusCredits = await readBonusCredits(this.env.DB, account);
      else await this.env.ACCOUNT_METER.get(this.env.ACCOUNT_METER.idFromName(other)).creditsChanged(other);
    }
  }

  /** New credit grants for this account: its bonus is read again. */
  async creditsChanged(account: string): Promise<void> {
    const now = Date.now();
    const state = await this.ledger(account, now);
    state.ledger.bonusCredits = await readBonusCredits(this.env.DB, account);
  }

  /** Flushes what is pending, then answers the month's figures (the usage route reads the per-day rows itself). */
  async balance(account: string): Promise<MeterBalance> {
    const now = Date.now();
    const state = await this.ledger(account, now);
    await this.flush();
    return { month: state.ledger.month, creditsUsed: state.ledger.creditsUsed, bonusCredits: state.ledger.bonusCredits };
  }

  /**
   * A socket of the account opens (/ws, or /rpc: ids `rpc~…`, a budget of their own): admitted while the account holds
   * fewer of that kind than `max`. At the limit, the rooms or hub shards of the connections counted are asked whether
   * they still hold them (one that lost its sockets without a close event — a restart — never told the meter), and
   * those they do not hold are forgotten: a count never locks an account out.
   */
  async openConnection(socketId: string, keyId: string, max: number, key?: ConnectionKey): Promise<{ ok: boolean; open: number }> {
    const sql = this.ctx.storage.sql;
    const kind = hubShardOfSocketId(socketId) === undefined ? "NOT LIKE" : "LIKE";
    const count = () => sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM connections WHERE id <> ? AND id ${kind} 'rpc~%'`, socketId).one().n;
    if (count() >= max) await this.forgetLostConnections(socketId);
    const open = count();
    if (open >= max) return { ok: false, open };
    sql.exec("INSERT OR REPLACE INTO connections (id, key_id, at, key_hash, terms) VALUES (?, ?, ?, ?, ?)", socketId, keyId, Date.now(), key?.keyHash ?? null, key?.termsKey ?? null);
    if (key !== undefined) await this.scheduleKeyCheck();
    return { ok: true, open: open + 1 };
  }

  private holderOf(socketId: string): { holdsConnection(id: string): Promise<boolean>; closeSockets(ids: string[], reason: string): Promise<number> } {
    const shard = hubShardOfSocketId(socketId);
    if (shard !== undefined) {
      const name = hubNameOf(clusterKeyOf(configOf(this.env).pubSubUrls), shard);
      return this.env.PUBSUB_HUB.get(this.env.PUBSUB_HUB.idFromName(name)) as never;
    }
    return this.env.STREAM_ROOM.get(this.env.STREAM_ROOM.idFromName(roomOfConnection(connectionOfSocketId(socketId), limits.streams.shards))) as never;
  }

  private async forgetLostConnections(except: string): Promise<void> {
    const sql = this.ctx.storage.sql;
    // Rows younger than this may be on their way to their room (admitted, not yet handed over).
    const settled = Date.now() - limits.meter.connectionSettleMs;
    const rows = sql.exec<{ id: string }>("SELECT id FROM connections WHERE id <> ? AND at < ?", except, settled).toArray();
    await Promise.all(
      rows.map(async ({ id }) => {
        try {
          if (!(await this.holderOf(id).holdsConnection(id))) sql.exec("DELETE FROM connections WHERE id = ?", id);
        } catch (err) {
          // Cannot tell: the connection stays counted.
          console.error(JSON.stringify({ level: "error", event: "connection-check-failed", account: this.account, error: err instanceof Error ? err.message : String(err) }));
        }
      }),
    );
  }

  /**
   * The key checks (every `keyCheckMs` while the account holds sockets): each key with open sockets is read again as
   * the request path reads it (its KV record); a key revoked, gone, or whose terms changed (a plan set lower or higher,
   * custom limits) has its sockets closed, in whichever room or hub shard holds them. Returns the sockets closed.
   */
  async checkConnectionKeys(): Promise<number> {
    const sql = this.ctx.storage.sql;
    const rows = sql.exec<{ id: string; key_hash: string; terms: string }>("SELECT id, key_hash, terms FROM connections WHERE key_hash IS NOT NULL").toArray();
    const byHash = new Map<string, { id: string; terms: string }[]>();
    for (const row of rows) byHash.set(row.key_hash, [...(byHash.get(row.key_hash) ?? []), { id: row.id, terms: row.terms }]);
    let closed = 0;
    for (const [hash, sockets] of byHash) {
      let reason: string;
      let stale: { id: string }[];
      try {
        const parsed = apiKeyRecordSchema.safeParse(await this.env.API_KEYS.get(kvKeyForHash(hash), "json"));
        if (!parsed.success || parsed.data.revoked) {
          reason = keyRevokedReason;
          stale = sockets;
        } else {
          const now = termsKeyOf(parsed.data.plan, parsed.data.limits);
          stale = sockets.filter((s) => s.terms !== now);
          reason = termsChangedReason;
        }
      } catch (err) {
        console.error(JSON.stringify({ level: "error", event: "key-check-failed", account: this.account, error: err instanceof Error ? err.message : String(err) }));
        continue;
      }
      closed += await this.closeSockets(stale.map((s) => s.id), reason);
    }
    return closed;
  }

  /**
   * A key of the account was just revoked (the dashboard's revoke): its open sockets close now, in every room and hub
   * shard, without waiting for the next key check (whose KV read may lag the revoke in production). Returns the sockets closed.
   */
  async keyRevoked(keyHash: string): Promise<number> {
    const ids = this.ctx.storage.sql.exec<{ id: string }>("SELECT id FROM connections WHERE key_hash = ?", keyHash).toArray();
    return this.closeSockets(ids.map((r) => r.id), keyRevokedReason);
  }

  /** Each holder (a /ws room, an /rpc hub shard) closes its own sockets; their rows go now (a close event would remove them too). */
  private async closeSockets(socketIds: readonly string[], reason: string): Promise<number> {
    if (socketIds.length === 0) return 0;
    const sql = this.ctx.storage.sql;
    const byHolder = new Map<string, string[]>();
    for (const id of socketIds) {
      const shard = hubShardOfSocketId(id);
      const holder = shard === undefined ? `ws:${roomOfConnection(connectionOfSocketId(id), limits.streams.shards)}` : `rpc:${shard}`;
      byHolder.set(holder, [...(byHolder.get(holder) ?? []), id]);
    }
    let closed = 0;
    await Promise.all(
      [...byHolder.values()].map(async (ids) => {
        try {
          closed += await this.holderOf(ids[0]!).closeSockets(ids, reason);
          for (const id of ids) sql.exec("DELETE FROM connections WHERE id = ?", id);
        } catch (err) {
          console.error(JSON.stringify({ level: "error", event: "socket-close-failed", account: this.account, error: err instanceof Error ? err.message : String(err) }));
        }
      }),
    );
    return closed;
  }

  /**
   * Credits spent by an /rpc hub shard for this account's notification copies (and reported usage): counted like a
   * request's credits, on the key's day. Answers what is left this month (0: the shard closes the account's sockets).
   */
  async chargeStream(account: string, keyId: string, terms: MeterTerms, credits: number): Promise<{ creditsRemaining: number }> {
    const now = Date.now();
    const state = await this.ledger(account, now);
    state.spend(now, keyId, credits);
    await this.scheduleFlush();
    return { creditsRemaining: state.creditsRemaining(terms) };
  }

  private async scheduleKeyCheck(): Promise<void> {
    const at = Date.now() + limits.meter.keyCheckMs;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
    this.alarmSet = true;
  }

  closeConnection(socketId: string): void {
    this.ctx.storage.sql.exec("DELETE FROM connections WHERE id = ?", socketId);
  }

  override async alarm(): Promise<void> {
    this.alarmSet = false;
    try {
      this.state?.reclaimLeases(Date.now());
      await this.flush();
      await this.checkConnectionKeys();
    } finally {
      await this.scheduleFlush();
      const checked = this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM connections WHERE key_hash IS NOT NULL").one().n;
      if (checked > 0) await this.scheduleKeyCheck();
    }
  }

  private async flush(): Promise<void> {
    const state = this.state;
    if (state === undefined || !state.hasPending || this.account === undefined) return;
    const taken = state.takePending();
    try {
      const statements = await writeUsage(this.env.DB, this.account, taken.usage, taken.lastUsed);
      this.flushStats.flushes++;
      this.flushStats.statements += statements;
      this.flushStats.usageRows += taken.usage.length;
      this.flushStats.requests += taken.usage.reduce((n, u) => n + u.requests, 0);
    } catch (err) {
      // D1 failed: the usage waits for the next alarm, nothing is lost.
      state.restore(taken);
      console.error(JSON.stringify({ level: "error", event: "usage-flush-failed", account: this.account, error: err instanceof Error ? err.message : String(err) }));
      return;
    }
    if (!state.ledger.referralPending || !taken.usage.some((u) => u.credits > 0)) return;
    try {
      await this.decideReferral(state, this.account);
    } catch (err) {
      // Decided again after the next flush that writes credits.
      console.error(JSON.stringify({ level: "error", event: "referral-check-failed", account: this.account, error: err instanceof Error ? err.message : String(err) }));
    }
  }

  private async scheduleFlush(): Promise<void> {
    if (this.alarmSet || (!this.state?.hasPending && !this.state?.hasLeases)) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + limits.meter.flushMs);
    this.alarmSet = true;
  }

  /** The month's ledger, read from D1 once per month (and again when a new month starts). */
  private async ledger(account: string, now: number): Promise<MeterState> {
    this.account = account;
    if (this.state !== undefined && this.state.ledger.month === utcMonth(now)) return this.state;
    this.loading ??= (async () => {
      try {
        // A new month: what is pending belongs to the old one's days and is written first.
        await this.flush();
        const ledger = await readMonthLedger(this.env.DB, account, now);
        if (this.state === undefined) this.state = new MeterState(ledger);
        else this.state.ledger = ledger;
        return this.state;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
