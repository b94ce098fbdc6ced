import { describe, expect, it } from "vitest";
import { BoundedCache, ENTRY_OVERHEAD_BYTES, isolateCacheUsage } from "../../../src/isolate/bounded-cache";

describe("BoundedCache", () => {
  it("never holds more than its budget, evicting the least recently used first", () => {
    // Given a budget for exactly three 100-byte values under 1-char keys
    const entry = ENTRY_OVERHEAD_BYTES + 2 + 100;
    const cache = new BoundedCache<string, string>("t", 3 * entry, () => 100);
    cache.set("a", "A");
    cache.set("b", "B");
    cache.set("c", "C");
    // When "a" is read (recently used) and a fourth value arrives
    expect(cache.get("a")).toBe("A");
    cache.set("d", "D");
    // Then "b", the least recently used, is gone and the budget holds
    expect(cache.has("b")).toBe(false);
    expect([cache.has("a"), cache.has("c"), cache.has("d")]).toEqual([true, true, true]);
    expect(cache.bytes).toBe(3 * entry);
  });

  it("stays within budget under 100,000 distinct keys (a stream of never-seen mints)", () => {
    const cache = new BoundedCache<string, number[]>("stream", 64 * 1024, (v) => 8 * v.length);
    for (let i = 0; i < 100_000; i++) cache.set(`mint-${i}`, [i, i, i]);
    expect(cache.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.size).toBeGreaterThan(100);
    expect(cache.get("mint-99999")).toEqual([99999, 99999, 99999]);
  });

  it("replacing a key recounts its bytes; a value larger than the budget is not admitted", () => {
    const cache = new BoundedCache<string, number>("r", 1000, (n) => n);
    cache.set("k", 100);
    cache.set("k", 200);
    expect(cache.bytes).toBe(ENTRY_OVERHEAD_BYTES + 2 + 200);
    cache.set("huge", 5000);
    expect(cache.has("huge")).toBe(false);
    cache.delete("k");
    expect(cache.bytes).toBe(0);
  });

  it("reports its usage among the isolate's caches", () => {
    const cache = new BoundedCache<string, number>("reported", 1000, () => 10);
    cache.set("x", 1);
    expect(isolateCacheUsage().find((u) => u.name === "reported")).toEqual({ name: "reported", bytes: cache.bytes, budgetBytes: 1000, entries: 1 });
  });
});
