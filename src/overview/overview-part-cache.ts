/**
 * Cache for the parts of an overview that outlive a request (the token profile, the holder figures): an isolate
 * map in front of the Cache API, which the isolates of a colo share. Each entry carries its own expiry, so a part
 * can be kept briefly when it was built from a transient failure and for the full TTL otherwise.
 */
type Entry<T> = { value: T; expiresAt: number };

/** Isolate-level entries per cache; bounded so a scan of many mints cannot grow memory without limit. */
const LOCAL_ENTRIES_MAX = 5_000;

/** One named part cache (`profile`, `holders`); values must be JSON-safe. */
export class OverviewPartCache<T> {
  private readonly local = new Map<string, Entry<T>>();

  constructor(
    private readonly name: string,
    private readonly shared: Cache | undefined = typeof caches === "undefined" ? undefined : caches.default,
  ) {}

  /** Fresh value from the isolate map or the Cache API; undefined on a miss, an expired entry or a cache error. */
  async get(mint: string, now: number): Promise<T | undefined> {
    const local = this.local.get(mint);
    if (local && local.expiresAt > now) return local.value;
    const entry = await this.readShared(mint);
    if (!entry || entry.expiresAt <= now) return undefined;
    this.remember(mint, entry);
    return entry.value;
  }

  /** Stores in both levels; the Cache API write goes to `waitUntil` so it never delays the answer. */
  put(mint: string, value: T, ttlMs: number, now: number, waitUntil: (p: Promise<unknown>) => void): void {
    const entry: Entry<T> = { value, expiresAt: now + ttlMs };
    this.remember(mint, entry);
    if (!this.shared) return;
    const response = new Response(JSON.stringify(entry), {
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

  private async readShared(mint: string): Promise<Entry<T> | undefined> {
    if (!this.shared) return undefined;
    try {
      const response = await this.shared.match(this.key(mint));
      return response ? ((await response.json()) as Entry<T>) : undefined;
    } catch {
      return undefined; // a cache that fails is a miss, never an error for the caller
    }
  }

  private remember(mint: string, entry: Entry<T>): void {
    this.local.delete(mint);
    if (this.local.size >= LOCAL_ENTRIES_MAX) this.local.delete(this.local.keys().next().value as string);
    this.local.set(mint, entry);
  }
}
