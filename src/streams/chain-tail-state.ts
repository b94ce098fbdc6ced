/**
 * Everything the chain tail decides, without Durable Object, storage, socket or upstream APIs: which rooms want which
 * topics, where a run starts and which blocks it reads, when the loop runs next (backoff), whether it is idle, when
 * the upstream slot socket may be opened again, which rooms an event goes to, which price records are new, and when
 * a room whose publishes keep failing is dropped. src/streams/chain-tail.ts is the thin shell around it (storage,
 * the alarm loop, the slot socket, block reading, pricing, publishing); test/unit/streams/chain-tail-state.test.ts
 * drives it with plain values.
 */
import { limits } from "../limits";
import type { PriceRecord } from "../pricing/price-record";
import { CandleBook } from "./candle-book";
import { eventsForRoom, marketOf, priceTopic } from "./stream-event-builders";
import { topicOf, topicPattern, type StreamEvent } from "./stream-events";

/** Where a run starts, from the stored cursor and the chain's confirmed tip. */
export type RunStart =
  /** the cursor is a few slots ahead of this node's tip (another upstream answered before): wait, never go back */
  | { kind: "wait" }
  /** no cursor (first start, back from idle) or a chain far behind it (a restarted cluster): start live at the tip */
  | { kind: "restart"; cursor: number }
  /** read the blocks after `cursor`; `skipped` slots were given up (the tail fell more than `maxCatchUpSlots` behind) */
  | { kind: "read"; cursor: number; skipped?: { fromSlot: number; toSlot: number } };

/** What `setTopics` keeps of a room's registration, and what it dropped (malformed, or past the per-room cap). */
export type TopicsVerdict =
  | { ok: false; reason: string }
  | { ok: true; topics: string[]; malformed: number; overLimit: number; wasIdle: boolean; nowIdle: boolean };

/** Wait before the next attempt after `failures` failures in a row: doubling from `retryMinMs` up to `retryMaxMs`. */
export const backoffMs = (failures: number) => Math.min(limits.chainTail.retryMaxMs, limits.chainTail.retryMinMs * 2 ** Math.max(0, failures - 1));

/** The mints of `price@processed:<mint>` topics. */
function addressesOfProcessed(topics: Iterable<string>): Set<string> {
  const prefix = topicOf("price", "", "processed");
  const out = new Set<string>();
  for (const t of topics) if (t.startsWith(prefix)) out.add(t.slice(prefix.length));
  return out;
}

/** Whether an upstream PubSub frame is a slot notification (read only when small: `maxSlotNotificationBytes`). */
export function isSlotNotification(data: unknown): boolean {
  return typeof data === "string" && data.length < limits.chainTail.maxSlotNotificationBytes && data.includes('"slotNotification"');
}

export class ChainTailState {
  /** room → its topics, as stored */
  private readonly rooms = new Map<string, Set<string>>();
  /** consecutive failed publishes per room */
  private readonly publishFailures = new Map<string, number>();
  /** Per priced mint, the chain slot of the last record pushed: a record read at that slot or before says nothing new. */
  private readonly pricedAtSlot = new Map<string, number>();
  /** consecutive failed runs (upstream faults): the backoff's exponent */
  private faults = 0;
  /** a run is in progress; a wake during it makes the next one start at once */
  private running = false;
  private wokenDuringRun = false;
  /** the upstream slot socket's failures in a row (its backoff) and when it was last tried */
  private socketFailures = 0;
  private socketTriedAt = 0;
  /** the live candles of the mints some room wants (`candle:<mint>` topics) */
  readonly candles = new CandleBook();
  /** Per mint followed at processed, the market (`marketOf`) of the last record pushed. */
  private readonly processedMarket = new Map<string, string>();
  /** Processed slots whose price events went out and that the confirmed chain has not settled yet: slot → mints. */
  private readonly processedSlots = new Map<number, Set<string>>();
  /** The last position taken on the processed output (publish-position.ts): positions only go up. */
  private processedLast: { slot: number; part: 0 | 1 } | null = null;
  /** The confirmed chain as the runs read it: its blocks from `confirmedFrom` up to `confirmedThrough` (recent ones). */
  private readonly confirmedBlocks = new Set<number>();
  private confirmedFrom = -1;
  private confirmedThrough = -1;

  /** Rooms as stored (a tail object that starts again). */
  load(stored: Iterable<readonly [string, readonly string[]]>): void {
    for (const [room, topics] of stored) this.rooms.set(room, new Set(topics));
  }

  /** No room has a topic: the loop and the slot socket stop. */
  get idle(): boolean {
    return this.rooms.size === 0;
  }

  get roomNames(): string[] {
    return [...this.rooms.keys()];
  }

  /** Every topic some room wants. */
  wanted(): Set<string> {
    const out = new Set<string>();
    for (const topics of this.rooms.values()) for (const t of topics) out.add(t);
    return out;
  }

  /**
   * A room's topics, replacing what it registered before (none: it leaves). A malformed topic is dropped, and past
   * `limits.chainTail.maxTopicsPerRoom` distinct topics the rest are dropped; the caller logs what was dropped and
   * stores the room's set.
   */
  setTopics(room: unknown, topics: unknown): TopicsVerdict {
    if (typeof room !== "string" || room.length === 0 || room.length > limits.chainTail.maxRoomNameLength || !Array.isArray(topics)) {
      return { ok: false, reason: `room: a name of 1..${limits.chainTail.maxRoomNameLength} chars; topics: an array` };
    }
    const unique = new Set<string>();
    let malformed = 0;
    let overLimit = 0;
    for (const topic of topics) {
      if (typeof topic !== "string" || !topicPattern.test(topic)) malformed++;
      else if (unique.size < limits.chainTail.maxTopicsPerRoom || unique.has(topic)) unique.add(topic);
      else overLimit++;
    }
    const wasIdle = this.idle;
    this.publishFailures.delete(room);
    if (unique.size === 0) this.rooms.delete(room);
    else this.rooms.set(room, unique);
    if (this.idle) this.forgetRun();
    return { ok: true, topics: [...unique], malformed, overLimit, wasIdle, nowIdle: this.idle };
  }

  /** Where a run starts, given the stored cursor (absent: none) and the confirmed tip. */
  runStart(cursor: number | undefined, tip: number): RunStart {
    const max = limits.chainTail.maxCatchUpSlots;
    // A node a few slots behind (another upstream answered) is waited for: going back would publish blocks twice. Only
    // a chain far behind the cursor (a restarted cluster) moves the cursor back, to its tip.
    if (cursor !== undefined && cursor > tip && cursor - tip <= max) return { kind: "wait" };
    if (cursor === undefined || cursor > tip) return { kind: "restart", cursor: tip };
    if (tip - cursor > max) return { kind: "read", cursor: tip - max, skipped: { fromSlot: cursor + 1, toSlot: tip - max } };
    return { kind: "read", cursor };
  }

  /** The blocks a run reads among `slots` (getBlocks' answer): after `cursor`, up to `tip`, at most `blocksPerRun`. */
  page(slots: readonly number[], cursor: number, tip: number): { page: number[]; more: boolean } {
    const page = slots.filter((s) => s > cursor && s <= tip).sort((a, b) => a - b).slice(0, limits.chainTail.blocksPerRun);
    return { page, more: slots.length > page.length };
  }

  // ---- the loop ----

  runStarted(): void {
    this.running = true;
    this.wokenDuringRun = false;
  }

  /**
   * A run ended (`fault`: it threw); returns when the next one starts (ms from now), null when idle (no alarm). At once
   * when more blocks wait or a slot came during the run, `pollMs` when caught up, backoff after faults.
   */
  runEnded(outcome: { more: boolean } | { fault: true }): number | null {
    this.running = false;
    let delay: number = limits.chainTail.pollMs;
    if ("fault" in outcome) {
      this.faults++;
      delay = backoffMs(this.faults);
    } else {
      this.faults = 0;
      if (outcome.more || this.wokenDuringRun) delay = 0;
    }
    return this.idle ? null : delay;
  }

  get faultsInARow(): number {
    return this.faults;
  }

  /** A new slot upstream: "now" (set the alarm now), "after-run" (the run in progress goes on at once), or "ignore". */
  wake(): "now" | "after-run" | "ignore" {
    if (this.idle || this.faults > 0) return "ignore";
    if (this.running) {
      this.wokenDuringRun = true;
      return "after-run";
    }
    return "now";
  }

  // ---- the upstream slot socket ----

  /** Whether to try opening the slot socket now (none open): never while idle, and with backoff after failures. */
  maySocketOpen(now: number): boolean {
    if (this.idle) return false;
    return this.socketFailures === 0 || now - this.socketTriedAt >= backoffMs(this.socketFailures);
  }

  socketTried(now: number): void {
    this.socketTriedAt = now;
  }

  socketOpened(): void {
    this.socketFailures = 0;
  }

  /** The socket failed or was lost (not closed by us): returns the failures in a row. */
  socketFailed(): number {
    return ++this.socketFailures;
  }

  // ---- publishing ----

  /** The rooms an event list goes to, each with its events (in order): rooms with none are left out. */
  deliveries(events: readonly StreamEvent[]): { room: string; events: StreamEvent[] }[] {
    if (events.length === 0) return [];
    const out: { room: string; events: StreamEvent[] }[] = [];
    for (const [room, topics] of this.rooms) {
      const mine = eventsForRoom(events, topics);
      if (mine.length > 0) out.push({ room, events: mine });
    }
    return out;
  }

  publishSucceeded(room: string): void {
    this.publishFailures.delete(room);
  }

  /**
   * A publish to `room` failed (after its retries): returns the failures in a row and whether the room was dropped
   * (`maxPublishFailures`; it registers again on its next setTopics). The caller deletes a dropped room's stored set.
   */
  publishFailed(room: string): { failures: number; dropped: boolean } {
    const failures = (this.publishFailures.get(room) ?? 0) + 1;
    this.publishFailures.set(room, failures);
    if (failures < limits.chainTail.maxPublishFailures || !this.rooms.has(room)) return { failures, dropped: false };
    this.rooms.delete(room);
    this.publishFailures.delete(room);
    if (this.idle) this.forgetRun();
    return { failures, dropped: true };
  }

  // ---- prices ----

  /**
   * Of records read after a block, those that say something new: while the tail catches up, two blocks can be priced at
   * the same chain tip, and the same record is pushed once. Mints no room wants any more are forgotten.
   */
  newPrices<R extends { ca: string; slot: number }>(records: readonly R[], wanted: ReadonlySet<string>): R[] {
    for (const mint of this.pricedAtSlot.keys()) if (!wanted.has(priceTopic(mint))) this.pricedAtSlot.delete(mint);
    const out: R[] = [];
    for (const record of records) {
      if ((this.pricedAtSlot.get(record.ca) ?? -1) >= record.slot) continue;
      this.pricedAtSlot.set(record.ca, record.slot);
      out.push(record);
    }
    return out;
  }

  // ---- processed ----

  /** The mints some room follows at processed (`price@processed:<mint>` topics). */
  processedMints(): string[] {
    return [...addressesOfProcessed(this.wanted())];
  }

  /**
   * Of records read at processed (one read: one slot), those whose market moved since the last one pushed (a mint
   * followed afresh: its first record). Returns them with the slot of the publish, or null when nothing goes out: no
   * change, a slot at or below the last processed position (the next read publishes it), or a slot the confirmed chain
   * already passed without it (read from a dropped fork). The slot is remembered until the confirmed chain settles it.
   */
  newProcessedPrices(records: readonly PriceRecord[]): { slot: number; records: PriceRecord[] } | null {
    const followed = addressesOfProcessed(this.wanted());
    for (const mint of this.processedMarket.keys()) if (!followed.has(mint)) this.processedMarket.delete(mint);
    if (records.length === 0) return null;
    const slot = Math.max(...records.map((r) => r.slot));
    if (this.processedLast !== null && slot <= this.processedLast.slot) return null;
    const settled = slot <= this.confirmedThrough && slot >= this.confirmedFrom;
    if (settled && !this.confirmedBlocks.has(slot)) return null;
    const out = records.filter((r) => followed.has(r.ca) && this.processedMarket.get(r.ca) !== marketOf(r));
    if (out.length === 0) return null;
    for (const r of out) this.processedMarket.set(r.ca, marketOf(r));
    this.processedLast = { slot, part: 0 };
    if (!settled) {
      this.processedSlots.set(slot, new Set(out.map((r) => r.ca)));
      // bounded: a slot the confirmed chain never reaches (the tail stopped reading) is let go
      for (const old of this.processedSlots.keys()) if (old < slot - limits.chainTail.maxCatchUpSlots) this.processedSlots.delete(old);
    }
    return { slot, records: out };
  }

  /**
   * The confirmed chain's blocks in `from..tip` (getBlocks' answer): the processed slots it settles. Returns those it
   * passed without a block — dropped by the cluster — with the mints whose events they retract (still followed).
   * Slots it cannot judge (before the first range read since a restart or a skip) are let go.
   */
  settleProcessed(blocks: readonly number[], from: number, tip: number): { slot: number; mints: string[] }[] {
    if (from !== this.confirmedThrough + 1) {
      this.confirmedBlocks.clear();
      this.confirmedFrom = from;
    }
    for (const b of blocks) if (b >= from && b <= tip) this.confirmedBlocks.add(b);
    this.confirmedThrough = Math.max(this.confirmedThrough, tip);
    const keepFrom = tip - limits.chainTail.maxCatchUpSlots;
    for (const b of this.confirmedBlocks) if (b < keepFrom) this.confirmedBlocks.delete(b);
    this.confirmedFrom = Math.max(this.confirmedFrom, keepFrom);
    const followed = addressesOfProcessed(this.wanted());
    const dropped: { slot: number; mints: string[] }[] = [];
    for (const [slot, mints] of [...this.processedSlots].sort((a, b) => a[0] - b[0])) {
      if (slot > tip) continue;
      this.processedSlots.delete(slot);
      if (slot < this.confirmedFrom || this.confirmedBlocks.has(slot)) continue;
      const still = [...mints].filter((m) => followed.has(m));
      if (still.length > 0) dropped.push({ slot, mints: still });
    }
    return dropped;
  }

  /**
   * The position of a publish of corrections on the processed output (after everything published there), and what the
   * mints' records now are: the confirmed records sent after the corrections (the next processed read is compared to them).
   */
  correctionsPublished(records: readonly PriceRecord[]): { slot: number; part: 1 } {
    for (const r of records) this.processedMarket.set(r.ca, marketOf(r));
    const last = this.processedLast;
    const slot = last === null ? 0 : last.part === 0 ? last.slot : last.slot + 1;
    this.processedLast = { slot, part: 1 };
    return { slot, part: 1 };
  }

  /** The confirmed chain is read afresh (a restart at the tip, or slots skipped): what it settled before says nothing now. */
  confirmedRestarted(): void {
    this.confirmedBlocks.clear();
    this.confirmedFrom = -1;
    this.confirmedThrough = -1;
    this.processedSlots.clear();
  }

  /** Idle: what belonged to the last run goes (a restart begins afresh at the tip). */
  private forgetRun(): void {
    this.faults = 0;
    this.candles.follow(new Set());
    this.pricedAtSlot.clear();
    this.publishFailures.clear();
    this.processedMarket.clear();
    this.confirmedRestarted();
  }
}
