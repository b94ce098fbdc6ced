/**
 * The chain tail: one Durable Object (the rooms reach it as `CHAIN_TAIL.idFromName(chainTailName)`, stream-room.ts) that
 * follows the chain at `confirmed` and feeds the /ws rooms with the events of their topics (stream-events.ts), one
 * publish per block per room, blocks in slot order. It works only while some room has topics: the last room leaving
 * stops the alarm loop (and the slot socket); the first one after that starts it again at the tip (no replay).
 *
 * Live source: an alarm loop. Each run asks `getSlot` (confirmed), then `getBlocks(cursor + 1, tip)` and reads the next
 * blocks with the trade index's own code (`fetchBlock` + `readBlock`: the same trades, prices and pool events as the
 * index and REST). The cursor lives in storage, so slots missed while the object was evicted or the upstream was down
 * are read back, at most `limits.chainTail.maxCatchUpSlots` (~60 s of slots; older ones are skipped and logged). Caught
 * up, it polls every `pollMs` (about one slot), and with an upstream PubSub (UPSTREAM_WS_URL) a `slotSubscribe`
 * notification wakes it at once: every provider serves `slotSubscribe`, and a new slot is exactly when a block may have
 * become confirmed. The notification only wakes the loop; blocks are always read with `getBlocks` + `getBlock`, so a
 * lost socket or a missed notification costs at most one poll, never a block. Not chosen: `blockSubscribe` (missing on
 * most providers), and `logsSubscribe` mentions per program or `accountSubscribe` per pool, which carry no balances
 * or amounts (every notification would still cost a `getBlock`), need one subscription per program or pool, and
 * would miss wallet activity outside the venues.
 *
 * New pools (swapped or created) are registered in the pool registry as each block is read, so they price at once
 * (while the tail is idle, the trade index's cron registers them, within a minute).
 * Nothing stops the loop: an upstream fault is logged and retried with backoff (the cursor stays on the last block
 * handled); a block that cannot be parsed is logged and skipped; a room whose publishes keep failing is dropped.
 *
 * Storage (this object's, key → value):
 * - `room:<room>` → string[]: the topics a room registered (`setTopics`); absent when it has none.
 * - `cursor` → number: the last slot handled (absent: start at the tip on the next run).
 * - `solUsd` → number | null: the SOL/USD of the last block read (`readBlock`'s carry for blocks with no SOL/stable swap).
 * A room is named by the name it was created with (`STREAM_ROOM.idFromName`, "shard-N") or by its Durable Object id
 * (`ctx.id.toString()`, 64 hex digits).
 */
import type { Address } from "@solana/kit";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import type { PriceCaller } from "../pricing/price-service";
import type { PriceRecord } from "../pricing/price-record";
import { servicesOf } from "../services";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import { openUpstreamSocket } from "../rpc/upstream-socket";
import { fetchBlock, readBlock, type JsonBlock } from "../trades/block-reading";
import { poolUpsertStatements, type StoredBlock } from "../trades/trade-store";
import { blockEvents, eventsForRoom, gapEvent, mintsToPrice, priceEvents, priceTopic, topicPattern } from "./stream-event-builders";
import type { StreamEvent, StreamEventSink, TopicRegistry } from "./stream-events";
import { newEpoch, type PublishPosition } from "./publish-position";

const ROOM_PREFIX = "room:";
const roomIdForm = /^[0-9a-f]{64}$/;

/** What a run did: how far it got, and whether more blocks wait (the next run starts at once). */
interface RunReport {
  cursor: number;
  tip: number;
  blocks: number;
  more: boolean;
}

/**
 * Pools the tail registered (address → slot), so a known pool is not written again every block. One per isolate (there
 * is one tail per cluster), within `limits.chainTail.registeredPoolsMemoBytes`.
 */
const registeredPools = new BoundedCache<string, number>("chain-tail-registered-pools", limits.chainTail.registeredPoolsMemoBytes, () => 8);

const log = (level: "info" | "warn" | "error", fields: Record<string, unknown>) =>
  (level === "error" ? console.error : level === "warn" ? console.warn : console.log)(JSON.stringify({ level, chainTail: true, ...fields }));

/** Wait before the next attempt after `failures` failures in a row: doubling from `retryMinMs` up to `retryMaxMs`. */
const backoffMs = (failures: number) => Math.min(limits.chainTail.retryMaxMs, limits.chainTail.retryMinMs * 2 ** Math.max(0, failures - 1));

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class ChainTail extends DurableObject<Env> implements TopicRegistry {
  /** room → its topics, as stored */
  private rooms = new Map<string, Set<string>>();
  /** consecutive failed publishes per room */
  private publishFailures = new Map<string, number>();
  /** Per priced mint, the chain slot of the last record pushed: a record read at that slot or before says nothing new. */
  private pricedAtSlot = new Map<string, number>();
  /** this tail's order of publish positions (publish-position.ts), kept in storage beside the cursor */
  private epoch: string | undefined;
  /** consecutive failed runs (upstream faults): the backoff's exponent */
  private faults = 0;
  /** a run is in progress; a wake during it makes the next one start at once */
  private running = false;
  private wokenDuringRun = false;
  /** the upstream `slotSubscribe` socket (null: none open), when it was last tried, and failures in a row (its backoff) */
  private slotSocket: WebSocket | null = null;
  private slotSocketTriedAt = 0;
  private slotSocketFailures = 0;
  private slotSocketOpening = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.list<string[]>({ prefix: ROOM_PREFIX });
      for (const [key, topics] of stored) this.rooms.set(key.slice(ROOM_PREFIX.length), new Set(topics));
    });
  }

  /**
   * A room's topics, replacing what it registered before (an empty list unregisters it). Never throws (a throw would
   * reach the room as an error it cannot act on): a malformed topic is dropped, and past
   * `limits.chainTail.maxTopicsPerRoom` distinct topics the rest are dropped; both are logged.
   */
  async setTopics(room: string, topics: string[]): Promise<void> {
    if (typeof room !== "string" || room.length === 0 || room.length > 128 || !Array.isArray(topics)) {
      log("error", { event: "set-topics-refused", room: String(room).slice(0, 128), reason: "room: a name of 1..128 chars; topics: an array" });
      return;
    }
    const unique = new Set<string>();
    let malformed = 0;
    let over = 0;
    for (const topic of topics) {
      if (typeof topic !== "string" || !topicPattern.test(topic)) malformed++;
      else if (unique.size < limits.chainTail.maxTopicsPerRoom || unique.has(topic)) unique.add(topic);
      else over++;
    }
    if (malformed > 0 || over > 0) log("error", { event: "topics-dropped", room, malformed, overLimit: over, kept: unique.size });
    const wasIdle = this.rooms.size === 0;
    this.publishFailures.delete(room);
    if (unique.size === 0) {
      this.rooms.delete(room);
      await this.ctx.storage.delete(ROOM_PREFIX + room);
      return;
    }
    this.rooms.set(room, unique);
    await this.ctx.storage.put(ROOM_PREFIX + room, [...unique]);
    if (wasIdle) {
      // Idle until now: start live at the tip (the first run sets the cursor), not by replaying the past to new sockets.
      await this.ctx.storage.delete("cursor");
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
  }

  /** The loop: one run, then the next alarm (at once when behind, `pollMs` when caught up, backoff after a fault). */
  override async alarm(): Promise<void> {
    if (this.rooms.size === 0) {
      this.closeSlotSocket("idle");
      return;
    }
    this.openSlotSocket();
    let delay: number = limits.chainTail.pollMs;
    this.running = true;
    this.wokenDuringRun = false;
    try {
      const report = await this.run();
      this.faults = 0;
      if (report.more || this.wokenDuringRun) delay = 0;
    } catch (err) {
      this.faults++;
      delay = backoffMs(this.faults);
      log("warn", { event: "upstream-fault", error: messageOf(err), retryInMs: delay, faults: this.faults });
    } finally {
      this.running = false;
    }
    if (this.rooms.size > 0) await this.ctx.storage.setAlarm(Date.now() + delay);
    else this.closeSlotSocket("idle");
  }

  /** A new slot upstream: run now (or right after the run in progress), unless the loop is idle or backing off. */
  private wake(): void {
    if (this.rooms.size === 0 || this.faults > 0) return;
    if (this.running) this.wokenDuringRun = true;
    else void this.ctx.storage.setAlarm(Date.now()).catch(() => undefined);
  }

  /** Opens the upstream `slotSubscribe` socket when there is none (UPSTREAM_WS_URL, first that accepts), with backoff. */
  private openSlotSocket(): void {
    const urls = servicesOf(this.env).config.pubSubUrls;
    if (urls.length === 0 || this.slotSocket || this.slotSocketOpening) return;
    if (this.slotSocketFailures > 0 && Date.now() - this.slotSocketTriedAt < backoffMs(this.slotSocketFailures)) return;
    this.slotSocketTriedAt = Date.now();
    this.slotSocketOpening = true;
    void (async () => {
      try {
        const ws = await openUpstreamSocket(urls);
        ws.addEventListener("message", (m) => {
          if (typeof m.data === "string" && m.data.length < 4096 && m.data.includes('"slotNotification"')) this.wake();
        });
        const lost = (why: string) => () => {
          if (this.slotSocket !== ws) return;
          this.slotSocket = null;
          this.slotSocketFailures++;
          log("warn", { event: "slot-socket-lost", why, failures: this.slotSocketFailures });
        };
        ws.addEventListener("close", lost("closed"));
        ws.addEventListener("error", lost("error"));
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
        this.slotSocket = ws;
        this.slotSocketFailures = 0;
      } catch (err) {
        this.slotSocketFailures++;
        log("warn", { event: "slot-socket-failed", error: messageOf(err), failures: this.slotSocketFailures });
      } finally {
        this.slotSocketOpening = false;
      }
    })();
  }

  private closeSlotSocket(reason: string): void {
    const ws = this.slotSocket;
    if (!ws) return;
    this.slotSocket = null;
    try {
      ws.close(1000, reason);
    } catch {
      // already closing
    }
  }

  /** Reads the next blocks after the cursor (at most `blocksPerRun`) and publishes their events. Upstream faults throw. */
  private async run(): Promise<RunReport> {
    const { upstream } = servicesOf(this.env);
    const { result: tip } = await upstream.call<number>("getSlot", [{ commitment: "confirmed" }], { idempotent: true });
    let cursor = await this.ctx.storage.get<number>("cursor");
    // A node a few slots behind (another upstream answered) is waited for: going back would publish blocks twice. Only
    // a chain far behind the cursor (a restarted cluster) moves the cursor back, to its tip.
    if (cursor !== undefined && cursor > tip && cursor - tip <= limits.chainTail.maxCatchUpSlots) return { cursor, tip, blocks: 0, more: false };
    if (cursor === undefined || cursor > tip) {
      // A cursor set afresh starts a new order of publish positions (a restarted cluster's slots may begin lower).
      this.epoch = newEpoch();
      await this.ctx.storage.put({ cursor: tip, epoch: this.epoch });
      return { cursor: tip, tip, blocks: 0, more: false };
    }
    if (tip - cursor > limits.chainTail.maxCatchUpSlots) {
      const from = tip - limits.chainTail.maxCatchUpSlots;
      log("warn", { event: "catch-up-capped", skippedFrom: cursor + 1, skippedTo: from, tip });
      // Subscribers are told which slots they will not get (at the position right after the last block published).
      await this.publishGap(cursor + 1, from, "fell-behind");
      cursor = from;
      await this.ctx.storage.put("cursor", cursor);
    }
    if (cursor >= tip) return { cursor, tip, blocks: 0, more: false };

    const { result: slots } = await upstream.call<number[]>("getBlocks", [cursor + 1, tip, { commitment: "confirmed" }], { idempotent: true });
    const page = slots.filter((s) => s > cursor! && s <= tip).sort((a, b) => a - b).slice(0, limits.chainTail.blocksPerRun);
    if (page.length === 0) {
      await this.ctx.storage.put("cursor", tip);
      return { cursor: tip, tip, blocks: 0, more: false };
    }
    // Read together, handled in slot order; an upstream fault stops at the block before it (retried on the next run).
    const answers = await Promise.allSettled(page.map((slot) => fetchBlock(upstream, slot)));
    let solUsd = (await this.ctx.storage.get<number | null>("solUsd")) ?? (await this.priceService().solUsd(this.priceCaller).catch(() => null));
    await this.loadEpoch();
    let handled = 0;
    for (let k = 0; k < page.length; k++) {
      const slot = page[k]!;
      const answer = answers[k]!;
      if (answer.status === "rejected") throw answer.reason;
      if (answer.value !== null) {
        let block: StoredBlock | undefined;
        try {
          block = readBlock(slot, answer.value, solUsd);
        } catch (err) {
          log("error", { event: "block-skipped", slot, reason: messageOf(err) });
          await this.publishGap(slot, slot, "unreadable-block");
        }
        if (block) {
          solUsd = block.solUsd;
          await this.handleBlock(block, answer.value);
        }
      }
      cursor = slot;
      handled++;
      await this.ctx.storage.put({ cursor, solUsd });
    }
    const more = slots.length > page.length;
    return { cursor, tip, blocks: handled, more };
  }

  /** Registers the block's pools, then publishes its events to each room that wants some of them. */
  private async handleBlock(block: StoredBlock, raw: JsonBlock): Promise<void> {
    // Pools this instance registered before are left to the index (it moves their last_slot): a mainnet block swaps
    // hundreds of known pools, and rewriting them every block would cost hundreds of D1 rows a block.
    const fresh = block.pools.filter((p) => !registeredPools.has(p.address));
    const registry = poolUpsertStatements(this.env.DB, [{ slot: block.slot, events: block.events, pools: fresh }]);
    if (registry.length > 0) {
      try {
        await this.env.DB.batch(registry);
        for (const p of fresh) registeredPools.set(p.address, block.slot);
      } catch (err) {
        log("error", { event: "pool-registration-failed", slot: block.slot, error: messageOf(err) });
      }
    }
    if (this.rooms.size === 0) return;
    const wanted = new Set<string>();
    for (const topics of this.rooms.values()) for (const t of topics) wanted.add(t);
    let events: StreamEvent[];
    try {
      events = blockEvents(block, raw, wanted);
    } catch (err) {
      // a reader bug on one block must not stall every room: logged and skipped like an unparsable block
      log("error", { event: "block-skipped", slot: block.slot, reason: `events: ${messageOf(err)}` });
      await this.publishGap(block.slot, block.slot, "unreadable-block");
      return;
    }
    await this.fillInitialPrices(events, block.slot);
    // The block's own events go out first; its price events (an account read per batch of mints) follow in a second
    // publish, so a slow price read never holds trades back. Each room still sees them in chain order.
    await this.publishAll(events, { epoch: this.epoch!, slot: block.slot, part: 0 });
    for (const mint of this.pricedAtSlot.keys()) if (!wanted.has(priceTopic(mint))) this.pricedAtSlot.delete(mint);
    const toPrice = mintsToPrice(block, wanted);
    if (toPrice.length > 0) await this.publishAll(priceEvents(block.slot, await this.prices(toPrice, block.slot)), { epoch: this.epoch!, slot: block.slot, part: 1 });
  }

  /**
   * A new pool no trade of its block touched gets, as initial price, its price read right after that block (the pool
   * named, so a pool under the liquidity floor is priced too): quote per base for SOL- and USD-stable-quoted pools.
   * One read per such pool, side by side; a pool that cannot be priced now keeps `initialPrice: null` (logged).
   */
  private async fillInitialPrices(events: StreamEvent[], slot: number): Promise<void> {
    const unpriced = events.flatMap((e) => (e.kind === "newpair" && e.data.type === "create" && e.data.initialPrice === null ? [e.data] : []));
    if (unpriced.length === 0) return;
    await Promise.all(
      unpriced.map(async (pair) => {
        const outcome = (await this.priceService().uncached.price([pair.mint as Address], this.priceCaller, { poolId: pair.pool as Address }).catch(() => undefined))?.get(pair.mint as Address);
        const record = outcome?.ok && outcome.record.stale !== true && outcome.record.pool === pair.pool ? outcome.record : undefined;
        const quotePerBase =
          record === undefined ? null : pair.quoteMint === WSOL_MINT ? Number(record.priceInSol) : pair.quoteMint === USDC_MINT || pair.quoteMint === USDT_MINT ? Number(record.priceInUsd) : null;
        if (quotePerBase !== null && Number.isFinite(quotePerBase) && quotePerBase > 0) pair.initialPrice = quotePerBase;
        else if (record === undefined) log("warn", { event: "initial-price-unavailable", slot, pool: pair.pool, error: outcome?.ok ? "stale" : outcome?.error.code });
      }),
    );
  }

  /**
   * Tells every room that slots `fromSlot..toSlot` will not be streamed. Published at (toSlot, part 1): after anything of
   * earlier blocks, and no block at or before `toSlot` is published after it.
   */
  private async publishGap(fromSlot: number, toSlot: number, reason: "fell-behind" | "unreadable-block"): Promise<void> {
    if (this.rooms.size === 0) return;
    await this.publishAll([gapEvent(fromSlot, toSlot, reason)], { epoch: await this.loadEpoch(), slot: toSlot, part: 1 });
  }

  /** This tail's epoch of publish positions: kept in storage, made once. */
  private async loadEpoch(): Promise<string> {
    if (this.epoch === undefined) {
      this.epoch = (await this.ctx.storage.get<string>("epoch")) ?? newEpoch();
      await this.ctx.storage.put("epoch", this.epoch);
    }
    return this.epoch;
  }

  private async publishAll(events: StreamEvent[], position: PublishPosition): Promise<void> {
    if (events.length === 0) return;
    await Promise.all([...this.rooms].map(([room, topics]) => this.publishTo(room, eventsForRoom(events, topics), position)));
  }

  /**
   * The price service's records for `mints` (the REST records), read after the block; a mint that cannot be priced now,
   * or only from a stale record, is left out (logged).
   */
  private async prices(mints: readonly Address[], slot: number): Promise<PriceRecord[]> {
    if (mints.length === 0) return [];
    try {
      // Read now, never from the cache (TTL 0): the record must show the pool after this block. Computing it also
      // refreshes the cache REST answers from.
      const outcomes = await this.priceService().uncached.price(mints, this.priceCaller);
      const records: PriceRecord[] = [];
      for (const mint of mints) {
        const outcome = outcomes.get(mint);
        // a stale record (the upstream failed) says nothing new about this block
        if (!outcome?.ok || outcome.record.stale === true) {
          log("warn", { event: "price-unavailable", slot, mint, error: outcome?.ok ? "stale" : outcome?.error.code });
          continue;
        }
        // While the tail catches up, two blocks can be priced at the same chain tip: the same record is pushed once.
        if ((this.pricedAtSlot.get(mint) ?? -1) >= outcome.record.slot) continue;
        this.pricedAtSlot.set(mint, outcome.record.slot);
        records.push(outcome.record);
      }
      return records;
    } catch (err) {
      log("warn", { event: "price-unavailable", slot, mints: mints.length, error: messageOf(err) });
      return [];
    }
  }

  /**
   * One room's part of a block. A failed publish is tried again (`limits.chainTail.publishAttempts`): the room takes each
   * position once, so an attempt that did land before its answer was lost duplicates nothing.
   */
  private async publishTo(room: string, events: StreamEvent[], position: PublishPosition): Promise<void> {
    if (events.length === 0) return;
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.roomSink(room).publish(events, position);
          break;
        } catch (err) {
          if (attempt >= limits.chainTail.publishAttempts) throw err;
          await new Promise((r) => setTimeout(r, limits.chainTail.publishRetryMs * attempt));
        }
      }
      this.publishFailures.delete(room);
    } catch (err) {
      const failures = (this.publishFailures.get(room) ?? 0) + 1;
      this.publishFailures.set(room, failures);
      log("warn", { event: "publish-failed", room, failures, error: messageOf(err) });
      if (failures >= limits.chainTail.maxPublishFailures && this.rooms.has(room)) {
        log("warn", { event: "room-dropped", room, failures });
        this.rooms.delete(room);
        this.publishFailures.delete(room);
        await this.ctx.storage.delete(ROOM_PREFIX + room);
      }
    }
  }

  /** The room's side of the contract: its Durable Object, by name (or id). */
  protected roomSink(room: string): StreamEventSink {
    const ns = this.env.STREAM_ROOM;
    const id = roomIdForm.test(room) ? ns.idFromString(room) : ns.idFromName(room);
    return ns.get(id) as unknown as StreamEventSink;
  }

  /** The deployment's price service (services.ts), and what this object adds to a price request. */
  private priceService = () => servicesOf(this.env).prices;
  private readonly priceCaller: PriceCaller = { waitUntil: (p) => this.ctx.waitUntil(p) };
}
