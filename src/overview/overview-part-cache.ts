import { BoundedCache } from "../isolate/bounded-cache";

/**
 * Cache for the parts of an overview that outlive a request (the token profile, the holder figures): an isolate
 * map in front of the Cache API, which the isolates of a colo share. Each entry carries its own expiry, so a part
 * can be kept briefly when it was built from a transient failure and for the full TTL otherwise.
 */
type Entry<T> = { value: T; expiresAt: number };

/** One named part cache (`profile`, `holders`); values must be JSON-safe. */
export class OverviewPartCache<T> {
  // Bounded by bytes (a profile carries up to 64 KiB of off-chain JSON), so a scan of many mints cannot grow memory.
  private readonly local: BoundedCache<string, { entry: Entry<T>; bytes: number }>;

  constructor(
    private readonly name: string,
    budgetBytes: number,
    private readonly shared: Cache | undefined = typeof caches === "undefined" ? undefined : caches.default,
  ) {
    this.local = new BoundedCache(`overview-${name}`, budgetBytes, (v) => v.bytes);
  }

  /** Fresh value from the isolate map or the Cache API; undefined on a miss, an expired entry or a cache error. */
  async get(mint: string, now: number): Promise<T | undefined> {
    const local = this.local.get(mint)?.entry;
    if (local && local.expiresAt > now) return local.value;
    const shared = await this.readShared(mint);
    if (!shared || shared.entry.expiresAt <= now) return undefined;
    this.local.set(mint, shared);
    return shared.entry.value;
  }

  /** Stores in both levels; the Cache API write goes to `waitUntil` so it never delays the answer. */
  put(mint: string, value: T, ttlMs: number, now: number, waitUntil: (p: Promise<unknown>) => void): void {
    const entry: Entry<T> = { value, expiresAt: now + ttlMs };
    const text = JSON.stringify(entry);
    // Held as objects: ~3 bytes per JSON char is a fair bound for V8's objects and strings.
    this.local.set(mint, { entry, bytes: text.length * 3 });
    if (!this.shared) return;
    const response = new Response(text, {
      headers: { "content-type": "application/json", "cache-control": `public, max-age=${Math.max(1, Math.ceil(ttlMs / 1000))}` },
    });
    waitUntil(this.shared.put(this.key(mint), response).catch(() => undefined));
  }

  /** Drops the entry of `mint` from both levels (tests that must read a moved chain afresh). */
  async forget(mint: string): Promise<void> {
    this.local.delete(mint);
    await this.shared?.delete(this.key(mint));
  }

  private key(mint: string): string {
    return `https://overview-cache.internal/v1/${this.name}/${mint}`;
  }

  private async readShared(mint: string): Promise<{ entry: Entry<T>; bytes: number } | undefined> {
    if (!this.shared) return undefined;
    try {
      const response = await this.shared.match(this.key(mint));
      if (!response) return undefined;
      const text = await response.text();
      return { entry: JSON.parse(text) as Entry<T>, bytes: text.length * 3 };
    } catch {
      return undefined; // a cache that fails is a miss, never an error for the caller
    }
  }
}
