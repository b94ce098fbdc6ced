import { BoundedCache } from "../isolate/bounded-cache";
import { limits } from "../limits";
import { priceRecordJson, type PriceRecord } from "./price-record";

/**
 * Two levels: an isolate map (microseconds, the warm path) in front of the Cache API (shared by the isolates of a
 * colo). Entries live `ttlMs` as fresh and up to `maxStaleMs` as a fallback for upstream failures.
 */
export interface CachedPrice {
  record: PriceRecord;
  storedAt: number;
  /** the record as JSON, serialised on first use: a warm hit answers with these bytes */
  json?: string;
}

// A record is ~300-500 chars of JSON, held as an object and (once served) as text: 2 KiB an entry covers both.
const l1 = new BoundedCache<string, CachedPrice>("price-records", limits.isolateCacheBudgets.priceRecords, () => 2048);

export function priceCacheKey(scope: string, mint: string, pool: string | undefined): string {
  return `https://price-cache.internal/v1/${scope}/${mint}/${pool ?? "auto"}`;
}

export class PriceCache {
  constructor(
    private readonly ttlMs: number,
    private readonly maxStaleMs: number,
    private readonly cache: Cache | undefined = typeof caches === "undefined" ? undefined : caches.default,
  ) {}

  /** How long an entry stays fresh (ms): what is computed beside a record (a quote token's hop) is kept as long. */
  get ttl(): number {
    return this.ttlMs;
  }

  /** Forgets the isolate level (shared by every PriceCache of the isolate); the Cache API keeps its entries. */
  clearLocal(): void {
    l1.clear();
  }

  /** Fresh entry from the isolate map only: no I/O. */
  freshLocal(key: string, now = Date.now()): PriceRecord | undefined {
    const hit = l1.peek(key);
    return hit && isFresh(hit, now, this.ttlMs) ? hit.record : undefined;
  }

  /** The JSON text of a fresh isolate-map entry (serialised once per entry): the warm path's whole answer. */
  freshLocalJson(key: string, now = Date.now()): string | undefined {
    const hit = l1.get(key);
    if (!hit || !isFresh(hit, now, this.ttlMs)) return undefined;
    // The text is kept with the entry; the size estimate above already allows for it.
    return (hit.json ??= priceRecordJson(hit.record));
  }

  /** Fresh entry from the isolate map or the Cache API. */
  async fresh(key: string, now = Date.now()): Promise<PriceRecord | undefined> {
    const local = this.freshLocal(key, now);
    if (local) return local;
    const shared = await this.readShared(key);
    if (shared && isFresh(shared, now, this.ttlMs)) {
      remember(key, shared);
      return shared.record;
    }
    return undefined;
  }

  /** Any entry younger than `maxStaleMs`, for when the upstream fails. */
  async stale(key: string, now = Date.now()): Promise<PriceRecord | undefined> {
    const local = l1.peek(key);
    const entry = local && now - local.storedAt < this.maxStaleMs ? local : await this.readShared(key);
    return entry && now - entry.storedAt < this.maxStaleMs ? { ...entry.record, stale: true } : undefined;
  }

  /**
   * Stores in both levels; the Cache API write is handed to `waitUntil` so it never delays the answer. A cache with no
   * TTL and no stale window (`new PriceCache(0, 0)`) keeps nothing.
   */
  put(key: string, record: PriceRecord, waitUntil: (p: Promise<unknown>) => void, now = Date.now()): void {
    if (this.ttlMs <= 0 && this.maxStaleMs <= 0) return;
    const entry: CachedPrice = { record, storedAt: now };
    remember(key, entry);
    if (!this.cache) return;
    const body = JSON.stringify(entry);
    const maxAge = Math.ceil(this.maxStaleMs / 1000);
    waitUntil(
      this.cache
        .put(key, new Response(body, { headers: { "content-type": "application/json", "cache-control": `public, max-age=${maxAge}` } }))
        .catch(() => undefined),
    );
  }

  private async readShared(key: string): Promise<CachedPrice | undefined> {
    if (!this.cache) return undefined;
    try {
      const res = await this.cache.match(key);
      return res ? ((await res.json()) as CachedPrice) : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Younger than the TTL — and not from the future: if the clock stepped back, the entry's age is unknown. */
function isFresh(entry: CachedPrice, now: number, ttlMs: number): boolean {
  const age = now - entry.storedAt;
  return age >= 0 && age < ttlMs;
}

function remember(key: string, entry: CachedPrice): void {
  l1.set(key, entry);
}


const byTtl = new Map<number, PriceCache>();

/** One PriceCache per TTL per isolate (the entries themselves are shared by all of them). */
export function priceCacheFor(ttl: number): PriceCache {
  let cache = byTtl.get(ttl);
  if (!cache) byTtl.set(ttl, (cache = new PriceCache(ttl, limits.maxStaleMs)));
  return cache;
}
