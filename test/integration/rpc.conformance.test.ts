import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { advance, upstreamRequests } from "../helpers/localnet";
import { postRpc, rpcRequest, rpcUrl, viaWorkerAndNode } from "../helpers/rpc";

/**
 * `POST /rpc` conformance: one row per request, each with the exact response expected — a literal JSON body
 * (errors), "no body" (notifications), or "what a healthy node answers" (the same request sent straight to
 * localnet must come back identical). Limits are exercised at N (accepted) and N+1 (refused).
 */

const key32 = "So11111111111111111111111111111111111111112";
const tokenProgram = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const unknownSignature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

/** A legacy message (1 signer, System Program, an unknown blockhash), base64: getFeeForMessage's input. */
const messageBase64 = "AQABAgabiFf+q4GE+2h/Y0YYwDXaxDncGus7VZig8AAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

const error = (id: unknown, code: number, message: string, data?: unknown) => ({ jsonrpc: "2.0", error: data === undefined ? { code, message } : { code, message, data }, id });
const invalidParams = (message: string, id: unknown = 1) => error(id, -32602, message);
/** A body of exactly `bytes` bytes: a getHealth call padded with JSON whitespace. */
const paddedBody = (bytes: number) => {
  const call = JSON.stringify(rpcRequest("getHealth"));
  return call + " ".repeat(bytes - call.length);
};
const healthBatch = (n: number) => Array.from({ length: n }, (_, i) => rpcRequest("getHealth", undefined, i));

interface Case {
  name: string;
  body: unknown;
  /** How the key travels; default: in the query, as the spec shows. */
  auth?: "query" | "header" | "none" | "unknown";
  contentType?: string;
  httpMethod?: string;
  /** Exact HTTP status; default 200. */
  status?: number;
  /** Exact response body (parsed), `null` for no body, or "node" for "byte-identical to localnet's own answer". */
  expected: unknown;
  /** Upstream JSON-RPC requests this request may cause. */
  upstream?: number;
}

const cases: Case[] = [
  // ── envelope ────────────────────────────────────────────────────────────────────────────────────────
  { name: "body that is not JSON → -32700, id null", body: `{"jsonrpc":"2.0",`, expected: error(null, -32700, "Parse error"), upstream: 0 },
  { name: "JSON that is not an object → -32600", body: "5", expected: error(null, -32600, "Invalid request"), upstream: 0 },
  { name: "jsonrpc 1.0 → -32600 version, id kept", body: { jsonrpc: "1.0", id: 4, method: "getSlot" }, expected: error(4, -32600, "Unsupported JSON-RPC protocol version") },
  { name: "no jsonrpc member → -32600 version", body: { id: 4, method: "getSlot" }, expected: error(4, -32600, "Unsupported JSON-RPC protocol version") },
  { name: "boolean id → -32600, id null", body: { jsonrpc: "2.0", id: true, method: "getSlot" }, expected: error(null, -32600, "Invalid request") },
  { name: "fractional id → -32600, id null", body: { jsonrpc: "2.0", id: 1.5, method: "getSlot" }, expected: error(null, -32600, "Invalid request") },
  { name: "no method → -32600, id kept", body: { jsonrpc: "2.0", id: "a" }, expected: error("a", -32600, "Invalid request") },
  { name: "unknown member → -32600", body: { ...rpcRequest("getSlot"), extra: 1 }, expected: error(1, -32600, "Invalid request") },
  { name: "params as a string → -32600", body: { ...rpcRequest("getSlot"), params: "x" }, expected: error(1, -32600, "Invalid request") },
  { name: "params as an object → -32602", body: { ...rpcRequest("getBalance"), params: { pubkey: key32 } }, expected: invalidParams("`params` should be an array") },
  { name: "empty batch → one -32600 (not an array)", body: [], expected: error(null, -32600, "Invalid request"), upstream: 0 },
  { name: "unknown method → -32601", body: rpcRequest("getFoo", []), expected: error(1, -32601, "Method not found"), upstream: 0 },
  { name: "real but unlisted method → -32601, never forwarded", body: rpcRequest("requestAirdrop", [key32, 1]), expected: error(1, -32601, "Method not found"), upstream: 0 },
  { name: "string id and null id are echoed", body: [rpcRequest("getHealth", undefined, "abc"), rpcRequest("getHealth", undefined, null)], expected: [{ jsonrpc: "2.0", result: "ok", id: "abc" }, { jsonrpc: "2.0", result: "ok", id: null }] },
  { name: "notification → HTTP 204, not forwarded", body: { jsonrpc: "2.0", method: "getSlot" }, status: 204, expected: null, upstream: 0 },
  { name: "batch of notifications only → HTTP 204", body: [{ jsonrpc: "2.0", method: "getSlot" }, { jsonrpc: "2.0", method: "getFoo" }], status: 204, expected: null, upstream: 0 },
  {
    name: "mixed batch: answered independently, in order, notifications skipped, duplicate ids kept",
    body: [rpcRequest("getHealth", undefined, 7), { jsonrpc: "2.0", method: "getHealth" }, 3, rpcRequest("getFoo", [], 7), rpcRequest("getBalance", ["0OIl"], 8), rpcRequest("getHealth", undefined, 7)],
    expected: [
      { jsonrpc: "2.0", result: "ok", id: 7 },
      error(null, -32600, "Invalid request"),
      error(7, -32601, "Method not found"),
      invalidParams("Invalid param: Invalid", 8),
      { jsonrpc: "2.0", result: "ok", id: 7 },
    ],
    upstream: 1,
  },
  { name: `batch of ${limits.maxRpcBatch} (N) → all answered in one upstream request`, body: healthBatch(limits.maxRpcBatch), expected: healthBatch(limits.maxRpcBatch).map((r) => ({ jsonrpc: "2.0", result: "ok", id: r.id })), upstream: 1 },
  { name: `batch of ${limits.maxRpcBatch + 1} (N+1) → -32055`, body: healthBatch(limits.maxRpcBatch + 1), expected: error(null, -32055, "Batch too large; max 100 requests"), upstream: 0 },
  { name: `body of ${limits.maxRpcBodyBytes} bytes (N) → accepted`, body: paddedBody(limits.maxRpcBodyBytes), expected: { jsonrpc: "2.0", result: "ok", id: 1 } },
  { name: `body of ${limits.maxRpcBodyBytes + 1} bytes (N+1) → HTTP 413, -32054`, body: paddedBody(limits.maxRpcBodyBytes + 1), status: 413, expected: error(null, -32054, "Request body too large; max 51200 bytes"), upstream: 0 },
  // ── HTTP, key ───────────────────────────────────────────────────────────────────────────────────────
  { name: "no key → HTTP 401 with a JSON-RPC body", body: rpcRequest("getSlot"), auth: "none", status: 401, expected: error(null, -32056, "Missing or invalid API key"), upstream: 0 },
  { name: "unknown key → HTTP 401", body: rpcRequest("getSlot"), auth: "unknown", status: 401, expected: error(null, -32056, "Missing or invalid API key"), upstream: 0 },
  { name: "key in the x-api-key header → accepted", body: rpcRequest("getHealth"), auth: "header", expected: "node" },
  { name: "GET → HTTP 405, -32057", body: undefined, httpMethod: "GET", status: 405, expected: error(null, -32057, "HTTP method not allowed; use POST") },
  { name: "Content-Type text/plain → HTTP 415, -32058", body: rpcRequest("getSlot"), contentType: "text/plain", status: 415, expected: error(null, -32058, "Content-Type must be application/json"), upstream: 0 },
  { name: "Content-Type with charset → accepted", body: rpcRequest("getHealth"), contentType: "application/json; charset=utf-8", expected: "node" },
  // ── params: keys, numbers, config objects ───────────────────────────────────────────────────────────
  { name: "non-base58 key → Invalid param: Invalid", body: rpcRequest("getBalance", ["0OIl" + key32.slice(4)]), expected: invalidParams("Invalid param: Invalid"), upstream: 0 },
  { name: "short key → Invalid param: WrongSize", body: rpcRequest("getAccountInfo", ["So111"]), expected: invalidParams("Invalid param: WrongSize"), upstream: 0 },
  { name: "negative slot → serde u64 error", body: rpcRequest("getBlockTime", [-1]), expected: invalidParams("Invalid params: invalid value: integer `-1`, expected u64."), upstream: 0 },
  { name: "too few params", body: rpcRequest("getBlocksWithLimit", [5]), expected: invalidParams("`params` should have at least 2 argument(s)") },
  { name: "too many params", body: rpcRequest("getBlockTime", [5, 6]), expected: error(1, -32602, "Invalid parameters: Expected from 1 to 1 parameters.", JSON.stringify("Got: 2")) },
  { name: "unknown commitment", body: rpcRequest("getSlot", [{ commitment: "max" }]), expected: invalidParams("Invalid params: unknown variant `max`, expected one of `processed`, `confirmed`, `finalized`.") },
  { name: "unknown config key → ignored, answered as the node does", body: rpcRequest("getBalance", [key32, { comitment: "confirmed" }]), expected: "node" },
  { name: "unknown transactionDetails", body: rpcRequest("getBlock", [0, { transactionDetails: "all" }]), expected: invalidParams("Invalid params: unknown variant `all`, expected one of `full`, `accounts`, `signatures`, `none`.") },
  // ── the spec's limits, at N and N+1 ─────────────────────────────────────────────────────────────────
  { name: "getBlocks span 500,000 (N)", body: rpcRequest("getBlocks", [0, limits.maxSlotSpan]), expected: "node" },
  { name: "getBlocks span 500,001 (N+1)", body: rpcRequest("getBlocks", [0, limits.maxSlotSpan + 1]), expected: invalidParams("Slot range too large; max 500000"), upstream: 0 },
  { name: "getBlocksWithLimit limit 500,000 (N)", body: rpcRequest("getBlocksWithLimit", [0, limits.maxSlotSpan, { commitment: "confirmed" }]), expected: "node" },
  { name: "getBlocksWithLimit limit 500,001 (N+1)", body: rpcRequest("getBlocksWithLimit", [0, limits.maxSlotSpan + 1]), expected: invalidParams("Limit too large; max 500000"), upstream: 0 },
  { name: "getBlock confirmed", body: rpcRequest("getBlock", [0, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }]), expected: "node" },
  { name: "getBlock processed → refused", body: rpcRequest("getBlock", [0, { commitment: "processed" }]), expected: invalidParams("Method does not support commitment below `confirmed`"), upstream: 0 },
  { name: "getAccountInfo dataSlice with base64", body: rpcRequest("getAccountInfo", [key32, { encoding: "base64", dataSlice: { offset: 0, length: 4 } }]), expected: "node" },
  {
    name: "getAccountInfo dataSlice with jsonParsed → -32600 (Agave's code)",
    body: rpcRequest("getAccountInfo", [key32, { encoding: "jsonParsed", dataSlice: { offset: 0, length: 4 } }]),
    expected: error(1, -32600, "Sliced account data can only be encoded using binary (base 58) or base64 encoding."),
    upstream: 0,
  },
  // ── Agave's limits, at N and N+1 ────────────────────────────────────────────────────────────────────
  { name: "getMultipleAccounts 100 keys (N)", body: rpcRequest("getMultipleAccounts", [Array(limits.maxAccountsPerCall).fill(key32)]), expected: "node" },
  { name: "getMultipleAccounts 101 keys (N+1)", body: rpcRequest("getMultipleAccounts", [Array(limits.maxAccountsPerCall + 1).fill(key32)]), expected: invalidParams("Too many inputs provided; max 100"), upstream: 0 },
  { name: "getProgramAccounts 4 filters (N)", body: rpcRequest("getProgramAccounts", [tokenProgram, { encoding: "base64", filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: key32 } }, { memcmp: { offset: 32, bytes: key32 } }, "tokenAccountState"] }]), expected: "node" },
  { name: "getProgramAccounts 5 filters (N+1)", body: rpcRequest("getProgramAccounts", [tokenProgram, { filters: Array(limits.maxProgramAccountFilters + 1).fill({ dataSize: 165 }) }]), expected: invalidParams("Too many filters provided; max 4"), upstream: 0 },
  { name: "getProgramAccounts without filters → refused here", body: rpcRequest("getProgramAccounts", [tokenProgram]), expected: invalidParams("getProgramAccounts requires filters on this endpoint (dataSize, memcmp or tokenAccountState)"), upstream: 0 },
  { name: "getSignaturesForAddress limit 1000 (N)", body: rpcRequest("getSignaturesForAddress", [key32, { limit: 1000 }]), expected: "node" },
  { name: "getSignaturesForAddress limit 1001 (N+1)", body: rpcRequest("getSignaturesForAddress", [key32, { limit: 1001 }]), expected: invalidParams("Invalid limit; max 1000"), upstream: 0 },
  // ── the node's own answers pass through unchanged ───────────────────────────────────────────────────
  { name: "null result stays null (unknown transaction)", body: rpcRequest("getTransaction", [unknownSignature]), expected: { jsonrpc: "2.0", result: null, id: 1 } },
  { name: "absent account: value null", body: rpcRequest("getAccountInfo", ["11111111111111111111111111111112"]), expected: "node" },
  { name: "node error passed through (block not available)", body: rpcRequest("getBlock", [1_000_000_000]), expected: "node" },
  { name: "node error passed through (not a token mint)", body: rpcRequest("getTokenSupply", [key32]), expected: "node" },
  { name: "getTokenAccountsByDelegate form (b)", body: rpcRequest("getTokenAccountsByDelegate", [key32, { programId: tokenProgram }, { encoding: "jsonParsed" }]), expected: "node" },
  { name: "getClusterNodes", body: rpcRequest("getClusterNodes"), expected: "node" },
  // ── issue 9 §3: what clients need to finish a transaction, forwarded byte for byte ───────────────────
  { name: "getSignatureStatuses with searchTransactionHistory", body: rpcRequest("getSignatureStatuses", [[unknownSignature], { searchTransactionHistory: true }]), expected: "node" },
  { name: `getSignatureStatuses ${limits.maxSignatureStatuses} signatures (N)`, body: rpcRequest("getSignatureStatuses", [Array(limits.maxSignatureStatuses).fill(unknownSignature)]), expected: "node" },
  { name: `getSignatureStatuses ${limits.maxSignatureStatuses + 1} signatures (N+1)`, body: rpcRequest("getSignatureStatuses", [Array(limits.maxSignatureStatuses + 1).fill(unknownSignature)]), expected: invalidParams("Too many inputs provided; max 256"), upstream: 0 },
  { name: "getSignatureStatuses a bad signature", body: rpcRequest("getSignatureStatuses", [["abc"]]), expected: invalidParams("Invalid param: WrongSize"), upstream: 0 },
  { name: "getGenesisHash", body: rpcRequest("getGenesisHash"), expected: "node" },
  { name: "getEpochSchedule", body: rpcRequest("getEpochSchedule", []), expected: "node" },
  { name: "getFirstAvailableBlock", body: rpcRequest("getFirstAvailableBlock"), expected: "node" },
  { name: "getTransactionCount confirmed", body: rpcRequest("getTransactionCount", [{ commitment: "confirmed" }]), expected: "node" },
  { name: "getRecentPrioritizationFees with a key", body: rpcRequest("getRecentPrioritizationFees", [[key32]]), expected: "node" },
  { name: `getRecentPrioritizationFees ${limits.maxPrioritizationFeeKeys} keys (N)`, body: rpcRequest("getRecentPrioritizationFees", [Array(limits.maxPrioritizationFeeKeys).fill(key32)]), expected: "node" },
  { name: `getRecentPrioritizationFees ${limits.maxPrioritizationFeeKeys + 1} keys (N+1)`, body: rpcRequest("getRecentPrioritizationFees", [Array(limits.maxPrioritizationFeeKeys + 1).fill(key32)]), expected: invalidParams("Too many inputs provided; max 128"), upstream: 0 },
  { name: "isBlockhashValid (unknown blockhash: false)", body: rpcRequest("isBlockhashValid", [key32, { commitment: "processed" }]), expected: "node" },
  { name: "isBlockhashValid a short blockhash", body: rpcRequest("isBlockhashValid", ["abc"]), expected: invalidParams("Invalid param: WrongSize"), upstream: 0 },
  { name: "getSupply without the non-circulating list", body: rpcRequest("getSupply", [{ excludeNonCirculatingAccountsList: true }]), expected: "node" },
  { name: "getSlotLeader", body: rpcRequest("getSlotLeader"), expected: "node" },
  { name: "getIdentity", body: rpcRequest("getIdentity"), expected: "node" },
  { name: "getFeeForMessage (unknown blockhash: null)", body: rpcRequest("getFeeForMessage", [messageBase64, { commitment: "processed" }]), expected: "node" },
  { name: `getSlotLeaders limit ${limits.maxSlotLeaders} (N)`, body: rpcRequest("getSlotLeaders", [0, limits.maxSlotLeaders]), expected: "node" },
  { name: `getSlotLeaders limit ${limits.maxSlotLeaders + 1} (N+1)`, body: rpcRequest("getSlotLeaders", [0, limits.maxSlotLeaders + 1]), expected: invalidParams("Invalid limit; max 5000"), upstream: 0 },
  { name: "getInflationGovernor", body: rpcRequest("getInflationGovernor", [{ commitment: "finalized" }]), expected: "node" },
  { name: "getInflationRate", body: rpcRequest("getInflationRate"), expected: "node" },
  { name: "getStakeMinimumDelegation", body: rpcRequest("getStakeMinimumDelegation", [{ commitment: "confirmed" }]), expected: "node" },
  { name: "getHighestSnapshotSlot: the node's -32008 passed through", body: rpcRequest("getHighestSnapshotSlot"), expected: "node" },
  { name: "minimumLedgerSlot", body: rpcRequest("minimumLedgerSlot"), expected: "node" },
  { name: "getMaxRetransmitSlot", body: rpcRequest("getMaxRetransmitSlot"), expected: "node" },
  { name: "getMaxShredInsertSlot", body: rpcRequest("getMaxShredInsertSlot"), expected: "node" },
  { name: `getRecentPerformanceSamples limit ${limits.maxPerformanceSamples} (N)`, body: rpcRequest("getRecentPerformanceSamples", [limits.maxPerformanceSamples]), expected: "node" },
  { name: `getRecentPerformanceSamples limit ${limits.maxPerformanceSamples + 1} (N+1)`, body: rpcRequest("getRecentPerformanceSamples", [limits.maxPerformanceSamples + 1]), expected: invalidParams("Invalid limit; max 720"), upstream: 0 },
  { name: "getLeaderSchedule of the current epoch", body: rpcRequest("getLeaderSchedule"), expected: "node" },
  { name: "getLeaderSchedule for another identity", body: rpcRequest("getLeaderSchedule", [null, { identity: key32 }]), expected: "node" },
  { name: "getLeaderSchedule a bad identity", body: rpcRequest("getLeaderSchedule", [{ identity: "So111" }]), expected: invalidParams("Invalid param: WrongSize"), upstream: 0 },
  { name: "getVoteAccounts", body: rpcRequest("getVoteAccounts", [{ commitment: "confirmed" }]), expected: "node" },
];

describe("POST /rpc conformance", () => {
  let key: string;
  beforeAll(async () => {
    key = await newApiKey();
    await advance(40); // some finalized blocks to ask about
  });

  it(`has at least 40 cases`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)("$name", async (c) => {
    if (c.expected === "node") {
      // Then the worker's answer is the node's own, byte for byte
      const { worker, node } = await viaWorkerAndNode(key, c.body);
      expect(worker.status).toBe(200);
      expect(worker.text).toBe(node.text);
      return;
    }
    // Given the request as the case describes it
    const headers: Record<string, string> = { "content-type": c.contentType ?? "application/json" };
    let url = rpcUrl(key);
    if (c.auth === "none" || c.auth === "header") url = url.replace(/\?.*$/, "");
    if (c.auth === "header") headers["x-api-key"] = key;
    if (c.auth === "unknown") url = rpcUrl("tmd_" + "A".repeat(32));
    // When it is sent
    const body = c.body === undefined ? undefined : typeof c.body === "string" ? c.body : JSON.stringify(c.body);
    const res = await SELF.fetch(url, { method: c.httpMethod ?? "POST", headers, body });
    const text = await res.text();
    // Then status and body are exactly the expected ones
    expect(res.status).toBe(c.status ?? 200);
    if (c.expected === null) expect(text).toBe("");
    else {
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(JSON.parse(text)).toEqual(c.expected);
    }
    if (c.httpMethod === "GET") expect(res.headers.get("allow")).toBe("POST");
    if (c.upstream !== undefined) expect(await upstreamRequests(res.headers.get("x-request-id")!)).toBe(c.upstream);
  });

  it("forwards its own request id upstream, never the caller's (kept as x-client-request-id)", async () => {
    const clientId = `conformance-trace-${crypto.randomUUID()}`;
    const res = await postRpc(key, rpcRequest("getSlot"), { requestId: clientId });
    const ours = res.headers.get("x-request-id")!;
    expect(ours).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-client-request-id")).toBe(clientId);
    expect(await upstreamRequests(ours)).toBe(1);
    expect(await upstreamRequests(clientId)).toBe(0);
  });

  it("getSignatureStatuses of a real transaction, with and without searchTransactionHistory, is the node's answer", async () => {
    // Given a transaction in the newest finalized block that has one
    const finalized = (await postRpc(key, rpcRequest("getSlot", [{ commitment: "finalized" }]))).json as { result: number };
    const blocks = (await postRpc(key, rpcRequest("getBlocks", [Math.max(0, finalized.result - 30), finalized.result]))).json as { result: number[] };
    let signature: string | undefined;
    for (const slot of blocks.result.reverse()) {
      const block = (await postRpc(key, rpcRequest("getBlock", [slot, { transactionDetails: "signatures", rewards: false }]))).json as { result: { signatures: string[] } };
      signature = block.result.signatures[0];
      if (signature) break;
    }
    expect(signature).toBeDefined();
    // Then its status through the worker is the node's, byte for byte
    for (const config of [undefined, { searchTransactionHistory: true }]) {
      const { worker, node } = await viaWorkerAndNode(key, rpcRequest("getSignatureStatuses", config ? [[signature, unknownSignature], config] : [[signature, unknownSignature]]));
      expect(worker.text).toBe(node.text);
      expect((worker.json as { result: { value: unknown[] } }).result.value[0]).toMatchObject({ confirmationStatus: "finalized", err: null });
    }
  });

  it("getTokenAccountsByDelegate form (a) answers like form (b) over both token programs", async () => {
    // Given the spec's form (a): [delegate, options]
    const delegate = key32;
    const formA = await postRpc(key, rpcRequest("getTokenAccountsByDelegate", [delegate, { encoding: "base64" }]));
    // Then it is the join of the two form (b) answers, in one object shaped like them
    const formB = await postRpc(key, [
      rpcRequest("getTokenAccountsByDelegate", [delegate, { programId: tokenProgram }, { encoding: "base64" }], 1),
      rpcRequest("getTokenAccountsByDelegate", [delegate, { programId: "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" }, { encoding: "base64" }], 2),
    ]);
    const [classic, token2022] = formB.json as { result: { context: unknown; value: unknown[] } }[];
    expect(formA.json).toEqual({ jsonrpc: "2.0", id: 1, result: { context: classic!.result.context, value: [...classic!.result.value, ...token2022!.result.value] } });
  });
});
