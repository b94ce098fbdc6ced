import { within, type Deadline } from "./deadline";

/** What a request lends a shared task: its `waitUntil` (to outlive it) and its own deadline (to stop waiting). */
export interface TaskOwner {
  waitUntil: (p: Promise<unknown>) => void;
  deadline?: Deadline;
}

/** A shared task did not settle within its own deadline. */
export class SharedTaskTimeout extends Error {
  constructor(readonly task: string) {
    super(`${task} did not settle within its deadline`);
    this.name = "SharedTaskTimeout";
  }
}

interface Running<T> {
  promise: Promise<T>;
  startedAt: number;
}

/**
 * Work that several requests of an isolate may wait for at once (identical price computations, identical account
 * reads). The rule for every promise shared between requests:
 * - it is owned by no request: it runs under the starter's `waitUntil`, so the runtime keeps its I/O alive after the
 *   starter has answered, been cancelled or timed out;
 * - it has its own deadline and leaves the map when it settles or times out;
 * - a task older than its deadline is never joined (if its context died with its timer, it is simply ignored);
 * - every waiter also waits no longer than its own request's deadline;
 * - a shared task never waits on another shared task: the other one may belong to another request, whose context would
 *   then settle this task's `waitUntil` — which workerd refuses ("Cannot perform I/O on behalf of a different request").
 */
export class SharedTasks<T> {
  private readonly running = new Map<string, Running<T>>();

  constructor(
    private readonly name: string,
    private readonly deadlineMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Joins the running task for `key`, or starts `start()` as one. */
  run(key: string, start: () => Promise<T>, owner: TaskOwner, now = Date.now()): Promise<T> {
    const current = this.running.get(key);
    if (current && this.joinable(key, now)) return within(current.promise, owner.deadline);
    const promise = this.start(key, start, now);
    owner.waitUntil(promise.catch(() => undefined));
    return within(promise, owner.deadline);
  }

  /** Whether `run(key)` would join a running task now instead of starting one. */
  joinable(key: string, now = Date.now()): boolean {
    const current = this.running.get(key);
    return current !== undefined && now - current.startedAt < this.deadlineMs;
  }

  /** How many tasks are registered (tests, metrics). */
  get size(): number {
    return this.running.size;
  }

  private start(key: string, start: () => Promise<T>, now: number): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SharedTaskTimeout(this.name)), this.deadlineMs);
    });
    const promise = Promise.race([Promise.resolve().then(start), timeout]).finally(() => {
      clearTimeout(timer);
      if (this.running.get(key)?.promise === promise) this.running.delete(key);
    });
    // Keys are bounded by the callers' inputs; the cap only guards against a flood of distinct keys.
    if (this.running.size >= this.maxEntries) this.evictOldest(now);
    this.running.set(key, { promise, startedAt: now });
    return promise;
  }

  private evictOldest(now: number): void {
    for (const [key, task] of this.running) {
      if (now - task.startedAt >= this.deadlineMs || this.running.size >= this.maxEntries) this.running.delete(key);
      else break;
    }
  }
}
