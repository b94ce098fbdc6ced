/**
 * An exact sliding log: every grant is kept with its time until it is `ms` old, so "at most `limit` in any `ms` span"
 * holds exactly (no fixed-window edges letting 2× through, no interpolation). A grant of n tokens (a lease) is one
 * entry, so the log holds at most `limit` entries and usually far fewer. Time comes in as an argument: the meter passes
 * its clock, the unit tests theirs.
 */
export class SlidingWindowLog {
  private readonly at: number[] = [];
  private readonly count: number[] = [];
  private head = 0;
  private sum = 0;

  constructor(
    public limit: number,
    public ms: number,
  ) {}

  /** Tokens granted within the last `ms`. */
  used(now: number): number {
    this.prune(now);
    return this.sum;
  }

  room(now: number): number {
    return Math.max(0, this.limit - this.used(now));
  }

  add(now: number, n: number): void {
    if (n <= 0) return;
    this.prune(now);
    const last = this.at.length - 1;
    if (last >= this.head && this.at[last] === now) this.count[last]! += n;
    else {
      this.at.push(now);
      this.count.push(n);
    }
    this.sum += n;
  }

  /** How long until `n` tokens fit (ms, 0 when they fit now); `ms` when n alone is over the limit is never asked. */
  waitFor(now: number, n: number): number {
    this.prune(now);
    let excess = this.sum + n - this.limit;
    if (excess <= 0) return 0;
    for (let i = this.head; i < this.at.length; i++) {
      excess -= this.count[i]!;
      if (excess <= 0) return this.at[i]! + this.ms - now;
    }
    return this.ms;
  }

  /** When the oldest counted grant leaves the window (ms from now; 0 when the log is empty): the draft's `t`. */
  resetIn(now: number): number {
    this.prune(now);
    return this.head < this.at.length ? this.at[this.head]! + this.ms - now : 0;
  }

  private prune(now: number): void {
    const cutoff = now - this.ms;
    while (this.head < this.at.length && this.at[this.head]! <= cutoff) {
      this.sum -= this.count[this.head]!;
      this.head++;
    }
    // Compact once the dead prefix is as long as the live part (amortised O(1) per entry).
    if (this.head > 64 && this.head * 2 > this.at.length) {
      this.at.splice(0, this.head);
      this.count.splice(0, this.head);
      this.head = 0;
    }
  }
}
