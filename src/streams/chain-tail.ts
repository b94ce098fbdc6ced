/**
 * The chain tail: one Durable Object (the rooms reach it as `CHAIN_TAIL.idFromName(chainTailName)`, stream-room.ts) that
 * follows the chain at `confirmed` and feeds the /ws rooms with the events of their topics (stream-events.ts), one
 * publish per block per room, blocks in slot order. Live candles are folded here from the blocks read (candle-book.ts). It works only while some room has topics: the last room leaving
 * stops the alarm loop (and the slot socket); the first one after that starts it again at the tip (no replay).
 *
 * Live source: an alarm loop. Each run asks `getSlot` (confirmed), then `getBlocks(cursor + 1, tip)` and reads the next
 * blocks with the trade index's own code (`fetchBlock` + `readBlock`: the same trades, prices and pool events as the
 * index and REST; a trade quoted in another token, an LST or a memecoin, is valued through the same USD of that token
 * at that block as the index's, src/trades/block-quote-usd.ts). The cursor lives in storage, so slots missed while the
 * object was evicted or the upstream was down are read back, at most `limits.chainTail.maxCatchUpSlots` (~60 s of slots; older ones are skipped and logged). Caught
 * up, it polls every `pollMs` (about one slot), and with an upstream PubSub (UPSTREAM_WS_URL) a `slotSubscribe`
 * notification wakes it at once: every provider serves `slotSubscribe`, and a new slot is exactly when a block may have
 * become confirmed. The notification only wakes the loop; blocks are always read with `getBlocks` + `getBlock`, so a
 * lost socket or a missed notification costs at most one poll, never a block. Not chosen: `blockSubscribe` (missing on
 * most providers), and `logsSubscribe` mentions per program or `accountSubscribe` per pool, which carry no balances
 * or amounts (every notification would still cost a `getBlock`), need one subscription per program or pool, and
 * would miss wallet activity outside the venues.
 *
 * New pools (swapped or created) are registered in the pool registry as each block is read, so they price at once
 * (pool-registry/registry-writes.ts; while the tail is idle, the trade index's cron registers them, within a minute).
 *
 * Idle: when the last room unregisters (or is dropped), the slot socket is closed and the alarm deleted at once; nothing
 * runs or logs until a room registers a topic again, which starts the loop (and the socket) live at the tip.
 *
 * Processed prices (`price@processed:<mint>` topics, docs/streams.md#processed-commitment): on every new slot (the slot
 * socket's notification, else each run of the loop) the mints some room follows at processed are priced from their
 * accounts read at `processed` (the price service's processed side: one batched read, no cache) and a record whose
 * market moved goes out at once, on the tail's second output (publish-position.ts `stream: "processed"`). Blocks
 * themselves cannot be read at processed (getBlock refuses it), so trades and the rest stay confirmed. Each run's
 * `getBlocks` then settles the processed slots published: one the confirmed chain passed without a block was dropped
 * by the cluster, and its mints get a correction event, then their confirmed record.
 *
 * This file is the thin Durable Object shell: every decision (rooms and topics, where a run starts, which blocks it
 * reads, backoff, idle, which rooms an event goes to, which prices are new, dropping a failing room) is made by
 * ChainTailState (chain-tail-state.ts), which the unit tests drive without Durable Objects.
 * Nothing stops the loop: an upstream fault is logged and retried with backoff (the cursor stays on the last block
 * handled); a block that cannot be parsed is logged and skipped; a room whose publishes keep failing is dropped.
 *
 * Storage (this object's, key → value):
 * - `room:<room>` → string[]: the topics a room registered (`setTopics`); absent when it has none.
 * - `cursor` → number: the last slot handled (absent: start at the tip on the next run).
 * - `solUsd` → { after, solUsd }: the SOL/USD in force after block `after` (`readBlock`'s carry for blocks with no
 *   SOL/stable swap); used only while `after` is the cursor, else found again (src/trades/sol-usd-carry.ts).
 * A room is named by the name it was created with (`STREAM_ROOM.idFromName`, "shard-N") or by its Durable Object id
 * (`ctx.id.toString()`, 64 hex digits).
 */
import type { Address } from "@solana/kit";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { limits } from "../limits";
import { registerNewPools } from "../pool-registry/registry-writes";
import type { PriceCaller } from "../pricing/price-service";
import type { PriceRecord } from "../pricing/price-record";
import { openUpstreamSocket } from "../rpc/upstream-socket";
import { servicesOf } from "../services";
import { USDC_MINT, USDT_MINT, WSOL_MINT } from "../solana/well-known";
import { fetchBlock, readBlock, type JsonBlock } from "../trades/block-reading";
import { d1QuoteUsdSources, valueBlocksThroughQuotes } from "../trades/block-quote-usd";
import { chainSolUsdSources, solUsdBefore } from "../trades/sol-usd-carry";
import type { StoredBlock } from "../trades/trade-store";
import { ChainTailState, isSlotNotification } from "./chain-tail-state";
import { addressesOf, blockEvents, correctionEvent, gapEvent, mintsToPrice, priceEvents, processedPriceEvents } from "./stream-event-builders";
import type { StreamEvent, StreamEventSink, TopicRegistry } from "./stream-events";
import { newEpoch, type PublishPosition } from "./publish-position";

const ROOM_PREFIX = "room:";
const roomIdForm = /^[0-9a-f]{64}$/;

/** The SOL/USD in force after block `after` (null: none known). */
interface SolUsdCarry {
  after: number;
  solUsd: number | null;
}

const log = (level: "info" | "warn" | "error", fields: Record<string, unknown>) =>
  (level === "error" ? console.error : level === "warn" ? console.warn : console.log)(JSON.stringify({ level, chainTail: true, ...fields }));

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class ChainTail extends DurableObject<Env> implements TopicRegistry {
  private readonly state = new ChainTailState();
  /** this tail's order of publish positions (publish-position.ts), kept in storage beside the cursor */
  private epoch: string | undefined;
  /** the upstream `slotSubscribe` socket (null: none open), and whether one is being opened */
  private slotSocket: WebSocket | null = null;
  private slotSocketOpening = false;
  /** the order of the processed output's positions: one per object life (a restarted tail starts a new one) */
  private readonly processedEpoch = newEpoch();
  /** the processed reads in progress (null: none), and whether a new slot came meanwhile (one more read follows at once) */
  private processedLoop: Promise<void> | null = null;
  private processedAgain = false;
  /** the processed output's last publish: the next one starts after it */
  private processedOutput: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.list<string[]>({ prefix: ROOM_PREFIX });
      this.state.load([...stored].map(([key, topics]) => [key.slice(ROOM_PREFIX.length), topics] as const));
    });
  }

  /**
   * A room's topics, replacing what it registered before (an empty list unregisters it). Never throws (a throw would
   * reach the room as an error it cannot act on): a malformed topic is dropped, and past
   * `limits.chainTail.maxTopicsPerRoom` distinct topics the rest are dropped; both are logged.
   */
  async setTopics(room: string, topics: string[]): Promise<void> {
    const verdict = this.state.setTopics(room, topics);
    if (!verdict.ok) {
      log("error", { event: "set-topics-refused", room: String(room).slice(0, limits.chainTail.maxRoomNameLength), reason: verdict.reason });
      return;
    }
    if (verdict.malformed > 0 || verdict.overLimit > 0) log("error", { event: "topics-dropped", room, malformed: verdict.malformed, overLimit: verdict.overLimit, kept: verdict.topics.length });
    if (verdict.topics.length === 0) await this.ctx.storage.delete(ROOM_PREFIX + room);
    else await this.ctx.storage.put(ROOM_PREFIX + room, verdict.topics);
    if (verdict.nowIdle) return this.goIdle();
    if (verdict.wasIdle) {
      // Idle until now: start live at the tip (the first run sets the cursor), not by replaying the past to new sockets.
      await this.ctx.storage.delete("cursor");
      log("info", { event: "tail-started", room });
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now());
    // a mint newly followed at processed gets its first record now, not at the next slot
    void this.readProcessed();
  }

  /** The loop: one run, then the next alarm (at once when behind, `pollMs` when caught up, backoff after a fault). */
  override async alarm(): Promise<void> {
    if (this.state.idle) return this.goIdle();
    this.openSlotSocket();
    // without a slot socket, each run is the processed prices' chance to see a new slot
    if (this.slotSocket === null) void this.readProcessed();
    this.state.runStarted();
    let next: number | null;
    try {
      const more = await this.run();
      next = this.state.runEnded({ more });
    } catch (err) {
      next = this.state.runEnded({ fault: true });
      log("warn", { event: "upstream-fault", error: messageOf(err), retryInMs: next, faults: this.state.faultsInARow });
    }
    if (next === null) await this.goIdle();
    else await this.ctx.storage.setAlarm(Date.now() + next);
  }

  /** No room has a topic: the slot socket closes and no alarm stays set, so nothing runs (or logs) until one comes back. */
  private async goIdle(): Promise<void> {
    const hadSocket = this.closeSlotSocket("idle");
    const hadAlarm = (await this.ctx.storage.getAlarm()) !== null;
    if (hadAlarm) await this.ctx.storage.deleteAlarm();
    if (hadSocket || hadAlarm) log("info", { event: "tail-idle" });
  }

  /** A new slot upstream: run now (or right after the run in progress), unless the loop is idle or backing off. */
  private wake(): void {
    if (this.state.wake() === "now") void this.ctx.storage.setAlarm(Date.now()).catch(() => undefined);
  }

  /** Opens the upstream `slotSubscribe` socket when there is none (UPSTREAM_WS_URL, first that accepts), with backoff. */
  private openSlotSocket(): void {
    const urls = servicesOf(this.env).config.pubSubUrls;
    if (urls.length === 0 || this.slotSocket || this.slotSocketOpening || !this.state.maySocketOpen(Date.now())) return;
    this.state.socketTried(Date.now());
    this.slotSocketOpening = true;
    void (async () => {
      try {
        const ws = await openUpstreamSocket(urls);
        if (this.state.idle) {
          // The last room left while it was opening.
          ws.close(1000, "idle");
          return;
        }
        ws.addEventListener("message", (m) => {
          if (!isSlotNotification(m.data)) return;
          // the processed prices first: the confirmed run (a block read and parsed) would hold the thread they need
          void this.readProcessed().finally(() => this.wake());
        });
        const lost = (why: string) => () => {
          if (this.slotSocket !== ws) return;
          this.slotSocket = null;
          log("warn", { event: "slot-socket-lost", why, failures: this.state.socketFailed() });
        };
        ws.addEventListener("close", lost("closed"));
        ws.addEventListener("error", lost("error"));
        ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
        this.slotSocket = ws;
        this.state.socketOpened();
      } catch (err) {
        log("warn", { event: "slot-socket-failed", error: messageOf(err), failures: this.state.socketFailed() });
      } finally {
        this.slotSocketOpening = false;
      }
    })();
  }

  /** Closes the slot socket if one is open (its close event then finds it no longer ours: nothing is logged). */
  private closeSlotSocket(reason: string): boolean {
    const ws = this.slotSocket;
    if (!ws) return false;
    this.slotSocket = null;
    try {
      ws.close(1000, reason);
    } catch {
      // already closing
    }
    return true;
  }

  /** Reads the next blocks after the cursor (at most `blocksPerRun`) and publishes their events; true when more wait. Upstream faults throw. */
  private async run(): Promise<boolean> {
    const { upstream } = servicesOf(this.env);
    const { result: tip } = await upstream.call<number>("getSlot", [{ commitment: "confirmed" }], { idempotent: true });
    const start = this.state.runStart(await this.ctx.storage.get<number>("cursor"), tip);
    if (start.kind === "wait") return false;
    if (start.kind === "restart") {
      // A cursor set afresh starts a new order of publish positions (a restarted cluster's slots may begin lower).
      this.epoch = newEpoch();
      this.state.confirmedRestarted();
      // slots before the new cursor were not read: candles forming now may lack trades
      this.state.candles.skipped();
      await this.ctx.storage.put({ cursor: start.cursor, epoch: this.epoch });
      return false;
    }
    let cursor = start.cursor;
    if (start.skipped) {
      log("warn", { event: "catch-up-capped", skippedFrom: start.skipped.fromSlot, skippedTo: start.skipped.toSlot, tip });
      // Subscribers are told which slots they will not get (at the position right after the last block published).
      await this.publishGap(start.skipped.fromSlot, start.skipped.toSlot, "fell-behind");
      await this.ctx.storage.put("cursor", cursor);
    }
    if (cursor >= tip) return false;

    const { result: slots } = await upstream.call<number[]>("getBlocks", [cursor + 1, tip, { commitment: "confirmed" }], { idempotent: true });
    await this.publishCorrections(this.state.settleProcessed(slots, cursor + 1, tip));
    const { page, more } = this.state.page(slots, cursor, tip);
    const kept = await this.ctx.storage.get<SolUsdCarry>("solUsd");
    // the SOL/USD carried from the block at the cursor; any other (a cursor set afresh, slots skipped) is not this chain's
    const carried = typeof kept === "object" && kept !== null && kept.after === cursor ? kept.solUsd : undefined;
    if (page.length === 0) {
      // no block up to the tip: the carry goes on
      await this.ctx.storage.put(carried === undefined ? { cursor: tip } : { cursor: tip, solUsd: { after: tip, solUsd: carried } });
      return false;
    }
    // Read together, handled in slot order; an upstream fault stops at the block before it (retried on the next run).
    const answers = await Promise.allSettled(page.map((slot) => fetchBlock(upstream, slot)));
    // The first block's carry as the trade index finds it (sol-usd-carry.ts), so REST and the stream price its trades alike.
    let solUsd = carried !== undefined ? carried : await solUsdBefore(chainSolUsdSources(this.env.DB, upstream, () => this.priceService().solUsd(this.priceCaller).catch(() => null)), page[0]!);
    await this.loadEpoch();
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
          // trades quoted in other tokens valued with the trade index's value for this block (one D1 batch when it has
          // any); a D1 fault throws like an upstream one: the block is read again, never published valued otherwise than REST
          await valueBlocksThroughQuotes(this.quoteUsdSources(), [block], false);
          await this.handleBlock(block, answer.value);
        }
      }
      cursor = slot;
      await this.ctx.storage.put({ cursor, solUsd: { after: cursor, solUsd } satisfies SolUsdCarry });
    }
    return more;
  }

  /** Registers the block's new pools, then publishes its events to each room that wants some of them. */
  private async handleBlock(block: StoredBlock, raw: JsonBlock): Promise<void> {
    try {
      await registerNewPools(this.env.DB, block);
    } catch (err) {
      log("error", { event: "pool-registration-failed", slot: block.slot, error: messageOf(err) });
    }
    if (this.state.idle) return;
    const wanted = this.state.wanted();
    let events: StreamEvent[];
    try {
      events = blockEvents(block, raw, wanted);
      // the block's candles after its trades: the candles it closed, then those it moved
      this.state.candles.follow(addressesOf(wanted, "candle"));
      events.push(...this.state.candles.block(block.slot, block.blockTime, block.trades));
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
    const toPrice = mintsToPrice(block, wanted);
    if (toPrice.length > 0) {
      const records = this.state.newPrices(await this.prices(toPrice, block.slot), wanted);
      await this.publishAll(priceEvents(block.slot, records), { epoch: this.epoch!, slot: block.slot, part: 1 });
    }
  }

  /**
   * A new slot upstream: the processed prices are read now, or right after the read in progress. Settles when no read
   * is left to do; never rejects (a failed read is logged; the next slot reads again).
   */
  private readProcessed(): Promise<void> {
    if (this.processedLoop !== null) {
      this.processedAgain = true;
      return this.processedLoop;
    }
    if (this.state.processedMints().length === 0) return Promise.resolve();
    this.processedLoop = (async () => {
      try {
        do {
          this.processedAgain = false;
          await this.publishProcessed();
        } while (this.processedAgain && !this.state.idle);
      } catch (err) {
        log("warn", { event: "processed-read-failed", error: messageOf(err) });
      } finally {
        this.processedLoop = null;
      }
    })();
    return this.processedLoop;
  }

  /** Prices the mints followed at processed, from accounts read at processed; publishes the records whose market moved. */
  private async publishProcessed(): Promise<void> {
    const mints = this.state.processedMints() as Address[];
    if (mints.length === 0) return;
    const outcomes = await this.priceService().processed.price(mints, this.priceCaller);
    const records: PriceRecord[] = [];
    for (const mint of mints) {
      const outcome = outcomes.get(mint);
      if (outcome?.ok && outcome.record.stale !== true) records.push(outcome.record);
    }
    const fresh = this.state.newProcessedPrices(records);
    if (fresh === null) return;
    await this.publishProcessedOutput(processedPriceEvents(fresh.records, "processed"), { slot: fresh.slot, part: 0 });
  }

  /**
   * Processed slots the cluster dropped: each of their mints gets a correction (its events at that slot are retracted),
   * then its confirmed record read now, on the processed output after everything published there.
   */
  private async publishCorrections(dropped: { slot: number; mints: string[] }[]): Promise<void> {
    if (dropped.length === 0) return;
    const mints = [...new Set(dropped.flatMap((d) => d.mints))] as Address[];
    log("info", { event: "processed-dropped", slots: dropped.map((d) => d.slot), mints: mints.length });
    const records = await this.prices(mints, dropped[dropped.length - 1]!.slot);
    const events: StreamEvent[] = dropped.flatMap((d) => d.mints.map((mint) => correctionEvent(mint, d.slot)));
    events.push(...processedPriceEvents(records, "confirmed"));
    await this.publishProcessedOutput(events, this.state.correctionsPublished(records));
  }

  /**
   * One publish on the processed output, after the one before it: prices (read on a new slot) and corrections (found
   * by the confirmed run) are published one at a time in the order their positions were taken, so no room sees a
   * later position first (it would drop the earlier one as repeated). Call it in the turn that took the position.
   */
  private publishProcessedOutput(events: StreamEvent[], at: { slot: number; part: 0 | 1 }): Promise<void> {
    const position: PublishPosition = { epoch: this.processedEpoch, ...at, stream: "processed" };
    const done = this.processedOutput.then(() => this.publishAll(events, position));
    this.processedOutput = done.catch(() => undefined);
    return done;
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
    // the candles forming across the gap lack its trades
    this.state.candles.skipped();
    if (this.state.idle) return;
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
    await Promise.all(this.state.deliveries(events).map(({ room, events: mine }) => this.publishTo(room, mine, position)));
  }

  /**
   * The price service's records for `mints` (the REST records), read after the block; a mint that cannot be priced now,
   * or only from a stale record, is left out (logged).
   */
  private async prices(mints: readonly Address[], slot: number): Promise<PriceRecord[]> {
    try {
      // Read now, never from the cache (TTL 0): the record must show the pool after this block. Computing it also
      // refreshes the cache REST answers from.
      const outcomes = await this.priceService().uncached.price(mints, this.priceCaller);
      const records: PriceRecord[] = [];
      for (const mint of mints) {
        const outcome = outcomes.get(mint);
        // a stale record (the upstream failed) says nothing new about this block
        if (!outcome?.ok || outcome.record.stale === true) log("warn", { event: "price-unavailable", slot, mint, error: outcome?.ok ? "stale" : outcome?.error.code });
        else records.push(outcome.record);
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
      this.state.publishSucceeded(room);
    } catch (err) {
      const { failures, dropped } = this.state.publishFailed(room);
      log("warn", { event: "publish-failed", room, failures, error: messageOf(err) });
      if (dropped) {
        log("warn", { event: "room-dropped", room, failures });
        await this.ctx.storage.delete(ROOM_PREFIX + room);
        if (this.state.idle) await this.goIdle();
      }
    }
  }

  /** The room's side of the contract: its Durable Object, by name (or id). */
  protected roomSink(room: string): StreamEventSink {
    const ns = this.env.STREAM_ROOM;
    const id = roomIdForm.test(room) ? ns.idFromString(room) : ns.idFromName(room);
    return ns.get(id) as unknown as StreamEventSink;
  }

  /** Where the USD of other quote tokens per block is settled with the trade index (block-quote-usd.ts). */
  private quoteUsdSources = () => d1QuoteUsdSources(this.env.DB, (mints) => this.priceService().quoteUsd(mints as Address[], this.priceCaller));

  /** The deployment's price service (services.ts), and what this object adds to a price request. */
  private priceService = () => servicesOf(this.env).prices;
  private readonly priceCaller: PriceCaller = { waitUntil: (p) => this.ctx.waitUntil(p) };
}
