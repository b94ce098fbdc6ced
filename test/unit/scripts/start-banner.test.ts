/**
 * The getSlot curl npm start prints must show the chain moving at once: `confirmed`, not the default `finalized`
 * (0 for the first ~13 s of a fresh localnet).
 */
import { describe, expect, it } from "vitest";

import { startBanner } from "../../../scripts/lib/start-banner";

describe("npm start banner", () => {
  it("prints a getSlot curl at commitment confirmed, with a body that is one valid JSON-RPC request", () => {
    // Given the banner of a run
    const text = startBanner({ base: "http://127.0.0.1:8787", key: "tmd_k", sample: "MINT", localnetUrl: "http://127.0.0.1:8899" });
    // When the getSlot curl's -d body is taken from it
    const line = text.split("\n").find((l) => l.includes("getSlot"))!;
    const body = JSON.parse(/-d '([^']*)'/.exec(line)![1]!);
    // Then it asks for the confirmed slot, with the key as a bearer token
    expect(body).toEqual({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] });
    expect(line).toContain("-H 'authorization: Bearer tmd_k'");
    expect(line).toContain("'http://127.0.0.1:8787/rpc'");
    expect(text).toContain("curl -s http://127.0.0.1:8899/__localnet/world");
  });

  it("points to the dashboard's sign-up page", () => {
    expect(startBanner({ base: "http://127.0.0.1:8787", key: "k", sample: "M" })).toContain("http://127.0.0.1:8787/signup");
  });

  it("without localnet (an external upstream) it names no local chain", () => {
    expect(startBanner({ base: "http://127.0.0.1:8787", key: "k", sample: "M" })).not.toContain("__localnet");
  });
});
