/**
 * The events of one subscription kept for `resume`: in seq order, at most `windowMs` old and `maxBytes` of event data
 * (the oldest go first). Entries hold the event's data JSON, shared with every other subscription it went to, so the
 * byte count is an upper bound of what the ring really holds.
 */
export interface RingEntry {
  seq: number;
  at: number;
  type: string;
  dataJson: string;
}

export type Replay =
  | { ok: true; entries: RingEntry[] }
  /** Seqs `lostFrom`..`lostTo` are gone (older than the window, over the byte bound, or the room restarted); `entries` follow them. */
  | { ok: false; lostFrom: number; lostTo: number; entries: RingEntry[] };

export class ResumeRing {
  private entries: RingEntry[] = [];
  private head = 0;
  private bytes = 0;
  /** The lowest seq the ring could still replay: every seq below it is gone. */
  private firstKept: number;

  constructor(
    private readonly windowMs: number,
    private readonly maxBytes: number,
    /** The subscription's last seq when the ring is made: a ring made after a restart holds nothing up to it. */
    lastSeq = 0,
  ) {
    this.firstKept = lastSeq + 1;
  }

  /** Appends the event numbered `seq` (seqs come in order, from `lastSeq + 1`, no gaps). */
  push(entry: RingEntry): void {
    this.entries.push(entry);
    this.bytes += entry.dataJson.length;
    while (this.bytes > this.maxBytes && this.size > 0) this.dropOldest();
  }

  /** Drops entries older than the window at `now`. */
  expire(now: number): void {
    while (this.size > 0 && this.entries[this.head]!.at < now - this.windowMs) this.dropOldest();
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  /** The events after `fromSeq` up to `lastSeq` (the subscription's current seq), or what part of them is lost. */
  replayAfter(fromSeq: number, lastSeq: number, now: number): Replay {
    this.expire(now);
    const entries: RingEntry[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (entry.seq > fromSeq) entries.push(entry);
    }
    if (fromSeq >= lastSeq) return { ok: true, entries: [] };
    const firstKept = this.size > 0 ? this.entries[this.head]!.seq : lastSeq + 1;
    const lowestKept = Math.max(this.firstKept, firstKept);
    if (fromSeq + 1 >= lowestKept) return { ok: true, entries };
    return { ok: false, lostFrom: fromSeq + 1, lostTo: lowestKept - 1, entries };
  }

  private dropOldest(): void {
    const entry = this.entries[this.head]!;
    this.bytes -= entry.dataJson.length;
    this.firstKept = entry.seq + 1;
    this.head++;
    // Compact now and then, so the array does not keep every entry ever pushed.
    if (this.head > 64 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
