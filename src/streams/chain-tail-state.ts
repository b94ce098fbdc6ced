/**
 * Everything the chain tail decides, without Durable Object, storage, socket or upstream APIs: which rooms want which
 * topics, where a run starts and which blocks it reads, when the loop runs next (backoff), whether it is idle, when
 * the upstream slot socket may be opened again, which rooms an event goes to, which price records are new, and when
 * a room whose publishes keep failing is dropped. src/streams/chain-tail.ts is the thin shell around it (storage,
 * the alarm loop, the slot socket, block reading, pricing, publishing); test/unit/streams/chain-tail-state.test.ts
 * drives it with plain values.
 */
import { limits } from "../limits";
import { eventsForRoom, priceTopic } from "./stream-event-builders";
import { topicPattern, type StreamEvent } from "./stream-events";

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

  /** Idle: what belonged to the last run goes (a restart begins afresh at the tip). */
  private forgetRun(): void {
    this.faults = 0;
    this.pricedAtSlot.clear();
    this.publishFailures.clear();
  }
}
