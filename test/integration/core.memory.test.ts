/**
 * A stream of never-seen mints (random addresses) through the price route leaves every isolate cache within its byte
 * budget: before budgets, 26,800 random mints took an isolate from 493 MB to ~950 MB.
 */
import { expect, it } from "vitest";
import { getAddressDecoder } from "@solana/kit";
import { isolateCacheUsage } from "../../src/isolate/bounded-cache";
import { limits } from "../../src/limits";
import { get } from "../helpers/http";
import { newApiKey } from "../helpers/keys";

const MINTS = 20_000;
const PER_REQUEST = limits.maxMintsPerPriceRequest;

it(`${MINTS} never-seen mints leave the isolate's caches within their byte budgets`, async () => {
  // Given a key, and random 32-byte addresses (no account exists at any of them)
  const key = await newApiKey();
  const decoder = getAddressDecoder();
  let seed = 2024;
  const byte = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const randomMint = () => decoder.decode(Uint8Array.from({ length: 32 }, byte));

  // When they are priced in full lists, two requests at a time
  const statuses = new Map<number, number>();
  const lists = Array.from({ length: MINTS / PER_REQUEST }, () => Array.from({ length: PER_REQUEST }, randomMint).join(","));
  for (let i = 0; i < lists.length; i += 2) {
    const answers = await Promise.all(lists.slice(i, i + 2).map(async (ca) => {
      const res = await get(`/api/v1/price?ca=${ca}`, { headers: { "x-api-key": key } });
      const body = (await res.json()) as { success: boolean; error?: { code: number } }[];
      // Then each list answers 200 with every item a failed 404 (no such mint)
      expect(body.every((item) => item.success === false && item.error?.code === 404)).toBe(true);
      return res.status;
    }));
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  expect([...statuses]).toEqual([[200, MINTS / PER_REQUEST]]);

  // And no cache holds more than its budget, while the derivation cache did fill up (the test reached the limits)
  const usage = isolateCacheUsage();
  console.log(JSON.stringify({ mints: MINTS, caches: usage.map((u) => ({ name: u.name, entries: u.entries, mib: +(u.bytes / 2 ** 20).toFixed(2), budgetMib: +(u.budgetBytes / 2 ** 20).toFixed(2) })) }));
  for (const u of usage) expect(u.bytes, u.name).toBeLessThanOrEqual(u.budgetBytes);
  const derived = usage.find((u) => u.name === "derived-candidates")!;
  expect(derived.bytes).toBeGreaterThan(derived.budgetBytes * 0.9);
  const total = usage.reduce((n, u) => n + u.budgetBytes, 0);
  expect(total).toBeLessThan(64 * 2 ** 20);
}, 600_000);
