import { describe, expect, it } from "vitest";
import { DeadlineExceeded, deadlineIn } from "../../../src/isolate/deadline";
import { SharedTaskTimeout, SharedTasks } from "../../../src/isolate/shared-tasks";

const never = () => new Promise<number>(() => undefined);

describe("SharedTasks", () => {
  it("concurrent callers of one key share one run; the task leaves the map when it settles", async () => {
    const tasks = new SharedTasks<number>("t", 1000);
    const kept: Promise<unknown>[] = [];
    const owner = { waitUntil: (p: Promise<unknown>) => kept.push(p) };
    let runs = 0;
    const start = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 10));
      return 42;
    };
    const [a, b] = await Promise.all([tasks.run("k", start, owner), tasks.run("k", start, owner)]);
    expect([a, b, runs]).toEqual([42, 42, 1]);
    // The task was handed to the starter's waitUntil: it outlives the request that started it.
    expect(kept).toHaveLength(1);
    expect(tasks.size).toBe(0);
  });

  it("a task that never settles times out by its own deadline and is forgotten", async () => {
    const tasks = new SharedTasks<number>("stuck", 30);
    await expect(tasks.run("k", never, { waitUntil: () => undefined })).rejects.toBeInstanceOf(SharedTaskTimeout);
    expect(tasks.size).toBe(0);
  });

  it("a waiter stops waiting at its own request's deadline, whoever owns the task", async () => {
    const tasks = new SharedTasks<number>("slow", 10_000);
    const started = Date.now();
    void tasks.run("k", never, { waitUntil: () => undefined }).catch(() => undefined);
    await expect(tasks.run("k", never, { waitUntil: () => undefined, deadline: deadlineIn(40) })).rejects.toBeInstanceOf(DeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("a task older than its deadline is never joined (its timer may have died with its request)", async () => {
    const tasks = new SharedTasks<number>("old", 1000);
    void tasks.run("k", never, { waitUntil: () => undefined }, 0).catch(() => undefined);
    expect(tasks.joinable("k", 500)).toBe(true);
    expect(tasks.joinable("k", 1000)).toBe(false);
    await expect(tasks.run("k", async () => 7, { waitUntil: () => undefined }, 2000)).resolves.toBe(7);
  });

  it("a failure reaches every waiter and is not remembered", async () => {
    const tasks = new SharedTasks<number>("fails", 1000);
    const owner = { waitUntil: () => undefined };
    await expect(tasks.run("k", async () => Promise.reject(new Error("boom")), owner)).rejects.toThrow("boom");
    await expect(tasks.run("k", async () => 1, owner)).resolves.toBe(1);
  });
});
