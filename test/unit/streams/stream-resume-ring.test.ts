/** The resume ring (src/streams/stream-resume-ring.ts): what it replays, what it says is lost, its age and byte bounds. */
import { describe, expect, it } from "vitest";
import { ResumeRing } from "../../../src/streams/stream-resume-ring";

const entry = (seq: number, at: number, bytes = 10) => ({ seq, at, type: "trade", dataJson: "x".repeat(bytes) });
const seqs = (entries: { seq: number }[]) => entries.map((e) => e.seq);

describe("replay", () => {
  it("replays every seq after fromSeq, in order, none twice", () => {
    // Given a ring with seqs 1..5
    const ring = new ResumeRing(60_000, 1_000_000);
    for (let seq = 1; seq <= 5; seq++) ring.push(entry(seq, 1000));
    // When a client resumes from 2 / from 0 / from the last seq
    // Then it gets 3..5 / 1..5 / nothing
    expect(ring.replayAfter(2, 5, 2000)).toEqual({ ok: true, entries: [entry(3, 1000), entry(4, 1000), entry(5, 1000)] });
    expect(seqs(ring.replayAfter(0, 5, 2000).entries)).toEqual([1, 2, 3, 4, 5]);
    expect(ring.replayAfter(5, 5, 2000)).toEqual({ ok: true, entries: [] });
  });

  it("entries older than the window are dropped, and a resume from before them says which seqs are lost", () => {
    const ring = new ResumeRing(60_000, 1_000_000);
    ring.push(entry(1, 0));
    ring.push(entry(2, 30_000));
    ring.push(entry(3, 61_000));
    // At 60,001 ms, seq 1 (at 0) is older than 60 s; 2 and 3 are not
    const replay = ring.replayAfter(0, 3, 60_001);
    expect(replay).toEqual({ ok: false, lostFrom: 1, lostTo: 1, entries: [entry(2, 30_000), entry(3, 61_000)] });
    // Exactly 60 s old is kept
    expect(new ResumeRing(60_000, 1e6).replayAfter(0, 0, 0)).toEqual({ ok: true, entries: [] });
    const edge = new ResumeRing(60_000, 1e6);
    edge.push(entry(1, 0));
    expect(edge.replayAfter(0, 1, 60_000).ok).toBe(true);
  });

  it("past the byte bound the oldest go first (bound N kept, N+1 drops one)", () => {
    const ring = new ResumeRing(60_000, 30);
    ring.push(entry(1, 0, 10));
    ring.push(entry(2, 0, 10));
    ring.push(entry(3, 0, 10));
    expect(ring.heldBytes).toBe(30);
    expect(ring.replayAfter(0, 3, 0).ok).toBe(true);
    ring.push(entry(4, 0, 1));
    expect(ring.heldBytes).toBe(21);
    expect(ring.replayAfter(0, 4, 0)).toMatchObject({ ok: false, lostFrom: 1, lostTo: 1 });
    expect(seqs(ring.replayAfter(1, 4, 0).entries)).toEqual([2, 3, 4]);
  });

  it("a ring made after a restart knows it holds nothing up to the last seq", () => {
    // Given a subscription at seq 7 whose room restarted (ring rebuilt empty), then seq 8 arrives
    const ring = new ResumeRing(60_000, 1e6, 7);
    expect(ring.replayAfter(7, 7, 0)).toEqual({ ok: true, entries: [] });
    ring.push(entry(8, 0));
    // Then resuming from 5 loses 6..7 and gets 8; resuming from 7 gets 8
    expect(ring.replayAfter(5, 8, 0)).toEqual({ ok: false, lostFrom: 6, lostTo: 7, entries: [entry(8, 0)] });
    expect(ring.replayAfter(7, 8, 0)).toEqual({ ok: true, entries: [entry(8, 0)] });
  });

  it("stays compact over many pushes (memory bounded by the byte bound)", () => {
    const ring = new ResumeRing(60_000, 1000);
    for (let seq = 1; seq <= 100_000; seq++) ring.push(entry(seq, seq));
    expect(ring.size).toBe(100);
    expect(seqs(ring.replayAfter(99_990, 100_000, 100_000).entries)).toEqual(Array.from({ length: 10 }, (_, i) => 99_991 + i));
  });
});
