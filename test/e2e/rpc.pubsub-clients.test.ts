/**
 * Real PubSub clients through the worker's `/rpc` WebSocket (the PubSub hub), unmodified: web3.js `Connection`
 * (`wsEndpoint` = the worker) onAccountChange, onLogs, onProgramAccountChange with filters, onSignature, onSlotChange, and kit's
 * `createSolanaRpcSubscriptions` accountNotifications / slotNotifications — against localnet's full world (swaps of
 * every venue, a slot every 200 ms). The watched account is a vault of the busiest pool, the logs those of its program.
 */
import { address, createSolanaRpcSubscriptions } from "@solana/kit";
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, type AccountInfo, type Logs } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import { serveWorker, type ServedWorker } from "./helpers/served-worker";
import { sleep, until as poll } from "../helpers/wait";

let net: Localnet;
let worker: ServedWorker;
let key: string;
/** The node itself: the oracle, and the way to send the airdrop whose signature is watched. */
let node: Connection;
/** A token account of the busiest pool that changed between two reads a second apart, and the pool's program. */
let vault: string;
let venueProgram: string;

const httpUrl = () => `${worker.origin}/rpc?x-api-key=${key}`;
const wsUrl = () => `${worker.origin.replace(/^http/, "ws")}/rpc?x-api-key=${key}`;

/** A condition, in the argument order this file reads best. */
const until = (done: () => boolean, what: string, timeoutMs = 20_000) => poll(what, () => done() || undefined, timeoutMs);

/** Subscriptions the node holds of `method` whose first param is `first` (compared as JSON). */
async function upstreamSubscriptionsOf(method: string, first: unknown): Promise<number> {
  const stat = (await (await fetch(`${net.rpcUrl}/__localnet/pubsub`)).json()) as { subscriptions: { method: string; params: unknown[]; count: number }[] };
  return stat.subscriptions.filter((s) => s.method === method && JSON.stringify(s.params?.[0]) === JSON.stringify(first)).reduce((sum, s) => sum + s.count, 0);
}

async function untilUpstream(method: string, first: unknown, count: number): Promise<void> {
  let seen = -1;
  const end = Date.now() + 10_000;
  while ((seen = await upstreamSubscriptionsOf(method, first)) !== count) {
    if (Date.now() > end) throw new Error(`the node holds ${seen} ${method} of ${JSON.stringify(first)}, not ${count}`);
    await sleep(25);
  }
}

/** The busiest pool of the last slots (the world's ground truth), one of its accounts that moves, and its program. */
async function pickBusyVault(): Promise<{ vault: string; program: string }> {
  const slot = await node.getSlot("processed");
  const { trades } = (await (await fetch(`${net.rpcUrl}/__localnet/trades?from=0&to=${slot}`)).json()) as { trades: { pool: string }[] };
  const counts = new Map<string, number>();
  for (const trade of trades) counts.set(trade.pool, (counts.get(trade.pool) ?? 0) + 1);
  const manifest = (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as { tokens: { pools: { address: string; related: Record<string, string> }[] }[] };
  const pools = manifest.tokens.flatMap((t) => t.pools);
  for (const [pool] of [...counts].sort((a, b) => b[1] - a[1])) {
    const candidates = Object.values(pools.find((p) => p.address === pool)?.related ?? {}).map((k) => new PublicKey(k));
    if (candidates.length === 0) continue;
    const before = await node.getMultipleAccountsInfo(candidates, "processed");
    await sleep(1500);
    const after = await node.getMultipleAccountsInfo(candidates, "processed");
    const moved = candidates.findIndex((_, i) => before[i] && after[i] && !before[i]!.data.equals(after[i]!.data) && before[i]!.data.length === 165);
    if (moved < 0) continue;
    const info = await node.getAccountInfo(new PublicKey(pool), "processed");
    return { vault: candidates[moved]!.toBase58(), program: info!.owner.toBase58() };
  }
  throw new Error("no pool account moved");
}

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 200, seed: 5, finalityDepth: 4 });
  worker = await serveWorker({ UPSTREAM_RPC_URL: net.rpcUrl, UPSTREAM_WS_URL: net.wsUrl });
  key = await worker.newApiKey();
  node = new Connection(net.rpcUrl, { wsEndpoint: net.wsUrl, commitment: "confirmed" });
  await sleep(1000);
  ({ vault, program: venueProgram } = await pickBusyVault());
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await net?.close();
});

describe("web3.js Connection with wsEndpoint = the worker's /rpc", () => {
  it("onAccountChange (a pool vault), onLogs (its venue program), onSlotChange deliver; two Connections on the vault share one upstream subscription; remove*Listener ends them", async () => {
    // Given the oracle: the node's own notifications of the vault, by slot
    const oracle = new Map<number, Buffer>();
    const oracleId = node.onAccountChange(new PublicKey(vault), (info, context) => oracle.set(context.slot, info.data), { commitment: "processed" });
    await untilUpstream("accountSubscribe", vault, 1);
    // And two Connections whose WebSocket is the worker's, watching the same vault, the venue's logs and slots
    const first = new Connection(httpUrl(), { wsEndpoint: wsUrl(), commitment: "processed" });
    const second = new Connection(httpUrl(), { wsEndpoint: wsUrl(), commitment: "processed" });
    const accounts: { slot: number; info: AccountInfo<Buffer> }[][] = [[], []];
    const logs: Logs[] = [];
    const slots: number[] = [];
    const accountIds = [first, second].map((c, i) => c.onAccountChange(new PublicKey(vault), (info, context) => accounts[i]!.push({ slot: context.slot, info }), { commitment: "processed" }));
    const logsId = first.onLogs(new PublicKey(venueProgram), (entry) => logs.push(entry), "processed");
    const slotId = first.onSlotChange((info) => slots.push(info.slot));

    // When the world trades for a while
    await until(() => accounts.every((a) => a.length >= 2) && logs.length >= 2 && slots.length >= 3, "notifications of every kind");

    // Then both Connections got the vault exactly as the node notified it at each slot, the logs are transactions of
    // the node that mention the program, and the node holds ONE subscription of the vault for both Connections (plus the oracle's)
    await until(() => accounts.flat().every(({ slot }) => oracle.has(slot)), "the oracle to have every notified slot");
    for (const { slot, info } of accounts.flat()) expect(info.data.equals(oracle.get(slot)!)).toBe(true);
    expect(accounts[0]!.map((a) => a.slot).slice(0, 2)).toEqual(accounts[1]!.map((a) => a.slot).slice(0, 2));
    const tx = await node.getTransaction(logs[0]!.signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 });
    expect(tx?.transaction.message.staticAccountKeys.map((k) => k.toBase58())).toContain(venueProgram);
    expect(slots[1]).toBeGreaterThan(slots[0]!);
    expect(await upstreamSubscriptionsOf("accountSubscribe", vault)).toBe(2);
    expect(await upstreamSubscriptionsOf("logsSubscribe", { mentions: [venueProgram] })).toBe(1);

    // When one removes its listener the shared subscription stays; when both have, it goes
    await first.removeAccountChangeListener(accountIds[0]!);
    expect(await upstreamSubscriptionsOf("accountSubscribe", vault)).toBe(2);
    await second.removeAccountChangeListener(accountIds[1]!);
    await first.removeOnLogsListener(logsId);
    await first.removeSlotChangeListener(slotId);
    await untilUpstream("accountSubscribe", vault, 1);
    await untilUpstream("logsSubscribe", { mentions: [venueProgram] }, 0);
    await node.removeAccountChangeListener(oracleId);
  });

  it("onProgramAccountChange with filters (token accounts of the vault's mint): delivers only matching accounts; two Connections share one upstream programSubscribe", async () => {
    // Given the vault's mint, and two Connections watching the Token program's accounts of that mint
    const vaultInfo = await node.getAccountInfo(new PublicKey(vault), "processed");
    const mint = new PublicKey(vaultInfo!.data.subarray(0, 32));
    const tokenProgram = vaultInfo!.owner;
    const filters = [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint.toBase58() } }];
    const connections = [0, 1].map(() => new Connection(httpUrl(), { wsEndpoint: wsUrl(), commitment: "processed" }));
    const seen: { pubkey: string; data: Buffer }[][] = [[], []];
    const ids = connections.map((c, i) =>
      c.onProgramAccountChange(tokenProgram, (keyed) => seen[i]!.push({ pubkey: keyed.accountId.toBase58(), data: keyed.accountInfo.data }), { commitment: "processed", filters }),
    );

    // When the world trades the mint for a while
    await until(() => seen.every((s) => s.length >= 2), "program notifications on both Connections");

    // Then every account notified is a token account of that mint, and the node holds one programSubscribe for both
    for (const { data } of seen.flat()) {
      expect(data.length).toBe(165);
      expect(new PublicKey(data.subarray(0, 32)).equals(mint)).toBe(true);
    }
    expect(await upstreamSubscriptionsOf("programSubscribe", tokenProgram.toBase58())).toBe(1);
    await Promise.all(connections.map((c, i) => c.removeProgramAccountChangeListener(ids[i]!)));
    await untilUpstream("programSubscribe", tokenProgram.toBase58(), 0);
  });

  it("onSignature: an airdrop sent to the node is confirmed through the worker", async () => {
    // Given an airdrop the node is processing
    const viaWorker = new Connection(httpUrl(), { wsEndpoint: wsUrl(), commitment: "confirmed" });
    const signature = await node.requestAirdrop(Keypair.generate().publicKey, LAMPORTS_PER_SOL);
    // When web3.js watches its signature through the worker
    const result = await new Promise<{ err: unknown; slot: number }>((resolve) => viaWorker.onSignature(signature, (r, context) => resolve({ err: r.err, slot: context.slot }), "confirmed"));
    // Then it is the node's outcome, in the node's slot
    expect(result.err).toBeNull();
    const status = await node.getSignatureStatus(signature);
    expect(status.value?.slot).toBe(result.slot);
    // And the signature subscription ended with its notification (Agave's rule), upstream too
    await untilUpstream("signatureSubscribe", signature, 0);
  });
});

describe("kit createSolanaRpcSubscriptions(the worker's /rpc)", () => {
  it("accountNotifications (the vault) and slotNotifications deliver, and sit on the hub's shared upstream subscriptions", async () => {
    // Given kit subscriptions through the worker
    const subscriptions = createSolanaRpcSubscriptions(wsUrl());
    const abort = new AbortController();
    const accountStream = await subscriptions.accountNotifications(address(vault), { commitment: "processed", encoding: "base64" }).subscribe({ abortSignal: abort.signal });
    const slotStream = await subscriptions.slotNotifications().subscribe({ abortSignal: abort.signal });

    // When two notifications of each arrive
    const takeTwo = async <T,>(stream: AsyncIterable<T>): Promise<T[]> => {
      const got: T[] = [];
      for await (const item of stream) if (got.push(item) === 2) break;
      return got;
    };
    const [accountItems, slotItems] = await Promise.all([takeTwo(accountStream), takeTwo(slotStream)]);

    // Then the account is the vault as the node has it at the notified slot, and slots move forward
    for (const item of accountItems) {
      expect(item.value.data[1]).toBe("base64");
      expect(Buffer.from(item.value.data[0], "base64").length).toBe(165);
    }
    expect(Number(slotItems[1]!.slot)).toBeGreaterThan(Number(slotItems[0]!.slot));
    expect(await upstreamSubscriptionsOf("accountSubscribe", vault)).toBe(1);
    abort.abort();
  });
});
