/**
 * The `/__localnet/` admin routes (world, status, advance, stats, faults), the world's off-chain files on the RPC port,
 * and account fixtures loaded with `accountsDirs`.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, postRpc, startTinyChain, type TinyChain } from "./helpers/local-chain.js";
import { keyOf, TOKEN_PROGRAM } from "./helpers/tiny-world.js";

let chain: TinyChain;
let url: string;

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
};
const getSlotBody = { jsonrpc: "2.0", id: 41, method: "getSlot" };

beforeAll(async () => {
  chain = await startTinyChain();
  url = chain.net.rpcUrl;
});

afterAll(() => chain.net.close());

describe("admin routes", () => {
  it("GET /__localnet/world is the world manifest; GET /__localnet/status the chain's slots", async () => {
    expect((await admin("GET", "/__localnet/world")).json.wellKnown.mint).toBe(chain.world.keys.mint);
    const status = (await admin("GET", "/__localnet/status")).json;
    expect(status).toMatchObject({ slot: chain.net.ledger.slotAt("processed"), mode: "manual", firstAvailableBlock: 0 });
  });

  it("POST /__localnet/advance?slots=N produces N slots and returns the new processed slot", async () => {
    const before = chain.net.ledger.currentSlot;
    const { status, json } = await admin("POST", "/__localnet/advance?slots=12");
    expect(status).toBe(200);
    expect(chain.net.ledger.currentSlot).toBe(before + 12);
    expect(json.slot).toBe(chain.net.ledger.slotAt("processed"));
    expect((await call(url, "getSlot", [{ commitment: "processed" }])).result).toBe(json.slot);
    expect((await admin("POST", "/__localnet/advance?slots=0")).status).toBe(400);
  });

  it("counts JSON-RPC HTTP requests per x-request-id (a batch is one request) and in total, until reset", async () => {
    await admin("POST", "/__localnet/stats/reset");
    await postRpc(url, getSlotBody, { "x-request-id": "req-1" });
    await postRpc(url, [getSlotBody, { jsonrpc: "2.0", id: 2, method: "getMultipleAccounts", params: [[chain.world.keys.alice, chain.world.keys.bob]] }], {
      "x-request-id": "req-1",
    });
    await postRpc(url, getSlotBody);
    const one = (await admin("GET", "/__localnet/stats?requestId=req-1")).json;
    expect(one).toMatchObject({ requests: 2, methods: { getSlot: 2, getMultipleAccounts: 1 }, accounts: 2 });
    expect((await admin("GET", "/__localnet/stats")).json).toMatchObject({ requests: 3, methods: { getSlot: 3, getMultipleAccounts: 1 } });
    expect((await admin("GET", "/__localnet/stats?requestId=unknown")).json).toMatchObject({ requests: 0, methods: {} });
    await admin("POST", "/__localnet/stats/reset");
    expect((await admin("GET", "/__localnet/stats")).json.requests).toBe(0);
  });

  it("serves the world's files on other GET paths, honouring delayMs, and 404 otherwise", async () => {
    const meta = await fetch(`${url}/meta/tiny.json`);
    expect(meta.headers.get("content-type")).toBe("application/json");
    expect(await meta.json()).toEqual({ name: "Tiny" });
    const started = Date.now();
    await (await fetch(`${url}/meta/slow.json`)).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect((await fetch(`${url}/meta/missing.json`)).status).toBe(404);
  });
});

describe("fault injection", () => {
  it("validates plans and lists what is pending; DELETE clears", async () => {
    expect((await admin("POST", "/__localnet/faults", { mode: "teapot", count: 1 })).status).toBe(400);
    expect((await admin("POST", "/__localnet/faults", { mode: "500", count: 0 })).status).toBe(400);
    await admin("POST", "/__localnet/faults", { mode: "500", count: 3 });
    expect((await admin("GET", "/__localnet/faults")).json.pending).toEqual([{ mode: "500", count: 3 }]);
    expect((await admin("DELETE", "/__localnet/faults")).json).toEqual({ cleared: 1 });
    expect((await postRpc(url, getSlotBody)).status).toBe(200);
  });

  it("500, 429 (Retry-After: 1), html, garbage: the next N matching requests misbehave, then service resumes", async () => {
    await admin("POST", "/__localnet/faults", { mode: "500", count: 2 });
    expect((await postRpc(url, getSlotBody)).status).toBe(500);
    expect((await postRpc(url, getSlotBody)).status).toBe(500);
    expect((await postRpc(url, getSlotBody)).status).toBe(200);

    await admin("POST", "/__localnet/faults", { mode: "429", count: 1 });
    const limited = await postRpc(url, getSlotBody);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("1");

    await admin("POST", "/__localnet/faults", { mode: "html", count: 1 });
    const html = await postRpc(url, getSlotBody);
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    expect(html.json).toBeUndefined();

    await admin("POST", "/__localnet/faults", { mode: "garbage", count: 1 });
    expect((await postRpc(url, getSlotBody)).json).toBeUndefined();
  });

  it("truncated and wrong-id bodies; faults can target methods", async () => {
    await admin("POST", "/__localnet/faults", { mode: "truncated", count: 1, methods: ["getBalance"] });
    expect((await postRpc(url, getSlotBody)).json).toMatchObject({ id: 41 }); // not targeted
    const truncated = await postRpc(url, { jsonrpc: "2.0", id: 1, method: "getBalance", params: [chain.world.keys.alice] });
    expect(truncated.json).toBeUndefined();
    expect(truncated.text.startsWith('{"jsonrpc":"2.0","result":')).toBe(true);

    await admin("POST", "/__localnet/faults", { mode: "wrong-id", count: 1 });
    const wrong = await postRpc(url, getSlotBody);
    expect((wrong.json as { id: number }).id).not.toBe(41);
    expect((wrong.json as { result: number }).result).toBe(chain.net.ledger.slotAt("finalized"));
  });

  it("timeout holds the request (the client must give up)", async () => {
    await admin("POST", "/__localnet/faults", { mode: "timeout", count: 1 });
    const outcome = await Promise.race([
      postRpc(url, getSlotBody).then(() => "answered"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 300)),
    ]);
    expect(outcome).toBe("still waiting");
    expect((await postRpc(url, getSlotBody)).status).toBe(200);
  });
});

describe("account fixtures", () => {
  it("loads solana-cli and wrapper JSON recursively over the world's accounts, skipping other files with a count", async () => {
    // Given a folder with one account in each form, a nested folder, and two files that are not accounts
    const dir = mkdtempSync(join(tmpdir(), "localnet-fixtures-"));
    const data = Buffer.alloc(165, 1).toString("base64");
    const cliKey = keyOf("fixture-cli");
    writeFileSync(
      join(dir, "cli.json"),
      JSON.stringify({ pubkey: cliKey, account: { lamports: 123, data: [data, "base64"], owner: TOKEN_PROGRAM, executable: false, rentEpoch: 18446744073709551615, space: 165 } }),
    );
    mkdirSync(join(dir, "nested"));
    const wrapped = keyOf("fixture-wrapper");
    writeFileSync(join(dir, "nested", "wrapper.json"), JSON.stringify({ address: wrapped, owner: TOKEN_PROGRAM, space: 3, data: ["AQID", "base64"] }));
    writeFileSync(join(dir, "nested", "overrides-world.json"), JSON.stringify({ address: keyOf("bob"), owner: TOKEN_PROGRAM, space: 1, data: ["/w==", "base64"], lamports: 9 }));
    writeFileSync(join(dir, "notes.json"), JSON.stringify({ hello: "world" }));
    writeFileSync(join(dir, "broken.json"), "{");

    // When a localnet starts with it
    const withFixtures = await startTinyChain({ accountsDirs: [dir] });
    try {
      // Then both forms load, a fixture replaces the world's account, and the two others are skipped
      expect(withFixtures.net.fixtures.loaded).toBe(3);
      expect(withFixtures.net.fixtures.skipped).toHaveLength(2);
      const [cli, wrapper, bob] = (await call(withFixtures.net.rpcUrl, "getMultipleAccounts", [[cliKey, wrapped, keyOf("bob")], { encoding: "base64" }])).result.value;
      expect(cli).toMatchObject({ lamports: 123, owner: TOKEN_PROGRAM, space: 165 });
      expect(wrapper).toMatchObject({ data: ["AQID", "base64"], lamports: (128 + 3) * 6960 });
      expect(bob).toMatchObject({ lamports: 9, data: ["/w==", "base64"] });
    } finally {
      await withFixtures.net.close();
    }
  });
});
