/**
 * The chain tail's decisions (src/streams/chain-tail-state.ts) without Durable Objects: rooms and their topics (limits
 * at N and N+1), idle and back, where a run starts, which blocks it reads, the loop's delays and backoff, wakes, the
 * slot socket's backoff, which rooms get which events, new prices only, and a room dropped after failed publishes;
 * processed prices: what goes out, the positions of that output, and the slots the confirmed chain settles or drops.
 */
import { describe, expect, it } from "vitest";
import { limits } from "../../../src/limits";
import { base58Encode } from "../../../src/solana/base58";
import { backoffMs, ChainTailState, isSlotNotification } from "../../../src/streams/chain-tail-state";
import type { PriceRecord } from "../../../src/pricing/price-record";
import { gapEvent, marketOf, priceTopic, processedPriceTopic, tradeTopic } from "../../../src/streams/stream-event-builders";
import type { StreamEvent } from "../../../src/streams/stream-events";

const MINT_A = base58Encode(new Uint8Array(32).fill(7));
const MINT_B = base58Encode(new Uint8Array(32).fill(8));
const addressN = (n: number) => base58Encode(new Uint8Array(32).map((_, i) => (i < 4 ? (n >> (8 * i)) & 0xff : 1)));

const tradeEvent = (mint: string, slot: number): StreamEvent =>
  ({ kind: "trade", topic: tradeTopic(mint), slot, data: { signature: `s${slot}`, ordinal: 0 } }) as unknown as StreamEvent;

describe("rooms and topics", () => {
  it("the first topic starts the tail, the last room leaving makes it idle; a restart after idle begins afresh", () => {
    // Given an idle tail
    const tail = new ChainTailState();
    expect(tail.idle).toBe(true);
    // When a room registers, then another, then both leave
    expect(tail.setTopics("shard-1", [tradeTopic(MINT_A)])).toMatchObject({ ok: true, wasIdle: true, nowIdle: false, topics: [tradeTopic(MINT_A)] });
    expect(tail.setTopics("shard-2", ["newpair"])).toMatchObject({ ok: true, wasIdle: false, nowIdle: false });
    expect(tail.wanted()).toEqual(new Set([tradeTopic(MINT_A), "newpair"]));
    expect(tail.setTopics("shard-1", [])).toMatchObject({ ok: true, nowIdle: false });
    expect(tail.setTopics("shard-2", [])).toMatchObject({ ok: true, wasIdle: false, nowIdle: true, topics: [] });
    // Then it is idle: no run is scheduled, no wake, no socket
    expect(tail.idle).toBe(true);
    expect(tail.runEnded({ more: true })).toBeNull();
    expect(tail.wake()).toBe("ignore");
    expect(tail.maySocketOpen(0)).toBe(false);
    // and the next room starts it again
    expect(tail.setTopics("shard-3", ["newpair"])).toMatchObject({ wasIdle: true, nowIdle: false });
    expect(tail.maySocketOpen(0)).toBe(true);
  });

  it("malformed topics are dropped and counted; a room name of 1..max chars; at most maxTopicsPerRoom topics kept", () => {
    const tail = new ChainTailState();
    expect(tail.setTopics("r", ["newpair", "trade:nope", 7, "price:"])).toMatchObject({ ok: true, topics: ["newpair"], malformed: 3, overLimit: 0 });
    expect(tail.setTopics("x".repeat(limits.chainTail.maxRoomNameLength), ["newpair"])).toMatchObject({ ok: true });
    expect(tail.setTopics("x".repeat(limits.chainTail.maxRoomNameLength + 1), ["newpair"])).toMatchObject({ ok: false });
    expect(tail.setTopics("", ["newpair"])).toMatchObject({ ok: false });
    expect(tail.setTopics("r", "newpair")).toMatchObject({ ok: false });
    const many = Array.from({ length: limits.chainTail.maxTopicsPerRoom + 1 }, (_, i) => tradeTopic(addressN(i)));
    const verdict = tail.setTopics("big", many);
    expect(verdict).toMatchObject({ ok: true, overLimit: 1, malformed: 0 });
    expect(verdict.ok && verdict.topics.length).toBe(limits.chainTail.maxTopicsPerRoom);
  });

  it("load: the rooms stored by a previous instance", () => {
    const tail = new ChainTailState();
    tail.load([["shard-0", [priceTopic(MINT_A)]]]);
    expect(tail.idle).toBe(false);
    expect(tail.roomNames).toEqual(["shard-0"]);
  });
});

describe("where a run starts and what it reads", () => {
  const tail = new ChainTailState();
  const max = limits.chainTail.maxCatchUpSlots;

  it("no cursor: start live at the tip; a cursor a little ahead: wait; far ahead (a restarted chain): the tip", () => {
    expect(tail.runStart(undefined, 500)).toEqual({ kind: "restart", cursor: 500 });
    expect(tail.runStart(500 + max, 500)).toEqual({ kind: "wait" });
    expect(tail.runStart(500 + max + 1, 500)).toEqual({ kind: "restart", cursor: 500 });
  });

  it(`behind by at most ${max} slots: read from the cursor; by one more: the oldest slot is given up (a gap)`, () => {
    expect(tail.runStart(1000 - max, 1000)).toEqual({ kind: "read", cursor: 1000 - max });
    expect(tail.runStart(1000 - max - 1, 1000)).toEqual({ kind: "read", cursor: 1000 - max, skipped: { fromSlot: 1000 - max, toSlot: 1000 - max } });
  });

  it(`a page: the slots after the cursor up to the tip, in order, at most ${limits.chainTail.blocksPerRun}; more when some are left`, () => {
    const slots = Array.from({ length: limits.chainTail.blocksPerRun + 1 }, (_, i) => 110 - i);
    expect(tail.page([...slots, 99, 200], 100, 150)).toEqual({ page: slots.slice(1).reverse(), more: true });
    expect(tail.page([101, 103], 100, 150)).toEqual({ page: [101, 103], more: false });
  });
});

describe("the loop", () => {
  it("caught up: pollMs; more blocks or a slot during the run: at once; faults back off, doubling to retryMaxMs", () => {
    const tail = new ChainTailState();
    tail.setTopics("r", ["newpair"]);
    tail.runStarted();
    expect(tail.runEnded({ more: false })).toBe(limits.chainTail.pollMs);
    tail.runStarted();
    expect(tail.runEnded({ more: true })).toBe(0);
    tail.runStarted();
    expect(tail.wake()).toBe("after-run");
    expect(tail.runEnded({ more: false })).toBe(0);
    expect(tail.wake()).toBe("now");
    tail.runStarted();
    expect(tail.runEnded({ fault: true })).toBe(limits.chainTail.retryMinMs);
    // backing off: a slot does not cut the wait short
    expect(tail.wake()).toBe("ignore");
    tail.runStarted();
    expect(tail.runEnded({ fault: true })).toBe(limits.chainTail.retryMinMs * 2);
    for (let i = 0; i < 20; i++) tail.runEnded({ fault: true });
    expect(tail.runEnded({ fault: true })).toBe(limits.chainTail.retryMaxMs);
    expect(tail.runEnded({ more: false })).toBe(limits.chainTail.pollMs);
  });

  it("the slot socket is tried again only after its backoff", () => {
    const tail = new ChainTailState();
    tail.setTopics("r", ["newpair"]);
    tail.socketTried(1000);
    expect(tail.socketFailed()).toBe(1);
    expect(tail.maySocketOpen(1000 + backoffMs(1) - 1)).toBe(false);
    expect(tail.maySocketOpen(1000 + backoffMs(1))).toBe(true);
    tail.socketOpened();
    expect(tail.maySocketOpen(1000)).toBe(true);
  });

  it(`slot notifications are read only under ${limits.chainTail.maxSlotNotificationBytes} bytes`, () => {
    const note = '{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"slot":5}}}';
    expect(isSlotNotification(note)).toBe(true);
    expect(isSlotNotification(note + " ".repeat(limits.chainTail.maxSlotNotificationBytes - note.length - 1))).toBe(true);
    expect(isSlotNotification(note + " ".repeat(limits.chainTail.maxSlotNotificationBytes - note.length))).toBe(false);
    expect(isSlotNotification('{"result":1}')).toBe(false);
    expect(isSlotNotification(new ArrayBuffer(4))).toBe(false);
  });
});

describe("publishing", () => {
  it("each room gets the events of its topics, in order; a gap goes to every room; rooms with nothing are left out", () => {
    const tail = new ChainTailState();
    tail.setTopics("a", [tradeTopic(MINT_A)]);
    tail.setTopics("b", [tradeTopic(MINT_B)]);
    tail.setTopics("c", ["newpair"]);
    const events = [tradeEvent(MINT_A, 1), tradeEvent(MINT_B, 1), tradeEvent(MINT_A, 2)];
    expect(tail.deliveries(events)).toEqual([
      { room: "a", events: [events[0], events[2]] },
      { room: "b", events: [events[1]] },
    ]);
    const gap = gapEvent(5, 9, "fell-behind");
    expect(tail.deliveries([gap]).map((d) => d.room)).toEqual(["a", "b", "c"]);
    expect(tail.deliveries([])).toEqual([]);
  });

  it(`a room whose publishes fail ${limits.chainTail.maxPublishFailures} times in a row is dropped; a success resets the count`, () => {
    const tail = new ChainTailState();
    tail.setTopics("a", ["newpair"]);
    for (let i = 1; i < limits.chainTail.maxPublishFailures; i++) expect(tail.publishFailed("a")).toEqual({ failures: i, dropped: false });
    tail.publishSucceeded("a");
    for (let i = 1; i < limits.chainTail.maxPublishFailures; i++) tail.publishFailed("a");
    expect(tail.publishFailed("a")).toEqual({ failures: limits.chainTail.maxPublishFailures, dropped: true });
    // the last room dropped: idle
    expect(tail.idle).toBe(true);
  });

  it("a price record is pushed once per mint and chain slot; mints no room wants are forgotten", () => {
    const tail = new ChainTailState();
    const wanted = new Set([priceTopic(MINT_A), priceTopic(MINT_B)]);
    expect(tail.newPrices([{ ca: MINT_A, slot: 10 }, { ca: MINT_B, slot: 10 }], wanted)).toHaveLength(2);
    expect(tail.newPrices([{ ca: MINT_A, slot: 10 }, { ca: MINT_B, slot: 11 }], wanted)).toEqual([{ ca: MINT_B, slot: 11 }]);
    // MINT_A unwanted, then wanted again: its next record is new even at the same slot
    tail.newPrices([], new Set([priceTopic(MINT_B)]));
    expect(tail.newPrices([{ ca: MINT_A, slot: 10 }], wanted)).toEqual([{ ca: MINT_A, slot: 10 }]);
  });
});

describe("processed prices", () => {
  const WSOL = "So11111111111111111111111111111111111111112";
  const record = (ca: string, slot: number, priceInSol: string, priceInUsd = "1"): PriceRecord =>
    ({ ca, slot, priceInSol, priceInUsd, pool: `pool-${ca.slice(0, 4)}`, quoteMint: WSOL, quotePriceSource: "sol-usd:pyth" }) as unknown as PriceRecord;
  const following = (...mints: string[]) => {
    const tail = new ChainTailState();
    tail.setTopics("shard-1", [...mints.map(processedPriceTopic), priceTopic(MINT_B)]);
    return tail;
  };

  it("follows the mints of processed topics only; a mint's first record goes out, then only a move of its market, at a slot above the last", () => {
    const tail = following(MINT_A);
    expect(tail.processedMints()).toEqual([MINT_A]);
    // the first record of a mint goes out; a record of a mint not followed at processed does not
    expect(tail.newProcessedPrices([record(MINT_A, 10, "0.5"), record(MINT_B, 10, "0.7")])).toEqual({ slot: 10, records: [record(MINT_A, 10, "0.5")] });
    // the same market one slot later: nothing; SOL/USD moved alone (USD price only) on a SOL-quoted pool: nothing
    expect(tail.newProcessedPrices([record(MINT_A, 11, "0.5", "2")])).toBeNull();
    // a move: out at its slot; a read at or below the last position's slot: not now (the next read sends it)
    expect(tail.newProcessedPrices([record(MINT_A, 12, "0.6")])).toEqual({ slot: 12, records: [record(MINT_A, 12, "0.6")] });
    expect(tail.newProcessedPrices([record(MINT_A, 12, "0.7")])).toBeNull();
    expect(tail.newProcessedPrices([record(MINT_A, 13, "0.7")])?.slot).toBe(13);
    // a USD-stable pool's market is its USD price
    const usd = { ...record(MINT_A, 14, "0.7", "3"), quoteMint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", quotePriceSource: "fixed-usd" } as PriceRecord;
    expect(marketOf(usd)).toBe(`${usd.pool}|3`);
  });

  it("the confirmed chain settles each slot published: one it passed without a block was dropped (its mints, once); corrections go after everything on the processed output", () => {
    const tail = following(MINT_A, MINT_B);
    tail.settleProcessed([98, 100], 95, 100);
    expect(tail.newProcessedPrices([record(MINT_A, 102, "0.5"), record(MINT_B, 102, "0.8")])?.slot).toBe(102);
    expect(tail.newProcessedPrices([record(MINT_A, 103, "0.6")])?.slot).toBe(103);
    // confirmed up to 102 with a block at 102: slot 102 settled, nothing dropped; 103 not reached yet
    expect(tail.settleProcessed([101, 102], 101, 102)).toEqual([]);
    // confirmed up to 105 without 103: dropped, with the mint it priced
    expect(tail.settleProcessed([104, 105], 103, 105)).toEqual([{ slot: 103, mints: [MINT_A] }]);
    // and never again
    expect(tail.settleProcessed([106], 106, 106)).toEqual([]);
    // the corrections' position comes after the last processed publish (103, part 0); the next price needs a higher slot
    expect(tail.correctionsPublished([record(MINT_A, 105, "0.5")])).toEqual({ slot: 103, part: 1 });
    expect(tail.newProcessedPrices([record(MINT_A, 103, "0.9")])).toBeNull();
    // the confirmed record sent after the correction is the market compared with next
    expect(tail.newProcessedPrices([record(MINT_A, 107, "0.5")])).toBeNull();
    expect(tail.newProcessedPrices([record(MINT_A, 107, "0.55")])?.slot).toBe(107);
    // a second batch of corrections before any other publish: the next position
    expect(tail.correctionsPublished([])).toEqual({ slot: 107, part: 1 });
    expect(tail.correctionsPublished([])).toEqual({ slot: 108, part: 1 });
  });

  it("a read at a slot the confirmed chain already passed without a block is not sent; slots it cannot judge (a restart, unfollowed mints) give no correction", () => {
    const tail = following(MINT_A);
    tail.settleProcessed([200, 202], 195, 202);
    expect(tail.newProcessedPrices([record(MINT_A, 201, "0.5")])).toBeNull();
    expect(tail.newProcessedPrices([record(MINT_A, 202, "0.5")])).toEqual({ slot: 202, records: [record(MINT_A, 202, "0.5")] });
    expect(tail.newProcessedPrices([record(MINT_A, 204, "0.6")])?.slot).toBe(204);
    tail.confirmedRestarted();
    expect(tail.settleProcessed([205], 205, 205)).toEqual([]);
    expect(tail.newProcessedPrices([record(MINT_A, 206, "0.7")])?.slot).toBe(206);
    tail.setTopics("shard-1", [priceTopic(MINT_B)]);
    expect(tail.settleProcessed([207], 206, 207)).toEqual([]);
  });
});
