/**
 * A FREE key cannot exceed its plan on any surface: REST, `/rpc` over HTTP, the `/rpc` WebSocket (Solana PubSub) and
 * `/ws`, each at the plan's figure N (accepted) and N+1 (refused), for connections, subscriptions, tokens, requests per
 * second and per minute, and credits. Then a revoked key and a changed plan close the key's open sockets on both
 * WebSocket surfaces within 5 s, and a client that stops reading is closed rather than buffered.
 * The bundled worker served by Miniflare (real meters, rooms and hub shards), localnet's tiny world behind it. The
 * FREE figures are the plan's; only the windows' lengths are shortened where a test would otherwise wait a minute, and
 * the month's credits lowered where spending 10,000 would take long (custom terms, plans.ts `customLimitsSchema`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "../../src/accounts/plans";
import { limits } from "../../src/limits";
import { logsMentionsRequired } from "../../src/pubsub/pubsub-frames";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";
import { endClient, openRecording, refusedUpgrade, type RecordingClient } from "./helpers/ws-client";
import { newAccount } from "../helpers/ids";
import { sleep, until } from "../helpers/wait";

const FREE = plans.free;
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

let chain: TinyChain;
let worker: ServedWorker;
const rpcWs = (key: string) => `${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`;
const streamWs = (key: string) => `${worker.origin.replace(/^http/, "ws")}/ws?x-api-key=${key}`;

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain({ slotMs: 100 }));
});

afterAll(() => closeWorkerAndChain({ chain, worker }));

const rest = (key: string, path: string) => fetch(`${worker.origin}${path}`, { headers: { "x-api-key": key } });
const rpc = (key: string, body: unknown) => fetch(`${worker.origin}/rpc`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
const getSlot = (id: number) => ({ jsonrpc: "2.0", id, method: "getSlot" });
const accountSub = (id: number, account: string) => ({ jsonrpc: "2.0", id, method: "accountSubscribe", params: [account, { commitment: "processed", encoding: "base64" }] });
/** Distinct accounts to subscribe to (any valid address: the node answers for an account that does not exist too). */
const addresses = () => [...Object.values(chain.world.keys)];

async function answerOf(client: RecordingClient, id: number): Promise<any> {
  return client.frame(`answer ${id}`, (f) => f.id === id);
}

describe("a FREE key cannot exceed its plan on any surface", () => {
  describe("REST", () => {
    it(`requests per second: ${FREE.requestsPerSecond} accepted, the next → 429 (window "second")`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      expect((await rest(key, "/api/v1/usage")).status).toBe(200);
      const refused = await rest(key, "/api/v1/usage");
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).error.message).toMatch(/^Rate limit exceeded: 1 requests per second on the FREE plan/);
    });

    it(`requests per minute: ${FREE.requestsPerMinute} accepted, the next → 429 (window "minute")`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount(), limits: { secondWindowMs: 10 } });
      for (let i = 0; i < FREE.requestsPerMinute; i++) {
        expect((await rest(key, "/api/v1/usage")).status).toBe(200);
        await sleep(15);
      }
      const refused = await rest(key, "/api/v1/usage");
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).error.message).toMatch(/^Rate limit exceeded: 30 requests per minute on the FREE plan/);
    });

    it(`tokens (mints per request): ${FREE.mintsPerRequest} accepted, ${FREE.mintsPerRequest + 1} → 403`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      // (the plan's checks pass: whatever the price route then answers on this tiny chain, it is not a plan refusal)
      expect([401, 402, 403, 429]).not.toContain((await rest(key, `/api/v1/price?ca=${SOL}`)).status);
      await sleep(1100);
      const refused = await rest(key, `/api/v1/price?ca=${SOL},${USDC}`);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as any).error.message).toBe("Too many mints in ca: 2 (the FREE plan allows 1 per request)");
    });

    it("credits: the month's last credit is spent, the next request → 402", async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount(), limits: { secondWindowMs: 10, monthlyCredits: 3 } });
      for (let i = 0; i < 3; i++) {
        expect([401, 402, 403, 429]).not.toContain((await rest(key, `/api/v1/price?ca=${SOL}`)).status);
        await sleep(15);
      }
      const refused = await rest(key, `/api/v1/price?ca=${SOL}`);
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as any).error.message).toBe("Out of credits: this request costs 1, 0 left this month on the FREE plan");
    });
  });

  describe("/rpc over HTTP", () => {
    it(`requests per second: ${FREE.requestsPerSecond} accepted, the next → 429 with a JSON-RPC error`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      expect((await rpc(key, getSlot(1))).status).toBe(200);
      const refused = await rpc(key, getSlot(2));
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).error).toMatchObject({ code: -32064 });
    });

    it(`requests per minute: ${FREE.requestsPerMinute} accepted, the next → 429`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount(), limits: { secondWindowMs: 10 } });
      for (let i = 0; i < FREE.requestsPerMinute; i++) {
        expect((await rpc(key, getSlot(i))).status).toBe(200);
        await sleep(15);
      }
      const refused = await rpc(key, getSlot(99));
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as any).error.message).toMatch(/30 requests per minute on the FREE plan/);
    });

    it("credits: a batch of N calls with N left is answered; one call more → 402", async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount(), limits: { secondWindowMs: 10, monthlyCredits: 4 } });
      const four = await rpc(key, [getSlot(1), getSlot(2), getSlot(3), getSlot(4)]);
      expect(four.status).toBe(200);
      expect((await four.json()) as unknown[]).toHaveLength(4);
      await sleep(15);
      const refused = await rpc(key, getSlot(5));
      expect(refused.status).toBe(402);
      expect(((await refused.json()) as any).error).toMatchObject({ code: -32065, data: { creditsRemaining: 0 } });
    });
  });

  describe("/rpc WebSocket", () => {
    it(`connections: ${FREE.rpcWsConnections} accepted, the next → 429 before the upgrade; after a close there is room again`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      const first = await openRecording(rpcWs(key));
      const refused = await refusedUpgrade(rpcWs(key));
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: -32064, message: `Too many /rpc WebSocket connections for this account; max ${FREE.rpcWsConnections} on the FREE plan` });
      // a /ws socket is a budget of its own
      const stream = await openRecording(streamWs(key));
      await stream.frame("connected", (f) => f.type === "connected");
      await endClient(first);
      const again = await until("an /rpc socket admitted again", async () => openRecording(rpcWs(key)).catch(() => undefined));
      await endClient(again);
      await endClient(stream);
    });

    it(`subscriptions: ${FREE.rpcWsSubscriptionsPerSocket} per socket (and account) accepted, the next → -32062, never forwarded`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      const client = await openRecording(rpcWs(key));
      const accounts = addresses();
      for (let i = 0; i < FREE.rpcWsSubscriptionsPerSocket; i++) {
        client.send(accountSub(i + 1, accounts[i % accounts.length]!));
        expect(await answerOf(client, i + 1)).toMatchObject({ result: expect.any(Number) });
      }
      client.send(accountSub(100, accounts[0]!));
      expect((await answerOf(client, 100)).error).toEqual({ code: -32062, message: `Too many subscriptions on this connection; max ${FREE.rpcWsSubscriptionsPerSocket}`, data: { max: FREE.rpcWsSubscriptionsPerSocket } });
      // after an unsubscribe one fits again
      client.send({ jsonrpc: "2.0", id: 101, method: "accountUnsubscribe", params: [(await answerOf(client, 1)).result] });
      expect(await answerOf(client, 101)).toMatchObject({ result: true });
      client.send(accountSub(102, accounts[0]!));
      expect(await answerOf(client, 102)).toMatchObject({ result: expect.any(Number) });
      await endClient(client);
    });

    it("subscriptions per account: over the account's sockets together, N accepted, the next → -32062", async () => {
      // FREE with 2 sockets (custom), so the account's cap (10) is reached over two sockets of 5 + 5
      const account = newAccount();
      const key = await worker.newApiKey({ plan: "free", account, limits: { rpcWsConnections: 2 } });
      const [a, b] = [await openRecording(rpcWs(key)), await openRecording(rpcWs(key))];
      const accounts = addresses();
      for (let i = 0; i < FREE.rpcWsSubscriptionsPerAccount; i++) {
        const client = i % 2 === 0 ? a! : b!;
        client.send(accountSub(i + 1, accounts[i % accounts.length]!));
        expect(await answerOf(client, i + 1)).toMatchObject({ result: expect.any(Number) });
      }
      a!.send(accountSub(50, accounts[0]!));
      expect((await answerOf(a!, 50)).error).toMatchObject({ code: -32062, message: `Too many subscriptions for this account; max ${FREE.rpcWsSubscriptionsPerAccount} on its plan` });
      await endClient(a!);
      await endClient(b!);
    });

    it("credits: a subscribe costs 1; with N credits N subscribes are taken, the next → -32065; usage shows them", async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount(), limits: { monthlyCredits: 3, secondWindowMs: 10 } });
      const client = await openRecording(rpcWs(key));
      // the shard learns the balance as the socket opens
      await sleep(500);
      const accounts = addresses();
      for (let i = 0; i < 3; i++) {
        client.send(accountSub(i + 1, accounts[i]!));
        expect(await answerOf(client, i + 1)).toMatchObject({ result: expect.any(Number) });
      }
      client.send(accountSub(4, accounts[3]!));
      expect((await answerOf(client, 4)).error).toMatchObject({ code: -32065, message: "Out of credits: a subscription costs 1, 0 left this month on the FREE plan" });
      await endClient(client);
      // Then the usage route shows the 3 credits spent, once the shard has billed them (every chargeEveryMs)
      const used = await until(
        "the subscribes billed",
        async () => {
          await sleep(1000); // the FREE minute window: 30 requests
          const answer = await rest(key, "/api/v1/usage");
          expect(answer.status).toBe(200);
          const usage = (await answer.json()) as { credits: { used: number } };
          return usage.credits.used >= 3 ? usage.credits.used : undefined;
        },
        limits.pubSubHub.chargeEveryMs + 5_000,
      );
      expect(used).toBe(3);
    }, 30_000);

    it("unselective subscriptions are refused with a JSON-RPC error: programSubscribe on the Token program without a mint/owner memcmp, logsSubscribe all", async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      const client = await openRecording(rpcWs(key));
      client.send({ jsonrpc: "2.0", id: 1, method: "programSubscribe", params: [TOKEN_PROGRAM, { encoding: "base64" }] });
      expect((await answerOf(client, 1)).error).toMatchObject({ code: -32602 });
      client.send({ jsonrpc: "2.0", id: 2, method: "programSubscribe", params: [TOKEN_PROGRAM, { filters: [{ dataSize: 165 }] }] });
      expect((await answerOf(client, 2)).error.message).toMatch(/^programSubscribe on Tokenkeg\S+ requires a memcmp filter on the mint/);
      client.send({ jsonrpc: "2.0", id: 3, method: "logsSubscribe", params: ["all"] });
      expect((await answerOf(client, 3)).error).toEqual({ code: -32602, message: logsMentionsRequired });
      client.send({ jsonrpc: "2.0", id: 4, method: "logsSubscribe", params: ["allWithVotes"] });
      expect((await answerOf(client, 4)).error).toEqual({ code: -32602, message: logsMentionsRequired });
      await endClient(client);
    });
  });

  describe("/ws", () => {
    it(`connections: ${FREE.wsConnections} accepted, the next → 429`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      const first = await openRecording(streamWs(key));
      await first.frame("connected", (f) => f.type === "connected");
      expect(await refusedUpgrade(streamWs(key))).toEqual({ status: 429, body: { status: "error", error: { code: 429, message: "Too many connections for this account; max 1 on the FREE plan" } } });
      await endClient(first);
    });

    it(`tokens per subscription: ${FREE.wsTokensPerSubscription} accepted, ${FREE.wsTokensPerSubscription + 1} refused; subscriptions per socket: ${limits.streams.subscriptionsPerSocket} accepted, the next refused`, async () => {
      const key = await worker.newApiKey({ plan: "free", account: newAccount() });
      const client = await openRecording(streamWs(key));
      await client.frame("connected", (f) => f.type === "connected");
      let from = client.frames.length;
      client.send({ method: "subscribePrice", tokens: [SOL, USDC] });
      expect(await client.frame("refusal", (f) => f.type === "error", 5000, from)).toEqual({ type: "error", message: "Too many tokens for your plan; max 1 per subscription" });
      // (paced under the socket's own message rate, `messagesPerSecond`, so only the plan's caps answer)
      let sent = 1;
      const paced = async (message: unknown) => {
        if (sent++ % limits.streams.messagesPerSecond === 0) await sleep(1000);
        from = client.frames.length;
        client.send(message);
      };
      for (let i = 0; i < limits.streams.subscriptionsPerSocket; i++) {
        await paced({ method: "subscribePrice", tokens: [SOL] });
        expect(await client.frame("ack", (f) => f.type === "subscribePrice", 5000, from)).toMatchObject({ status: "success" });
      }
      await paced({ method: "subscribePrice", tokens: [SOL] });
      expect(await client.frame("refusal", (f) => f.type === "error", 5000, from)).toEqual({ type: "error", message: `Too many subscriptions on this connection; max ${limits.streams.subscriptionsPerSocket}` });
      await endClient(client);
    });
  });
});

describe("a revoked key, or a changed plan, closes the key's open sockets on /rpc and /ws within 5 s", () => {
  for (const change of ["revoked", "plan changed"] as const) {
    it(`${change}: the /rpc socket (mid-stream) and the /ws socket are closed 1008 with the reason`, async () => {
      const account = newAccount();
      const key = await worker.newApiKey({ plan: "pro", account });
      const other = await worker.newApiKey({ plan: "pro", account });
      const rpcClient = await openRecording(rpcWs(key));
      const streamClient = await openRecording(streamWs(key));
      await streamClient.frame("connected", (f) => f.type === "connected");
      // another key of the same account keeps its socket
      const bystander = await openRecording(rpcWs(other));
      rpcClient.send({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" });
      bystander.send({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" });
      await answerOf(rpcClient, 1);
      await rpcClient.frame("a slot notification", (f) => f.method === "slotNotification");
      const at = Date.now();
      await worker.updateApiKey(key, change === "revoked" ? { revoked: true } : { plan: "free" });
      const reason = change === "revoked" ? "API key revoked" : "The plan of this key changed; reconnect";
      // Told within 5 s (the error frame goes right before the close frame; \`ws\` reports the close only once workerd
      // ends the TCP connection, which can take longer)
      await until("both sockets told", () => (rpcClient.frames.some((f) => f.error?.message === reason) && streamClient.frames.some((f) => f.message === reason) ? true : undefined), 5_000);
      expect(Date.now() - at).toBeLessThan(5_000);
      const [rpcClosed, streamClosed] = await Promise.all([rpcClient.closed, streamClient.closed]);
      expect(rpcClosed).toEqual({ code: 1008, reason });
      expect(streamClosed).toEqual({ code: 1008, reason });
      // the /rpc client was told why in a JSON-RPC error frame, the /ws client in an error frame
      expect(rpcClient.frames.at(-1)).toMatchObject({ error: { message: reason } });
      expect(streamClient.frames.at(-1)).toEqual({ type: "error", message: reason });
      // the other key's socket still streams
      const seen = bystander.frames.length;
      await bystander.frame("a slot notification after the close", (f) => f.method === "slotNotification", 5000, seen);
      await endClient(bystander);
      if (change === "revoked") expect(await refusedUpgrade(rpcWs(key))).toMatchObject({ status: 401 });
    }, 20_000);
  }
});

describe("a client that does not read is closed, never buffered", () => {
  it(`an /rpc socket sent over ${limits.pubSubHub.maxUnackedBytes} bytes without a frame back is closed 1008; one that pings stays`, async () => {
    const key = await worker.newApiKey({ plan: "dev", account: newAccount() });
    const silent = await openRecording(rpcWs(key));
    const pinging = await openRecording(rpcWs(key));
    // Every subscription of a socket gets its own copy: 100 copies of each notification of a busy account
    const params = [chain.world.keys.aliceToken, { commitment: "processed", encoding: "base64" }];
    for (const client of [silent, pinging]) for (let i = 1; i <= 100; i++) client.send({ jsonrpc: "2.0", id: i, method: "accountSubscribe", params });
    await until("subscribed", () => (silent.frames.filter((f) => f.id !== undefined).length >= 100 && pinging.frames.filter((f) => f.id !== undefined).length >= 100 ? true : undefined));
    const timer = setInterval(() => pinging.send({ jsonrpc: "2.0", method: "ping" }), 200);
    // Judged by bytes, not by the clock (a loaded machine makes slots slower): both sockets get the same notifications,
    // so by the time the pinging one has received the limit plus one slot's copies (100 × ≤ 1 KiB), the silent one must
    // have been closed. The clock only ends a stalled chain.
    let counted = 0;
    let bytes = 0;
    const received = () => {
      for (; counted < pinging.frames.length; counted++) bytes += JSON.stringify(pinging.frames[counted]).length;
      return bytes;
    };
    const enough = limits.pubSubHub.maxUnackedBytes + 100 * 1024;
    try {
      let closed: unknown;
      void silent.closed.then((c) => (closed = c));
      await until("the pinging socket received the limit's worth, or the silent one was closed", () => (closed !== undefined || received() > enough ? true : undefined), 90_000);
      if (closed === undefined) closed = await Promise.race([silent.closed, sleep(2_000).then(() => undefined)]);
      expect(closed).toEqual({ code: 1008, reason: expect.stringMatching(/^Client not reading/) });
      expect(pinging.ws.readyState).toBe(pinging.ws.OPEN);
    } finally {
      clearInterval(timer);
      await endClient(pinging);
    }
  }, 120_000);
});
