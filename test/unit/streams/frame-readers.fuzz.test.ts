/**
 * The two trust boundaries of client WebSocket frames, under arbitrary input (fast-check, thousands of runs): the /ws
 * reader (`readClientFrame`, src/streams/stream-protocol.ts) and the /rpc PubSub reader (`readPubSubFrame`,
 * src/pubsub/pubsub-frames.ts). Text, bytes, any JSON value, and valid frames with one member mutated: neither ever
 * throws; /ws returns a refusal with a message or a message of a known method; /rpc returns a call of a PubSub
 * method, nothing (a notification), or a refusal that is one well-formed JSON-RPC error object.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readPubSubFrame } from "../../../src/pubsub/pubsub-frames";
import { streamKinds } from "../../../src/streams/stream-events";
import { isRefusal, readClientFrame } from "../../../src/streams/stream-protocol";

const wsMethods = new Set(["auth", "subscribe", "unsubscribe", "resume", "ping"]);
const pubSubMethods = new Set(["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe", "slotSubscribe", "rootSubscribe"].flatMap((m) => [m, m.replace(/Subscribe$/, "Unsubscribe")]));
const ADDRESS = "So11111111111111111111111111111111111111112";

/** Valid frames of each endpoint with one member replaced by any JSON value, or one member added. */
const mutated = (valid: Record<string, unknown>[]) =>
  fc.tuple(fc.constantFrom(...valid), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), fc.boolean()).map(([frame, key, value, replace]) => {
    const keys = Object.keys(frame);
    const target = replace ? keys[key.length % keys.length]! : key;
    return JSON.stringify({ ...frame, [target]: value });
  });

const anyFrame = (valid: Record<string, unknown>[]): fc.Arbitrary<string | ArrayBuffer> =>
  fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
    mutated(valid),
    fc.uint8Array({ maxLength: 300 }).map((b) => b.slice().buffer),
    mutated(valid).map((t) => new TextEncoder().encode(t).buffer as ArrayBuffer),
  );

describe("frame readers under arbitrary input", () => {
  it("/ws readClientFrame: never throws; a refusal says why, anything else is a known method", () => {
    const valid = [
      { method: "subscribeTrade", tokens: [ADDRESS] },
      { method: "subscribeNewpair" },
      { method: "unsubscribePrice", unsubscribeId: "0123456789ab" },
      { method: "resume", subscribeId: "0123456789ab", fromSeq: 3 },
      { apiKey: "tmd_x" },
      { apiKey: "tmd_x", method: "subscribeTrade", tokens: [ADDRESS] },
      { method: "ping" },
    ];
    fc.assert(
      fc.property(anyFrame(valid), (frame) => {
        const read = readClientFrame(frame);
        if (isRefusal(read)) expect(read.refused.length).toBeGreaterThan(0);
        else {
          expect(wsMethods.has(read.method)).toBe(true);
          // a subscribe or unsubscribe names a kind of the table
          if (read.method === "subscribe" || read.method === "unsubscribe") expect(Object.keys(streamKinds)).toContain(read.kind);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("/rpc readPubSubFrame: never throws; a refusal is one well-formed JSON-RPC error, a call a PubSub method", () => {
    const valid = [
      { jsonrpc: "2.0", id: 1, method: "accountSubscribe", params: [ADDRESS, { encoding: "base64" }] },
      { jsonrpc: "2.0", id: "x", method: "slotSubscribe" },
      { jsonrpc: "2.0", id: 2, method: "slotUnsubscribe", params: [5] },
      { jsonrpc: "2.0", method: "ping" },
    ];
    fc.assert(
      fc.property(anyFrame(valid), (frame) => {
        const read = readPubSubFrame(frame);
        if (read.kind === "call") {
          expect(pubSubMethods.has(read.method)).toBe(true);
          expect(() => JSON.parse(read.idJson)).not.toThrow();
        } else if (read.kind === "refused") {
          const answer = JSON.parse(read.answer);
          expect(Object.keys(answer).sort()).toEqual(["error", "id", "jsonrpc"]);
          expect(answer.jsonrpc).toBe("2.0");
          expect(Number.isInteger(answer.error.code) && typeof answer.error.message === "string").toBe(true);
          expect(answer.id === null || typeof answer.id === "string" || typeof answer.id === "number").toBe(true);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
