import { beforeAll, describe, expect, it, vi } from "vitest";
import { objectMemberSpans, skipWhitespace, sliceSpan } from "../../src/json/json-spans";
import { newApiKey } from "../helpers/keys";
import { advance, chainRpc, upstreamRequests } from "../helpers/localnet";
import { freshUpstream, postDirect, postRpcWithEnv, rpcRequest } from "../helpers/rpc";

/**
 * Immutable results in the Cache API: only final answers, served byte-identical to what the node sent.
 * Every test uses its own upstream URL (localnet with a distinct query string): cache keys and the remembered
 * finalized slot are per upstream list, so tests cannot see each other's entries.
 */

let key: string;
let finalized: number;
let finalizedBlock: number;

/** Sends `body` with its own request id (waiting for cache writes) and tells how many upstream calls it made. */
async function send(upstream: string, body: unknown) {
  const reply = await postRpcWithEnv({ UPSTREAM_RPC_URL: upstream }, key, body);
  return { ...reply, upstreamCalls: await upstreamRequests(reply.headers.get("x-request-id")!) };
}

/** The `result` of a node answer, exactly as the node wrote it. */
function rawResult(text: string): string {
  return sliceSpan(text, objectMemberSpans(text, skipWhitespace(text, 0))!.get("result")!);
}

const wrap = (resultText: string, id: unknown) => `{"jsonrpc":"2.0","result":${resultText},"id":${JSON.stringify(id)}}`;

describe("immutable result cache", () => {
  beforeAll(async () => {
    key = await newApiKey();
    await advance(60);
    finalized = await chainRpc<number>("getSlot", [{ commitment: "finalized" }]);
    const blocks = await chainRpc<number[]>("getBlocks", [0, finalized]);
    finalizedBlock = blocks[blocks.length - 1]!;
  });

  it("a finalized getBlock is served from the cache the second time: no upstream call, result byte-identical", async () => {
    // Given a finalized block, asked once
    const upstream = freshUpstream();
    const params = [finalizedBlock, { encoding: "json", maxSupportedTransactionVersion: 0, transactionDetails: "full", rewards: true }];
    const first = await send(upstream, rpcRequest("getBlock", params, 1));
    const node = rawResult((await postDirect(rpcRequest("getBlock", params, 1))).text);
    expect(first.upstreamCalls).toBe(1);
    expect(first.text).toBe(wrap(node, 1));
    // When it is asked again, with another id
    const second = await send(upstream, rpcRequest("getBlock", params, "again"));
    // Then the cache answers, with the node's result text and the caller's id
    expect(second.upstreamCalls).toBe(0);
    expect(second.text).toBe(wrap(node, "again"));
  });

  it("the same block with another encoding is another entry", async () => {
    const upstream = freshUpstream();
    await send(upstream, rpcRequest("getBlock", [finalizedBlock, { encoding: "json", maxSupportedTransactionVersion: 0 }]));
    const other = await send(upstream, rpcRequest("getBlock", [finalizedBlock, { encoding: "base64", maxSupportedTransactionVersion: 0 }]));
    expect(other.upstreamCalls).toBe(1);
  });

  it("a confirmed getBlock is never cached", async () => {
    const upstream = freshUpstream();
    const body = rpcRequest("getBlock", [finalizedBlock, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }]);
    await send(upstream, body);
    expect((await send(upstream, body)).upstreamCalls).toBe(1);
  });

  it("errors are never cached (block not available)", async () => {
    const upstream = freshUpstream();
    const body = rpcRequest("getBlock", [finalized + 1_000_000]);
    const first = await send(upstream, body);
    expect(first.json).toMatchObject({ error: { code: -32004 } });
    expect((await send(upstream, body)).upstreamCalls).toBe(1);
  });

  it("getBlockTime is cached once its slot is finalized, not before", async () => {
    const upstream = freshUpstream();
    // Given a finalized slot: the first answer costs the call (and one getSlot to learn the finalized slot)
    const first = await send(upstream, rpcRequest("getBlockTime", [finalizedBlock]));
    expect(first.upstreamCalls).toBe(2);
    const second = await send(upstream, rpcRequest("getBlockTime", [finalizedBlock], 2));
    expect(second.upstreamCalls).toBe(0);
    expect(second.text).toBe(wrap(rawResult(first.text), 2));

    // Given an upstream that reports an older finalized slot than the block's
    const original = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const body = String(init?.body ?? "");
      if (body.includes(`"getSlot"`)) return new Response(JSON.stringify({ jsonrpc: "2.0", result: finalizedBlock - 1, id: 1 }), { headers: { "content-type": "application/json" } });
      return original(input, init);
    });
    const notYet = freshUpstream();
    await send(notYet, rpcRequest("getBlockTime", [finalizedBlock]));
    // Then the answer was not kept
    vi.restoreAllMocks();
    expect((await send(notYet, rpcRequest("getBlockTime", [finalizedBlock]))).upstreamCalls).toBeGreaterThanOrEqual(1);
  });

  it("getBlocks: a closed range at or below the finalized slot is cached, one reaching past it is not", async () => {
    const upstream = freshUpstream();
    const below = rpcRequest("getBlocks", [0, finalized]);
    await send(upstream, below);
    expect((await send(upstream, below)).upstreamCalls).toBe(0);
    const past = rpcRequest("getBlocks", [0, finalized + 400_000]);
    await send(upstream, past);
    expect((await send(upstream, past)).upstreamCalls).toBeGreaterThanOrEqual(1);
    const open = rpcRequest("getBlocks", [0]);
    await send(upstream, open);
    expect((await send(upstream, open)).upstreamCalls).toBeGreaterThanOrEqual(1);
  });

  it("getBlocksWithLimit: a full answer below the finalized slot is cached, a short one is not", async () => {
    const upstream = freshUpstream();
    const full = rpcRequest("getBlocksWithLimit", [0, 3]);
    expect((await send(upstream, full)).json).toMatchObject({ result: [0, expect.any(Number), expect.any(Number)] });
    expect((await send(upstream, full)).upstreamCalls).toBe(0);
    const short = rpcRequest("getBlocksWithLimit", [0, 400_000]);
    await send(upstream, short);
    expect((await send(upstream, short)).upstreamCalls).toBeGreaterThanOrEqual(1);
  });

  it("a batch mixing cached and uncached items keeps its order and forwards only the misses", async () => {
    const upstream = freshUpstream();
    const blockParams = [finalizedBlock, { maxSupportedTransactionVersion: 0 }];
    const warm = await send(upstream, rpcRequest("getBlock", blockParams));
    const batch = await send(upstream, [rpcRequest("getHealth", undefined, "a"), rpcRequest("getBlock", blockParams, "b"), rpcRequest("getHealth", undefined, "c")]);
    expect(batch.upstreamCalls).toBe(1);
    expect(batch.text).toBe(`[${wrap(`"ok"`, "a")},${wrap(rawResult(warm.text), "b")},${wrap(`"ok"`, "c")}]`);
  });

  it("other methods are never cached", async () => {
    const upstream = freshUpstream();
    for (const body of [rpcRequest("getBlockHeight"), rpcRequest("getBlockCommitment", [finalizedBlock]), rpcRequest("getBalance", ["So11111111111111111111111111111111111111112"])]) {
      await send(upstream, body);
      expect((await send(upstream, body)).upstreamCalls).toBe(1);
    }
  });
});
