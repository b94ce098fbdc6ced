/**
 * `wrangler dev` never fires cron triggers: npm start drives the scheduled handler itself through wrangler dev's
 * `/cdn-cgi/handler/scheduled` route, now and every CRON_INTERVAL_MS, never overlapping a run still in flight.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";

import { DEFAULT_CRON_INTERVAL_MS, parseCronInterval, SCHEDULED_PATH, startCronDriver, type CronDriver } from "../../../scripts/lib/cron-driver";
import { sleep, until } from "../../helpers/wait";

let server: Server | undefined;
let driver: CronDriver | undefined;
afterEach(async () => {
  driver?.stop();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function fakeWorker(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("cron driver (npm start)", () => {
  it("runs the scheduled handler at once, then every interval, on wrangler dev's scheduled route", async () => {
    // Given a worker that records the URLs it is asked
    const seen: string[] = [];
    const at: number[] = [];
    const base = await fakeWorker((req, res) => {
      seen.push(req.url!);
      at.push(Date.now());
      res.end("Ran scheduled event");
    });
    // When the driver runs with an interval of 2 s (long beside a first local fetch, even on a loaded machine: 500 ms
    // was once too short for the first fetch beside the rest of the suite)
    const logs: string[] = [];
    const started = Date.now();
    driver = startCronDriver(base, 2_000, (m) => logs.push(m));
    // Then the handler runs at once, then on each tick: the k-th run never before k intervals (a loaded machine may
    // make them later, so the test waits for three runs rather than a fixed time)
    await until("three runs answered", () => (driver!.runs >= 3 ? true : undefined), 15_000);
    expect(at[0]! - started).toBeLessThan(2_000);
    expect(at[1]! - started).toBeGreaterThanOrEqual(2_000 - 5);
    expect(at[2]! - started).toBeGreaterThanOrEqual(4_000 - 5);
    // always on the scheduled route
    expect(new Set(seen)).toEqual(new Set([SCHEDULED_PATH]));
    expect(driver.runs).toBe(seen.length);
    // And only the first success is logged, not every tick
    expect(logs).toHaveLength(1);
  });

  it("never overlaps a run still in flight, and logs failing and recovering once each", async () => {
    // Given a worker whose first answer takes 350 ms and whose second is a 500
    let calls = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const base = await fakeWorker((_req, res) => {
      calls++;
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      const n = calls;
      setTimeout(() => {
        concurrent--;
        res.statusCode = n === 2 ? 500 : 200;
        res.end(n === 2 ? "exception" : "Ran scheduled event");
      }, n === 1 ? 350 : 5);
    });
    const logs: string[] = [];
    driver = startCronDriver(base, 100, (m) => logs.push(m));
    await sleep(700);
    // Then runs never overlapped, and the log says ran / failed / ran
    expect(maxConcurrent).toBe(1);
    expect(logs.map((l) => (l.includes("failed") ? "failed" : "ran"))).toEqual(["ran", "failed", "ran"]);
  });

  it("a 200 that is not the handler's own reply (an assets router's answer) is not a run", async () => {
    const base = await fakeWorker((_req, res) => res.end("<!doctype html><title>docs</title>"));
    const logs: string[] = [];
    driver = startCronDriver(base, 100, (m) => logs.push(m));
    await sleep(150);
    expect(driver.runs).toBe(0);
    expect(logs[0]).toMatch(/cron: scheduled handler failed \(HTTP 200/);
  });

  it("CRON_INTERVAL_MS: unset → 10 s, 0 → off, whole ms only", () => {
    expect(parseCronInterval(undefined)).toBe(DEFAULT_CRON_INTERVAL_MS);
    expect(DEFAULT_CRON_INTERVAL_MS).toBe(10_000);
    expect(parseCronInterval(" 2500 ")).toBe(2500);
    expect(parseCronInterval("0")).toBe(0);
    for (const bad of ["-1", "1.5", "10s", "abc"]) expect(() => parseCronInterval(bad)).toThrow(/CRON_INTERVAL_MS/);
  });
});
