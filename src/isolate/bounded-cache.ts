/**
 * An isolate-level map with a byte budget and least-recently-used eviction. Every cache kept in module memory uses
 * one, so the sum of their budgets (limits.ts `isolateCacheBudgets`) bounds what they can hold together: production
 * isolates have 128 MB, and a stream of never-seen keys must not grow memory without end.
 *
 * Sizes are estimates (`sizeOf` returns bytes of the value; the key is counted as 2 bytes a char plus a fixed
 * per-entry overhead for the map slot and the objects around it).
 */
export class BoundedCache<K extends string, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly name: string,
    readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {
    registry.push(new WeakRef(this));
  }

  /** The value for `key`, marking it recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-insert: Map order is insertion order, so the first key is always the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value without touching recency (the warm path reads many keys; order only matters under pressure). */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    const bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + this.sizeOf(value);
    const old = this.entries.get(key);
    if (old) {
      this.used -= old.bytes;
      this.entries.delete(key);
    }
    if (bytes > this.budgetBytes) return; // never admit one entry larger than the whole budget
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    while (this.used > this.budgetBytes) {
      const oldest = this.entries.keys().next().value as K;
      this.used -= this.entries.get(oldest)!.bytes;
      this.entries.delete(oldest);
    }
  }

  delete(key: K): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.used -= old.bytes;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}

type CacheView = { readonly name: string; readonly budgetBytes: number; readonly bytes: number; readonly size: number };
const registry: WeakRef<CacheView>[] = [];

/** What every bounded cache of this isolate holds now, against its budget (diagnostics and the memory test). */
export function isolateCacheUsage(): { name: string; bytes: number; budgetBytes: number; entries: number }[] {
  return registry.flatMap((ref) => {
    const cache = ref.deref();
    return cache ? [{ name: cache.name, bytes: cache.bytes, budgetBytes: cache.budgetBytes, entries: cache.size }] : [];
  });
}

/** Map slot, entry object, key string header: a conservative per-entry constant (V8, 64-bit, pointer compression). */
export const ENTRY_OVERHEAD_BYTES = 96;

/** Estimated bytes of a JS string (two bytes a char, plus its header). */
export const stringBytes = (s: string): number => 16 + s.length * 2;
/** An address held as a string (44 chars at most). */
export const ADDRESS_BYTES = stringBytes("x".repeat(44));
