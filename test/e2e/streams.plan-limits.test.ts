/**
 * `/ws` under the plans: connections per ACCOUNT counted exactly by its meter (whatever room shard each socket lands
 * in, key in the query or in the first message, sockets closed and reopened), and the plan's tokens per subscription.
 * The bundled worker served by Miniflare (real rooms, real AccountMeter), `ws` clients.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plans } from "../../src/accounts/plans";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";
import { openRecording, type RecordingClient, refusedUpgrade } from "./helpers/ws-client";
import { until } from "../helpers/wait";
import { newAccount } from "../helpers/ids";

let chain: TinyChain;
let worker: ServedWorker;
const wsPath = () => `${worker.origin.replace(/^http/, "ws")}/ws`;
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const sixMints = [SOL, USDC, "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So"];

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain({ slotMs: 100 }));
});

afterAll(() => closeWorkerAndChain({ chain, worker }));

async function connected(key: string): Promise<RecordingClient> {
  const client = await openRecording(`${wsPath()}?x-api-key=${key}`);
  await client.frame("connected", (f) => f.type === "connected");
  return client;
}

describe("WebSocket connections per account", () => {
  it(`PRO: ${plans.pro.wsConnections} sockets over two keys are admitted (any shards), the next one gets 429; after a close there is room again`, async () => {
    // Given a PRO account with two keys
    const account = newAccount();
    const keys = [await worker.newApiKey({ plan: "pro", account }), await worker.newApiKey({ plan: "pro", account })];
    // When N sockets open, alternating keys (each a fresh connection id, so spread over the room shards)
    const open: RecordingClient[] = [];
    for (let i = 0; i < plans.pro.wsConnections; i++) open.push(await connected(keys[i % 2]!));
    // Then one more is refused before the upgrade, naming the plan's limit
    expect(await refusedUpgrade(`${wsPath()}?x-api-key=${keys[0]}`)).toEqual({
      status: 429,
      body: { status: "error", error: { code: 429, message: `Too many connections for this account; max ${plans.pro.wsConnections} on the PRO plan` } },
    });
    // and a key of another account is not affected
    const other = await connected(await worker.newApiKey({ plan: "pro", account: newAccount() }));
    other.ws.close();
    // When one socket closes / Then the meter counts it out: a new one is admitted (the room tells the meter on close)
    open[0]!.ws.close();
    await open[0]!.closed;
    const again = await until("a socket admitted again", async () => {
      try {
        return await connected(keys[1]!);
      } catch {
        return undefined;
      }
    });
    expect(again.frames[0]).toMatchObject({ type: "connected" });
    for (const client of [...open.slice(1), again]) client.ws.close();
  });

  it("FREE (1 connection): a second socket reusing the first one's connectionId is refused too (the meter counts sockets, not ids); once the first closes, the id resumes", async () => {
    // Given a FREE account holding its one socket, with the connection id it was given
    const account = newAccount();
    const key = await worker.newApiKey({ plan: "free", account });
    const first = await connected(key);
    const connectionId = (first.frames[0] as { connectionId: string }).connectionId;
    // When more sockets ask for the same connection id
    for (let i = 0; i < 3; i++) {
      // Then each is refused before the upgrade
      expect(await refusedUpgrade(`${wsPath()}?x-api-key=${key}&connectionId=${connectionId}`)).toMatchObject({ status: 429 });
    }
    // When the first closes / Then the id is admitted again (to resume in its room)
    first.ws.close();
    await first.closed;
    const back = await until("the connection id admitted again", async () => {
      try {
        return await openRecording(`${wsPath()}?x-api-key=${key}&connectionId=${connectionId}`).then(async (c) => (await c.frame("connected", (f) => f.type === "connected"), c));
      } catch {
        return undefined;
      }
    });
    expect(back.frames[0]).toEqual({ type: "connected", connectionId });
    back.ws.close();
  });

  it("FREE (1 connection): a second socket presenting its key in the first message is closed 1008 with the plan's reason", async () => {
    // Given a FREE account holding its one socket
    const account = newAccount();
    const key = await worker.newApiKey({ plan: "free", account });
    const first = await connected(key);
    // When a second socket is upgraded without a key and sends it first
    const second = await openRecording(wsPath());
    second.send({ apiKey: key });
    // Then it is closed, policy, with the reason
    expect(await second.closed).toEqual({ code: 1008, reason: "Too many connections for this account; max 1 on the FREE plan" });
    first.ws.close();
  });
});

describe("tokens per subscription", () => {
  it(`FREE: ${plans.free.wsTokensPerSubscription} token per subscription, 2 refused; PRO: ${plans.pro.wsTokensPerSubscription} accepted, 6 refused`, async () => {
    for (const [plan, cap] of [
      ["free", plans.free.wsTokensPerSubscription],
      ["pro", plans.pro.wsTokensPerSubscription],
    ] as const) {
      const client = await connected(await worker.newApiKey({ plan, account: newAccount() }));
      // When a subscription names exactly the cap / Then success
      client.send({ method: "subscribePrice", tokens: sixMints.slice(0, cap) });
      expect(await client.frame("ack", (f) => f.type === "subscribePrice")).toMatchObject({ type: "subscribePrice", status: "success", tokens: sixMints.slice(0, cap) });
      // When one more token is named / Then an error frame naming the plan's cap
      const from = client.frames.length;
      client.send({ method: "subscribeTrade", tokens: sixMints.slice(0, cap + 1) });
      expect(await client.frame("refusal", (f) => f.type === "error", 5000, from)).toEqual({ type: "error", message: `Too many tokens for your plan; max ${cap} per subscription` });
      client.ws.close();
    }
  });
});
