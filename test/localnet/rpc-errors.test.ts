/**
 * The JSON-RPC protocol and Agave's error codes and messages, over raw HTTP: parse errors, invalid requests, batches,
 * notifications, param validation texts, and each limit at N (accepted) and N+1 (rejected).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, postRpc, startTinyChain, type TinyChain } from "./helpers/local-chain.js";
import { TOKEN_PROGRAM } from "./helpers/tiny-world.js";

let chain: TinyChain;
let url: string;

beforeAll(async () => {
  chain = await startTinyChain();
  await chain.net.advance(100);
  url = chain.net.rpcUrl;
});

afterAll(() => chain.net.close());

describe("JSON-RPC envelope", () => {
  it("answers a body that is not JSON with Parse error and id null", async () => {
    const reply = await postRpc(url, '{"jsonrpc":"2.0","id":1,"method":"getSlot"');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    expect((await postRpc(url, "42")).json).toMatchObject({ error: { code: -32700 }, id: null });
  });

  it("answers calls that are not valid with Invalid request, keeping a readable id", async () => {
    expect((await postRpc(url, { jsonrpc: "2.0", id: 7 })).json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: 7 });
    expect((await postRpc(url, { jsonrpc: "2.0", id: 8, method: "getSlot", extra: true })).json).toMatchObject({ error: { code: -32600 }, id: 8 });
    expect((await postRpc(url, { jsonrpc: "1.0", id: 9, method: "getSlot" })).json).toMatchObject({
      error: { code: -32600, message: "Unsupported JSON-RPC protocol version" },
      id: 9,
    });
  });

  it("answers unknown methods with Method not found and echoes string ids", async () => {
    expect((await postRpc(url, { jsonrpc: "2.0", id: "abc", method: "getSlotz" })).json).toEqual({
      jsonrpc: "2.0",
      error: { code: -32601, message: "Method not found" },
      id: "abc",
    });
  });

  it("answers a batch item by item, in order, skipping notifications", async () => {
    const reply = await postRpc(url, [
      { jsonrpc: "2.0", id: 1, method: "getHealth" },
      { jsonrpc: "2.0", method: "getSlot" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
      5,
      { jsonrpc: "2.0", id: 3, method: "getSlot", params: [{ commitment: "processed" }] },
    ]);
    expect(reply.json).toEqual([
      { jsonrpc: "2.0", result: "ok", id: 1 },
      { jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 2 },
      { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null },
      { jsonrpc: "2.0", result: chain.net.ledger.slotAt("processed"), id: 3 },
    ]);
  });

  it("sends no body for notifications only, or an empty batch", async () => {
    expect((await postRpc(url, { jsonrpc: "2.0", method: "getSlot" })).text).toBe("");
    expect((await postRpc(url, [])).text).toBe("");
  });

  it("serves GET /health like Agave and refuses bodies over 50 KiB", async () => {
    const health = await fetch(`${url}/health`);
    expect(await health.text()).toBe("ok");
    const big = await postRpc(url, `[${'{"jsonrpc":"2.0","id":1,"method":"getSlot"},'.repeat(1300)}1]`);
    expect(big.status).toBe(413);
  });
});

describe("parameter errors", () => {
  it("rejects wrong types, arity and bad keys with jsonrpc-derive / serde / Agave texts", async () => {
    expect((await call(url, "getAccountInfo", [5])).error).toEqual({ code: -32602, message: "Invalid params: invalid type: integer `5`, expected a string." });
    expect((await call(url, "getAccountInfo", [])).error).toEqual({ code: -32602, message: "`params` should have at least 1 argument(s)" });
    expect((await call(url, "getBalance", ["a", {}, 3])).error).toEqual({
      code: -32602,
      message: "Invalid parameters: Expected from 1 to 2 parameters.",
      data: '"Got: 3"',
    });
    expect((await call(url, "getAccountInfo", ["0OIl"])).error).toEqual({ code: -32602, message: "Invalid param: Invalid" });
    expect((await call(url, "getAccountInfo", ["1111"])).error).toEqual({ code: -32602, message: "Invalid param: WrongSize" });
    expect((await call(url, "getBlockTime", [])).error?.message).toBe("Invalid params: invalid length 0, expected a tuple of size 1.");
    expect((await call(url, "getHealth", [1])).error?.message).toBe("Invalid parameters: No parameters were expected");
    expect((await call(url, "getAccountInfo", [chain.world.keys.mint, { encoding: "json" }])).error?.message).toBe(
      "Invalid params: unknown variant `json`, expected one of `binary`, `base58`, `base64`, `jsonParsed`, `base64+zstd`.",
    );
    expect((await call(url, "getBlock", [1, { encoding: "base64+zstd" }])).error?.message).toBe(
      "Invalid params: data did not match any variant of untagged enum RpcEncodingConfigWrapper.",
    );
    expect((await call(url, "getBlocks", [-1])).error?.message).toBe("Invalid params: invalid value: integer `-1`, expected u64.");
  });

  it("rejects dataSlice with jsonParsed, and base58 over 128 bytes", async () => {
    const sliced = await call(url, "getAccountInfo", [chain.world.keys.mint, { encoding: "jsonParsed", dataSlice: { offset: 0, length: 4 } }]);
    expect(sliced.error).toEqual({ code: -32600, message: "Sliced account data can only be encoded using binary (base 58) or base64 encoding." });
    const big = await call(url, "getAccountInfo", [chain.world.keys.bigAccount, { encoding: "base58" }]);
    expect(big.error).toEqual({ code: -32600, message: "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding." });
    const slicedBig = await call(url, "getAccountInfo", [chain.world.keys.bigAccount, { encoding: "base58", dataSlice: { offset: 0, length: 128 } }]);
    expect(slicedBig.result.value.data[0]).toHaveLength(Math.ceil(128 * 1.366) - 1); // 128 bytes of 0x07 → 174 digits
  });

  it("getMultipleAccounts accepts 100 keys and rejects 101", async () => {
    const keys = (n: number) => Array.from({ length: n }, () => chain.world.keys.alice);
    expect((await call(url, "getMultipleAccounts", [keys(100)])).result.value).toHaveLength(100);
    expect((await call(url, "getMultipleAccounts", [keys(101)])).error).toEqual({ code: -32602, message: "Too many inputs provided; max 100" });
  });

  it("getProgramAccounts accepts 4 filters, rejects 5, and reports bad memcmp bytes", async () => {
    const filter = { dataSize: 165 };
    expect((await call(url, "getProgramAccounts", [TOKEN_PROGRAM, { filters: [filter, filter, filter, filter], encoding: "base64" }])).result).toHaveLength(3);
    expect((await call(url, "getProgramAccounts", [TOKEN_PROGRAM, { filters: [filter, filter, filter, filter, filter] }])).error).toEqual({
      code: -32602,
      message: "Too many filters provided; max 4",
    });
    expect((await call(url, "getProgramAccounts", [TOKEN_PROGRAM, { filters: [{ memcmp: { offset: 0, bytes: "0abc" } }] }])).error?.message).toBe(
      "Invalid param: DecodeError(InvalidCharacter { character: '0', index: 0 })",
    );
  });

  it("getSignaturesForAddress accepts limit 1000 and rejects 1001; minContextSlot is -32016 with the context slot", async () => {
    expect((await call(url, "getSignaturesForAddress", [chain.world.keys.alice, { limit: 1000 }])).result.length).toBeGreaterThan(0);
    expect((await call(url, "getSignaturesForAddress", [chain.world.keys.alice, { limit: 1001 }])).error?.message).toBe("Invalid limit; max 1000");
    const finalized = chain.net.ledger.slotAt("finalized");
    expect((await call(url, "getBalance", [chain.world.keys.alice, { minContextSlot: finalized }])).result.context.slot).toBe(finalized);
    expect((await call(url, "getBalance", [chain.world.keys.alice, { minContextSlot: finalized + 1 }])).error).toEqual({
      code: -32016,
      message: "Minimum context slot has not been reached",
      data: { contextSlot: finalized },
    });
  });

  it("issue 9 §3 caps at N and N+1 with the worker's texts; lists are counted before any item is decoded", async () => {
    const sig = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    const invalid = (message: string) => ({ code: -32602, message });
    expect((await call(url, "getSignatureStatuses", [Array(256).fill(sig)])).result.value).toHaveLength(256);
    expect((await call(url, "getSignatureStatuses", [Array(257).fill(sig)])).error).toEqual(invalid("Too many inputs provided; max 256"));
    expect((await call(url, "getSignatureStatuses", [[...Array(256).fill(sig), "abc"]])).error).toEqual(invalid("Too many inputs provided; max 256"));
    expect((await call(url, "getSignatureStatuses", [[sig, "abc"]])).error).toEqual(invalid("Invalid param: WrongSize"));
    const key = chain.world.keys.alice;
    expect((await call(url, "getRecentPrioritizationFees", [Array(128).fill(key)])).result.length).toBeGreaterThan(0);
    expect((await call(url, "getRecentPrioritizationFees", [Array(129).fill(key)])).error).toEqual(invalid("Too many inputs provided; max 128"));
    expect((await call(url, "getSlotLeaders", [0, 5000])).result).toHaveLength(5000);
    expect((await call(url, "getSlotLeaders", [0, 5001])).error).toEqual(invalid("Invalid limit; max 5000"));
    expect((await call(url, "getRecentPerformanceSamples", [720])).result.length).toBeGreaterThan(0);
    expect((await call(url, "getRecentPerformanceSamples", [721])).error).toEqual(invalid("Invalid limit; max 720"));
    expect((await call(url, "isBlockhashValid", ["abc"])).error).toEqual(invalid("Invalid param: WrongSize"));
    expect((await call(url, "getLeaderSchedule", [null, { identity: "So111" }])).error).toEqual(invalid("Invalid param: WrongSize"));
    expect((await call(url, "getVoteAccounts", [{ votePubkey: "0OIl" + key.slice(4) }])).error).toEqual(invalid("Invalid param: Invalid"));
    expect((await call(url, "getHighestSnapshotSlot", [])).error).toEqual({ code: -32008, message: "No snapshot" });
  });

  it("token methods name what is wrong with the account", async () => {
    expect((await call(url, "getTokenSupply", [chain.world.keys.alice])).error?.message).toBe("Invalid param: not a Token mint");
    expect((await call(url, "getTokenSupply", ["11111111111111111111111111111112"])).error?.message).toBe("Invalid param: could not find account");
    expect((await call(url, "getTokenAccountBalance", [chain.world.keys.mint])).error?.message).toBe("Invalid param: not a Token account");
    expect((await call(url, "getTokenAccountsByOwner", [chain.world.keys.alice, { programId: chain.world.keys.alice }])).error?.message).toBe(
      "Invalid param: unrecognized Token program id",
    );
    expect((await call(url, "getTokenAccountsByOwner", [chain.world.keys.alice, { mint: chain.world.keys.bob }])).error?.message).toBe(
      "Invalid param: Token mint could not be unpacked",
    );
  });
});

describe("block availability", () => {
  it("getBlock rejects processed commitment", async () => {
    expect((await call(url, "getBlock", [1, { commitment: "processed" }])).error).toEqual({
      code: -32602,
      message: "Method does not support commitment below `confirmed`",
    });
  });

  it("a skipped rooted slot is -32009; a slot past the commitment is -32004; confirmed reaches further", async () => {
    // Seed 11 skips slot 58, which is below the finalized slot after 100 slots.
    expect(chain.net.ledger.isSkipped(58)).toBe(true);
    expect((await call(url, "getBlockTime", [58])).error).toEqual({ code: -32009, message: "Slot 58 was skipped, or missing in long-term storage" });
    expect((await call(url, "getBlock", [58])).error?.code).toBe(-32009);
    const confirmed = chain.net.ledger.slotAt("confirmed");
    expect((await call(url, "getBlock", [confirmed, { transactionDetails: "none" }])).error).toEqual({ code: -32004, message: `Block not available for slot ${confirmed}` });
    expect((await call(url, "getBlock", [confirmed, { transactionDetails: "none", commitment: "confirmed" }])).result.blockHeight).toBeGreaterThan(0);
    expect((await call(url, "getBlockTime", [10_000])).error).toEqual({ code: -32004, message: "Block not available for slot 10000" });
  });

  it("getBlocks clamps to the commitment slot before checking the span, getBlocksWithLimit caps the limit", async () => {
    const finalized = chain.net.ledger.slotAt("finalized");
    expect((await call(url, "getBlocks", [0, 600_000])).result.at(-1)).toBe(finalized);
    expect((await call(url, "getBlocks", [90, 10])).result).toEqual([]);
    expect((await call(url, "getBlocksWithLimit", [0, 500_000])).result.at(-1)).toBe(finalized);
    expect((await call(url, "getBlocksWithLimit", [0, 500_001])).error).toEqual({ code: -32602, message: "Limit too large; max 500000" });
  });

  it("a v0 transaction needs maxSupportedTransactionVersion (-32015), signatures-only blocks do not", async () => {
    expect((await call(url, "getBlock", [60])).error).toEqual({
      code: -32015,
      message:
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    });
    expect((await call(url, "getBlock", [60, { transactionDetails: "signatures" }])).result.signatures).toHaveLength(1);
  });
});

describe("long chains", () => {
  it("pruned blocks are -32001 and a span over 500,000 slots is rejected", async () => {
    // Given an empty chain run past 500,000 slots that keeps 1,000 slots of blocks
    const long = await startTinyChain({ transfersPerSlot: 0, maxBlockSlots: 1_000, finalityDepth: 2 });
    try {
      await long.net.advance(500_100);
      const first = long.net.ledger.firstAvailableBlock;
      // Then an old block is cleaned up, and getBlocks spans are limited at 500,000
      expect((await call(long.net.rpcUrl, "getBlock", [5])).error).toEqual({
        code: -32001,
        message: `Block 5 cleaned up, does not exist on node. First available block: ${first}`,
      });
      expect((await call(long.net.rpcUrl, "getBlocks", [0, 500_000])).result).toEqual(long.net.ledger.producedSlots(0, 500_000));
      expect((await call(long.net.rpcUrl, "getBlocks", [0, 500_001])).error).toEqual({ code: -32602, message: "Slot range too large; max 500000" });
    } finally {
      await long.net.close();
    }
  }, 120_000);
});
