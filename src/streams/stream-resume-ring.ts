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
  // Parallel arrays, not an object per entry: a room holds up to subscriptions × events-per-window entries, and an
  // entry here costs two array slots (the data text itself is shared). Seqs are contiguous: entry i is `headSeq + i - head`.
  private datas: string[] = [];
  private ats: number[] = [];
  private type = "";
  private head = 0;
  private headSeq: number;
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
    this.headSeq = lastSeq + 1;
  }

  /** Appends the event numbered `seq` (seqs come in order, from `lastSeq + 1`, no gaps; one type per subscription). */
  push(entry: RingEntry): void {
    if (entry.seq !== this.headSeq + this.size) {
      // Not the next seq (cannot happen from the room): start over from it, everything before is lost.
      this.datas = [];
      this.ats = [];
      this.head = 0;
      this.bytes = 0;
      this.headSeq = entry.seq;
      this.firstKept = entry.seq;
    }
    this.type = entry.type;
    this.datas.push(entry.dataJson);
    this.ats.push(entry.at);
    this.bytes += entry.dataJson.length;
    while (this.bytes > this.maxBytes && this.size > 0) this.dropOldest();
  }

  /** Drops entries older than the window at `now`. */
  expire(now: number): void {
    while (this.size > 0 && this.ats[this.head]! < now - this.windowMs) this.dropOldest();
  }

  get size(): number {
    return this.datas.length - this.head;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  /** Every entry kept, oldest first (what a room writes down when the subscription's socket closes). */
  kept(): RingEntry[] {
    const out: RingEntry[] = [];
    for (let i = this.head; i < this.datas.length; i++) out.push({ seq: this.headSeq + (i - this.head), at: this.ats[i]!, type: this.type, dataJson: this.datas[i]! });
    return out;
  }

  /** The events after `fromSeq` up to `lastSeq` (the subscription's current seq), or what part of them is lost. */
  replayAfter(fromSeq: number, lastSeq: number, now: number): Replay {
    this.expire(now);
    if (fromSeq >= lastSeq) return { ok: true, entries: [] };
    const entries: RingEntry[] = [];
    for (let i = Math.max(this.head, this.head + (fromSeq + 1 - this.headSeq)); i < this.datas.length; i++) {
      entries.push({ seq: this.headSeq + (i - this.head), at: this.ats[i]!, type: this.type, dataJson: this.datas[i]! });
    }
    const lowestKept = Math.max(this.firstKept, this.size > 0 ? this.headSeq : lastSeq + 1);
    if (fromSeq + 1 >= lowestKept) return { ok: true, entries };
    return { ok: false, lostFrom: fromSeq + 1, lostTo: lowestKept - 1, entries };
  }

  private dropOldest(): void {
    this.bytes -= this.datas[this.head]!.length;
    this.firstKept = this.headSeq + 1;
    this.headSeq++;
    this.head++;
    // Compact now and then, so the arrays do not keep every entry ever pushed.
    if (this.head > 64 && this.head * 2 > this.datas.length) {
      this.datas = this.datas.slice(this.head);
      this.ats = this.ats.slice(this.head);
      this.head = 0;
    }
  }
}
