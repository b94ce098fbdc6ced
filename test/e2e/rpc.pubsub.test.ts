/**
 * Solana PubSub through the worker's `/rpc` WebSocket (issue 9), end to end: the worker bundle served by Miniflare on
 * a free port (test/e2e/helpers/served-worker.ts), localnet (tiny world, a slot every 100 ms) behind it, and a
 * transparent tap between the two so the upstream side of the hub (one socket for every client) can be seen and broken.
 * Real clients first — web3.js `sendAndConfirmTransaction` and kit's `sendAndConfirmTransactionFactory`, both with
 * HTTP and WebSocket pointed at `/rpc?x-api-key=…` — then the hub's refusals and close codes with raw frames.
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { refusedUpgrade } from "./helpers/ws-client";
import { limits } from "../../src/limits";
import { startTinyChain, type TinyChain } from "../localnet/helpers/local-chain";
import { startPubSubTap, type PubSubTap } from "./helpers/pubsub-tap";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { until as poll } from "../helpers/wait";

let chain: TinyChain;
let tap: PubSubTap;
let worker: ServedWorker;
let key: string;
/** The node itself, for funding payers (requestAirdrop is not on the worker's allowlist) and checking outcomes. */
let node: Connection;

const httpUrl = () => `${worker.origin}/rpc?x-api-key=${key}`;
const wsUrl = () => `${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`;

/** A condition, in the argument order this file reads best. */
const until = (done: () => boolean, what: string, timeoutMs = 10_000) => poll(what, () => done() || undefined, timeoutMs);

async function airdrop(to: PublicKey, amount: number): Promise<void> {
  const signature = await node.requestAirdrop(to, amount);
  await node.confirmTransaction({ signature, ...(await node.getLatestBlockhash()) }, "confirmed");
}

beforeAll(async () => {
  chain = await startTinyChain({ slotMs: 100 });
  tap = await startPubSubTap(chain.net.wsUrl);
  worker = await serveWorker({ UPSTREAM_RPC_URL: chain.net.rpcUrl, UPSTREAM_WS_URL: tap.url });
  key = await worker.newApiKey();
  node = new Connection(chain.net.rpcUrl, { wsEndpoint: chain.net.wsUrl, commitment: "confirmed" });
});

afterAll(async () => {
  await worker?.close();
  await tap?.close();
  await chain?.net.close();
});

describe("real clients send and confirm a SOL transfer through /rpc (HTTP and WebSocket)", () => {
  it("web3.js sendAndConfirmTransaction", async () => {
    // Given a funded payer, and a Connection whose HTTP and WebSocket endpoints are both the worker's /rpc
    // (web3.js derives wsEndpoint from the HTTP URL, but with an explicit port it takes port + 1: given here)
    const payer = Keypair.generate();
    const recipient = Keypair.generate();
    await airdrop(payer.publicKey, LAMPORTS_PER_SOL);
    const viaWorker = new Connection(httpUrl(), { wsEndpoint: wsUrl(), commitment: "confirmed" });
    const socketsBefore = tap.accepted;

    // When web3.js sends the transfer and confirms it
    const transfer = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 250_000_000 }));
    const signature = await sendAndConfirmTransaction(viaWorker, transfer, [payer], { commitment: "confirmed" });

    // Then it landed on the node, its signatureSubscribe went through the hub on one upstream socket, and web3's
    // idle close of its socket closed the upstream one
    expect(await node.getBalance(recipient.publicKey, "confirmed")).toBe(250_000_000);
    expect((await node.getSignatureStatus(signature)).value?.err).toBeNull();
    expect(tap.framesUp.some((frame) => frame.includes('"signatureSubscribe"') && frame.includes(signature))).toBe(true);
    expect(tap.accepted).toBe(socketsBefore + 1);
    await until(() => tap.open === 0, "the upstream socket to close after web3.js closed its own");
  });

  it("kit sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })", async () => {
    // Given a funded kit signer, and rpc + rpcSubscriptions both at the worker's /rpc
    const payer = await generateKeyPairSigner();
    const recipient = address(Keypair.generate().publicKey.toBase58());
    await airdrop(new PublicKey(payer.address), LAMPORTS_PER_SOL);
    const rpc = createSolanaRpc(httpUrl());
    const rpcSubscriptions = createSolanaRpcSubscriptions(wsUrl());

    // When a System transfer (instruction 2, u64 lamports) is sent and confirmed
    const data = new Uint8Array(12);
    new DataView(data.buffer).setUint32(0, 2, true);
    new DataView(data.buffer).setBigUint64(4, 300_000_000n, true);
    const { value: blockhash } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
      (m) =>
        appendTransactionMessageInstruction(
          {
            programAddress: address("11111111111111111111111111111111"),
            accounts: [
              { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
              { address: recipient, role: AccountRole.WRITABLE },
            ],
            data,
          },
          m,
        ),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    assertIsTransactionWithBlockhashLifetime(transaction);
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, { commitment: "confirmed" });

    // Then the node has it, and the confirmation was subscribed through the hub
    const signature = getSignatureFromTransaction(transaction);
    expect((await node.getSignatureStatus(signature)).value?.err).toBeNull();
    expect(await node.getBalance(new PublicKey(recipient), "confirmed")).toBe(300_000_000);
    expect((await rpc.getBalance(recipient, { commitment: "confirmed" }).send()).value).toBe(lamports(300_000_000n));
    expect(tap.framesUp.some((frame) => frame.includes('"signatureSubscribe"') && frame.includes(signature))).toBe(true);
    expect(tap.framesUp.some((frame) => frame.includes('"slotSubscribe"'))).toBe(true);
    await until(() => tap.open === 0, "kit to close its socket once nothing is subscribed");
  });
});

/** A raw client socket: the next answer (notifications skipped), the close it got. */
interface RawSocket {
  ws: WebSocket;
  answer(): Promise<any>;
  closed: Promise<{ code: number; reason: string }>;
}

async function openRaw(url: string, headers: Record<string, string> = {}): Promise<RawSocket> {
  const ws = new WebSocket(url, { headers });
  const frames: string[] = [];
  const waiters: ((frame: string) => void)[] = [];
  ws.on("message", (data) => {
    const waiter = waiters.shift();
    if (waiter) waiter(String(data));
    else frames.push(String(data));
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  const next = () =>
    frames.length > 0
      ? Promise.resolve(JSON.parse(frames.shift()!))
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("no frame within 5 s")), 5000);
          waiters.push((frame) => {
            clearTimeout(timer);
            resolve(JSON.parse(frame));
          });
        });
  const answer = async (): Promise<any> => {
    for (;;) {
      const frame = await next();
      if (Object.hasOwn(frame, "id")) return frame;
    }
  };
  return { ws, answer, closed };
}

const rpcPath = () => `${worker.origin.replace(/^http/, "ws")}/rpc`;

describe("the upgrade: key checked before it, the 401 as on POST /rpc", () => {
  it("no key, a malformed, an unknown or a revoked key → 401 with -32056, and no upstream socket is opened", async () => {
    const accepted = tap.accepted;
    const revoked = await worker.newApiKey({ revoked: true });
    for (const url of [rpcPath(), `${rpcPath()}?x-api-key=nope`, `${rpcPath()}?x-api-key=tmd_${"A".repeat(32)}`, `${rpcPath()}?x-api-key=${revoked}`]) {
      const refused = await refusedUpgrade(url);
      expect(refused).toEqual({ status: 401, body: { jsonrpc: "2.0", error: { code: -32056, message: "Missing or invalid API key" }, id: null } });
    }
    expect(tap.accepted).toBe(accepted);
  });

  it("a bad header key is not rescued by a good query key (the order of middleware/auth.ts)", async () => {
    expect((await refusedUpgrade(wsUrl(), { "x-api-key": "tmd_bad" })).status).toBe(401);
  });

  it("the key in the x-api-key header is accepted", async () => {
    const socket = await openRaw(rpcPath(), { "x-api-key": key });
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    expect(await socket.answer()).toMatchObject({ jsonrpc: "2.0", id: 1, result: expect.any(Number) });
    socket.ws.close();
    await socket.closed;
  });
});

describe("frames the hub answers itself, never forwarded", () => {
  let socket: RawSocket;
  beforeAll(async () => {
    socket = await openRaw(wsUrl());
  });
  afterAll(async () => {
    socket.ws.close();
    await socket.closed;
  });

  const neverForwarded = (marker: string) => expect(tap.framesUp.some((frame) => frame.includes(marker))).toBe(false);

  it("a method that is not PubSub (getSlot, blockSubscribe) → -32601 with the caller's id", async () => {
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: "mine-1", method: "getSlot" }));
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: "mine-1" });
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "blockSubscribe", params: ["all"] }));
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 2 });
    neverForwarded("getSlot");
    neverForwarded("blockSubscribe");
  });

  it("invalid JSON → -32700, a batch → -32600, a wrong envelope → -32600 (id null or kept)", async () => {
    socket.ws.send("{not json");
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null });
    socket.ws.send(JSON.stringify([{ jsonrpc: "2.0", id: 3, method: "slotSubscribe" }]));
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" }, id: null });
    socket.ws.send(JSON.stringify({ jsonrpc: "1.0", id: 4, method: "slotSubscribe" }));
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Unsupported JSON-RPC protocol version" }, id: 4 });
  });

  it(`a frame of ${limits.maxPubSubFrameBytes} bytes is read; one byte more → -32061, not forwarded`, async () => {
    const request = JSON.stringify({ jsonrpc: "2.0", id: 5, method: "rootSubscribe" });
    socket.ws.send(request + " ".repeat(limits.maxPubSubFrameBytes - request.length));
    expect(await socket.answer()).toMatchObject({ id: 5, result: expect.any(Number) });
    const big = JSON.stringify({ jsonrpc: "2.0", id: 6, method: "logsSubscribe", params: ["all"] });
    socket.ws.send(big + " ".repeat(limits.maxPubSubFrameBytes + 1 - big.length));
    expect(await socket.answer()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32061, message: `WebSocket frame too large; max ${limits.maxPubSubFrameBytes} bytes`, data: { maxBytes: limits.maxPubSubFrameBytes } },
      id: null,
    });
    neverForwarded("logsSubscribe");
  });

  it("the node's own errors come back with the caller's id (an unknown subscription id)", async () => {
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "slotUnsubscribe", params: [987654] }));
    expect(await socket.answer()).toEqual({ jsonrpc: "2.0", error: { code: -32602, message: "Invalid subscription id." }, id: 7 });
  });
});

describe(`subscriptions per socket: ${limits.maxPubSubSubscriptionsPerSocket}`, () => {
  it("the cap is accepted, one more → -32062 (not forwarded); after an unsubscribe one fits again", async () => {
    const socket = await openRaw(wsUrl());
    const cap = limits.maxPubSubSubscriptionsPerSocket;
    for (let id = 1; id <= cap; id++) socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method: "slotSubscribe" }));
    const answers = [];
    for (let i = 0; i < cap; i++) answers.push(await socket.answer());
    // Every request answered once, under its own id. In any order: the hub answers a subscribe that joins a live
    // upstream subscription at once, while the first ones wait for the node (JSON-RPC matches answers by id, not order).
    expect(answers.map((a) => a.id as number).sort((x, y) => x - y)).toEqual(Array.from({ length: cap }, (_, i) => i + 1));
    const subscriptions = answers.map((a) => a.result as number);
    expect(subscriptions).toHaveLength(cap);
    expect(answers.filter((a) => !Number.isInteger(a.result)), "every subscribe answered with a subscription id").toEqual([]);

    const upBefore = tap.framesUp.length;
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: "over", method: "accountSubscribe", params: ["11111111111111111111111111111111"] }));
    const refused = await socket.answer();
    expect(refused).toEqual({ jsonrpc: "2.0", error: { code: -32062, message: `Too many subscriptions on this connection; max ${cap}`, data: { max: cap } }, id: "over" });
    expect(tap.framesUp.slice(upBefore).some((frame) => frame.includes("accountSubscribe"))).toBe(false);

    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: "un", method: "slotUnsubscribe", params: [subscriptions[0]] }));
    const unsubscribed = await socket.answer();
    expect(unsubscribed).toEqual({ jsonrpc: "2.0", result: true, id: "un" });
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: "again", method: "rootSubscribe" }));
    const again = await socket.answer();
    expect(again).toMatchObject({ id: "again", result: expect.any(Number) });
    socket.ws.close();
    await socket.closed;
  });
});

describe("close codes", () => {
  it("the client closes → its upstream socket is closed", async () => {
    await until(() => tap.open === 0, "earlier sockets to close");
    const socket = await openRaw(wsUrl());
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    await socket.answer();
    expect(tap.open).toBe(1);
    socket.ws.close(1000);
    await socket.closed;
    await until(() => tap.open === 0, "the upstream socket to close");
  });

  it("the upstream socket drops → the hub reconnects and subscribes again; the client keeps its socket and subscription id", async () => {
    // Given a client with a slot subscription and its notifications flowing
    await until(() => tap.open === 0, "earlier sockets to close");
    const socket = await openRaw(wsUrl());
    const notified: any[] = [];
    socket.ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      if (frame.method === "slotNotification") notified.push(frame);
    });
    socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    const id = (await socket.answer()).result as number;
    const accepted = tap.accepted;
    // When the node side drops every socket
    tap.dropAll();
    await until(() => tap.accepted === accepted + 1, "the hub to reconnect");
    const seen = notified.length;
    // Then notifications resume under the same id, on the same client socket
    await until(() => notified.length >= seen + 2, "notifications after the reconnect");
    expect(notified.slice(seen).every((frame) => frame.params.subscription === id)).toBe(true);
    expect(tap.framesUp.filter((frame) => frame.includes('"slotSubscribe"')).length).toBeGreaterThanOrEqual(2);
    socket.ws.close();
    await socket.closed;
    await until(() => tap.open === 0, "the upstream socket to close once nothing is subscribed");
  });

  it("no upstream socket can be opened (every reconnect attempt refused) → the client is closed with 1014", async () => {
    tap.refuseUpgrades = true;
    try {
      const socket = await openRaw(wsUrl());
      socket.ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
      expect(await socket.closed).toEqual({ code: 1014, reason: "Upstream PubSub unavailable" });
    } finally {
      tap.refuseUpgrades = false;
    }
  });
});
