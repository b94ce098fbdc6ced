/**
 * plan:set writes the D1 file the running npm start also writes: SQLite refuses the second writer (SQLITE_BUSY), which
 * D1 reports as "internal error; reference = …". The script waits for the database instead of failing (a CI run of
 * start.npm-start met it once); other errors stay errors.
 */
import { describe, expect, it } from "vitest";
import { retryWhileBusy } from "../../../scripts/lib/local-bindings";

const busy = () => new Error("D1_ERROR: Failed to parse body as JSON, got: Error: internal error; reference = imf53jaijq677n3hkhfionrt");

describe("retryWhileBusy", () => {
  it("runs the task again while the database is busy, backing off, and returns its answer", async () => {
    const slept: number[] = [];
    let calls = 0;
    const answer = await retryWhileBusy(
      async () => {
        if (++calls < 4) throw busy();
        return "done";
      },
      15_000,
      async (ms) => void slept.push(ms),
    );
    expect(answer).toBe("done");
    expect(calls).toBe(4);
    expect(slept).toEqual([100, 200, 400]);
  });

  it("throws any other error at once", async () => {
    let calls = 0;
    const failing = retryWhileBusy(async () => {
      calls++;
      throw new Error("D1_ERROR: no such table: accounts: SQLITE_ERROR");
    });
    await expect(failing).rejects.toThrow(/no such table/);
    expect(calls).toBe(1);
  });

  it("gives up with the busy error once the wait is spent", async () => {
    let calls = 0;
    const failing = retryWhileBusy(
      async () => {
        calls++;
        throw busy();
      },
      0,
      async () => {},
    );
    await expect(failing).rejects.toThrow(/internal error; reference/);
    expect(calls).toBe(1);
  });
});
