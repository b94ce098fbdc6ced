/**
 * Issue 9 §4: places where the localnet answered differently from Agave: exact u64 request integers, getSlotLeaders
 * without a leader schedule, minContextSlot on simulate/send, preflight logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseJsonExact } from "../../localnet/src/rpc/exact-json.js";
import { postRpc, startTinyChain, type TinyChain } from "./helpers/local-chain.js";

let chain: TinyChain;
let url: string;

beforeAll(async () => {
  chain = await startTinyChain();
  await chain.net.advance(100);
  url = chain.net.rpcUrl;
});

afterAll(() => chain.net.close());

const raw = async (body: string) => (await postRpc(url, body)).json as { error?: { code: number; message: string; data?: unknown }; result?: unknown; id?: unknown };

describe("request integers are read exactly (serde_json u64/i64)", () => {
  it("parseJsonExact turns unsafe integer literals into bigint, leaving strings, fractions and safe integers alone", () => {
    expect(parseJsonExact('[9223372036854775807, "9223372036854775807", 1.5, 5, -9223372036854775808, 1e300]')).toEqual([
      9223372036854775807n,
      "9223372036854775807",
      1.5,
      5,
      -9223372036854775808n,
      1e300,
    ]);
    expect(parseJsonExact('{"a":"x\\"12345678901234567890","b":[18446744073709551615]}')).toEqual({ a: 'x"12345678901234567890', b: [18446744073709551615n] });
    // Beyond u64 serde_json reads a double, as JSON.parse does.
    expect(parseJsonExact("[18446744073709551616]")).toEqual([18446744073709551616]);
    expect(() => parseJsonExact("{12345678901234567890: 1}")).toThrow();
  });

  it("getBlockTime and getBlock echo the exact slot in Agave's BlockNotAvailable", async () => {
    const body = (method: string) => `{"jsonrpc":"2.0","id":1,"method":"${method}","params":[9223372036854775807]}`;
    expect((await raw(body("getBlockTime"))).error).toEqual({ code: -32004, message: "Block not available for slot 9223372036854775807" });
    expect((await raw(body("getBlock"))).error).toEqual({ code: -32004, message: "Block not available for slot 9223372036854775807" });
  });

  it("a negative i64 is serde's invalid value with its exact digits; a u64 id is echoed exactly", async () => {
    expect((await raw('{"jsonrpc":"2.0","id":1,"method":"getBlockTime","params":[-9223372036854775807]}')).error).toEqual({
      code: -32602,
      message: "Invalid params: invalid value: integer `-9223372036854775807`, expected u64.",
    });
    const reply = await postRpc(url, '{"jsonrpc":"2.0","id":18446744073709551615,"method":"getHealth"}');
    expect(reply.text).toBe('{"jsonrpc":"2.0","result":"ok","id":18446744073709551615}');
  });

  it("a negative or fractional id is not serde's Num(u64): an invalid request with id null, as our /rpc answers", async () => {
    for (const id of ["-5", "1.5", "-18446744073709551615"]) {
      const reply = await postRpc(url, `{"jsonrpc":"2.0","id":${id},"method":"getHealth"}`);
      expect(JSON.parse(reply.text), id).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null });
    }
  });
});

describe("getSlotLeaders needs a leader schedule for every epoch it spans", () => {
  it("answers up to the next epoch and refuses later ones with Agave's -32602", async () => {
    // Given a chain in epoch 0 (schedules known for epochs 0 and 1)
    const identity = chain.net.ledger.identity;
    const leaders = async (start: string, limit: number) => raw(`{"jsonrpc":"2.0","id":1,"method":"getSlotLeaders","params":[${start},${limit}]}`);
    expect((await leaders("863999", 1)).result).toEqual([identity]);
    expect((await leaders("864000", 0)).result).toEqual([]);
    // Then a range reaching epoch 2 is refused, naming the first epoch without a schedule
    const unavailable = (epoch: string) => ({ code: -32602, message: `Invalid slot range: leader schedule for epoch ${epoch} is unavailable` });
    expect((await leaders("863999", 2)).error).toEqual(unavailable("2"));
    expect((await leaders("864000", 1)).error).toEqual(unavailable("2"));
    expect((await leaders("9223372036854775807", 1)).error).toEqual(unavailable(String(9223372036854775807n / 432000n)));
  });
});

describe("sendTransaction / simulateTransaction", () => {
  // One signature, header 1/0/0, one key, a blockhash the chain never made, no instructions.
  const wire = Buffer.from(new Uint8Array([1, ...new Uint8Array(64), 1, 0, 0, 1, ...new Uint8Array(32).fill(7), ...new Uint8Array(32), 0])).toString("base64");
  const rpc = async (method: string, config: Record<string, unknown>) =>
    (await postRpc(url, { jsonrpc: "2.0", id: 1, method, params: [wire, { encoding: "base64", ...config }] })).json as {
      error?: { code: number; message: string; data?: unknown };
      result?: { context: { slot: number }; value: Record<string, unknown> };
    };

  it("check minContextSlot against the bank they would use (-32016 with its slot)", async () => {
    const { processed, finalized } = chain.net.ledger.commitments;
    expect((await rpc("simulateTransaction", { commitment: "processed", minContextSlot: processed + 1 })).error).toEqual({
      code: -32016,
      message: "Minimum context slot has not been reached",
      data: { contextSlot: processed },
    });
    // sendTransaction: the preflight commitment's bank (finalized by default), the processed one when preflight is skipped
    expect((await rpc("sendTransaction", { minContextSlot: finalized + 1 })).error).toEqual({
      code: -32016,
      message: "Minimum context slot has not been reached",
      data: { contextSlot: finalized },
    });
    expect((await rpc("sendTransaction", { skipPreflight: true, minContextSlot: processed + 1 })).error).toMatchObject({ code: -32016, data: { contextSlot: processed } });
    // Reached: the request goes on to its usual answer
    expect((await rpc("simulateTransaction", { commitment: "processed", minContextSlot: processed })).result!.context.slot).toBe(processed);
    expect((await rpc("sendTransaction", { preflightCommitment: "processed", minContextSlot: processed })).error).toMatchObject({ code: -32002 });
  });

  it("a failure before execution (blockhash not found) carries no logs, as on Agave", async () => {
    const sent = await rpc("sendTransaction", {});
    expect(sent.error).toMatchObject({ code: -32002, message: "Transaction simulation failed: Blockhash not found" });
    expect(sent.error!.data).toMatchObject({ err: "BlockhashNotFound", logs: [], unitsConsumed: 0 });
    const simulated = await rpc("simulateTransaction", {});
    expect(simulated.result!.value).toMatchObject({ err: "BlockhashNotFound", logs: [], unitsConsumed: 0 });
  });
});
