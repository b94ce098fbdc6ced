/**
 * PubSub: slot, root, account, program, logs and signature notifications as blocks are produced, through kit's
 * `createSolanaRpcSubscriptions`, web3.js `onSlotChange` / `onAccountChange` / `onLogs`, and raw WebSocket frames for the
 * protocol details (ids, errors, unsubscribe, batches, the RPC port upgrade).
 */
import { address, createSolanaRpcSubscriptions } from "@solana/kit";
import { Connection, PublicKey, type AccountInfo, type Logs } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTinyChain, type TinyChain } from "./helpers/local-chain.js";
import { TOKEN_PROGRAM } from "./helpers/tiny-world.js";
import { sleep } from "../helpers/wait";

/** Waits until `done()` holds, producing a slot each round (manual mode) so the chain moves while we wait. */
async function until(chain: TinyChain, done: () => boolean, rounds = 200): Promise<void> {
  for (let i = 0; i < rounds && !done(); i++) {
    await chain.net.advance(1);
    await sleep(5);
  }
  if (!done()) throw new Error("condition not reached");
}

/** Reads `count` items from a kit notifications iterable in the background. */
function take<T>(iterable: AsyncIterable<T>, count: number): { items: T[]; done: Promise<void> } {
  const items: T[] = [];
  const done = (async () => {
    for await (const item of iterable) {
      items.push(item);
      if (items.length >= count) return;
    }
  })();
  return { items, done };
}

let chain: TinyChain;

beforeAll(async () => {
  chain = await startTinyChain();
  await chain.net.advance(40);
});

afterAll(() => chain.net.close());

describe("kit subscriptions", () => {
  it("slotNotifications and rootNotifications follow produced slots", async () => {
    const subs = createSolanaRpcSubscriptions(chain.net.wsUrl);
    const abort = new AbortController();
    const slots = take(await subs.slotNotifications().subscribe({ abortSignal: abort.signal }), 3);
    const roots = take(await subs.rootNotifications().subscribe({ abortSignal: abort.signal }), 2);
    await until(chain, () => slots.items.length >= 3 && roots.items.length >= 2);
    abort.abort();
    const [first, , third] = slots.items;
    expect(third!.slot).toBeGreaterThan(first!.slot);
    expect(chain.net.ledger.getBlock(Number(third!.slot))!.parentSlot).toBe(Number(third!.parent));
    expect(third!.root).toBeLessThanOrEqual(third!.slot - 32n);
    expect(roots.items[1]).toBeGreaterThan(roots.items[0]!);
  });

  it("accountNotifications carry the new state at the subscribed commitment", async () => {
    const subs = createSolanaRpcSubscriptions(chain.net.wsUrl);
    const abort = new AbortController();
    const iterable = await subs
      .accountNotifications(address(chain.world.keys.aliceToken), { commitment: "processed", encoding: "base64" })
      .subscribe({ abortSignal: abort.signal });
    const updates = take(iterable, 2);
    await until(chain, () => updates.items.length >= 2);
    abort.abort();
    const [a, b] = updates.items;
    const amount = (n: typeof a) => Buffer.from(n!.value.data[0], "base64").readBigUInt64LE(64);
    expect(amount(b)).toBeLessThan(amount(a));
    expect(b!.context.slot).toBeGreaterThan(a!.context.slot);
    const stored = chain.net.ledger.accounts.get(chain.world.keys.aliceToken, Number(b!.context.slot))!;
    expect(Buffer.from(b!.value.data[0], "base64")).toEqual(Buffer.from(stored.data));
  });

  it("programNotifications report changed accounts that pass the filters; logs and signatures follow transactions", async () => {
    const subs = createSolanaRpcSubscriptions(chain.net.wsUrl);
    const abort = new AbortController();
    const program = take(
      await subs
        .programNotifications(address(TOKEN_PROGRAM), { commitment: "processed", encoding: "base64", filters: [{ dataSize: 165n }] })
        .subscribe({ abortSignal: abort.signal }),
      2,
    );
    const logs = take(await subs.logsNotifications({ mentions: [address(chain.world.keys.bobToken)] }).subscribe({ abortSignal: abort.signal }), 1);
    await until(chain, () => program.items.length >= 2 && logs.items.length >= 1);
    const changed = program.items.map((n) => n.value.pubkey).sort();
    expect(changed).toEqual([chain.world.keys.aliceToken, chain.world.keys.bobToken].sort());
    const log = logs.items[0]!;
    const found = chain.net.ledger.findTransaction(log.value.signature)!;
    expect(Number(log.context.slot)).toBe(found.block.slot);
    expect(found.block.slot).toBeLessThanOrEqual(chain.net.ledger.slotAt("confirmed"));
    expect(log.value.logs).toContain("Program log: Instruction: Transfer");

    // A signature subscription at "finalized" ends with one notification once its block is finalized.
    const pending = chain.world.produced.at(-1)!.signatures[0]!;
    const signature = take(await subs.signatureNotifications(pending as never, { commitment: "finalized" }).subscribe({ abortSignal: abort.signal }), 1);
    await until(chain, () => signature.items.length >= 1);
    abort.abort();
    expect(signature.items[0]!.value).toEqual({ err: null });
    expect(Number(signature.items[0]!.context.slot)).toBe(chain.net.ledger.findTransaction(pending)!.block.slot);
  });
});

describe("web3.js subscriptions", () => {
  it("onSlotChange, onAccountChange and onLogs deliver, and their remove*Listener calls unsubscribe", async () => {
    const connection = new Connection(chain.net.rpcUrl, { wsEndpoint: chain.net.wsUrl, commitment: "processed" });
    const slots: number[] = [];
    const accounts: AccountInfo<Buffer>[] = [];
    const logs: Logs[] = [];
    const slotId = connection.onSlotChange((info) => slots.push(info.slot));
    const accountId = connection.onAccountChange(new PublicKey(chain.world.keys.bobToken), (info) => accounts.push(info), { commitment: "processed" });
    const logsId = connection.onLogs(new PublicKey(chain.world.keys.aliceToken), (entry) => logs.push(entry), "processed");
    await until(chain, () => slots.length >= 2 && accounts.length >= 2 && logs.length >= 2);
    expect(accounts[1]!.data.readBigUInt64LE(64)).toBeGreaterThan(accounts[0]!.data.readBigUInt64LE(64));
    expect(accounts[0]!.owner.toBase58()).toBe(TOKEN_PROGRAM);
    expect(logs[0]!.err).toBeNull();
    expect(chain.net.ledger.findTransaction(logs[0]!.signature)).toBeDefined();
    await connection.removeSlotChangeListener(slotId);
    await connection.removeAccountChangeListener(accountId);
    await connection.removeOnLogsListener(logsId);
    const seen = slots.length;
    await chain.net.advance(3);
    await sleep(50);
    expect(slots.length).toBe(seen);
  });
});

describe("protocol", () => {
  async function open(url: string): Promise<{ ws: WebSocket; next: () => Promise<any> }> {
    const ws = new WebSocket(url);
    const queue: unknown[] = [];
    const waiters: ((m: unknown) => void)[] = [];
    ws.on("message", (data) => {
      const message = JSON.parse(data.toString()) as unknown;
      const waiter = waiters.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    });
    await new Promise((resolve) => ws.once("open", resolve));
    const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve)));
    return { ws, next };
  }

  it("hands out integer ids, validates params, unsubscribes once, and answers batches", async () => {
    const { ws, next } = await open(chain.net.wsUrl);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    const { result: id } = await next();
    expect(Number.isInteger(id)).toBe(true);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "accountSubscribe", params: ["not-a-key"] }));
    expect(await next()).toEqual({ jsonrpc: "2.0", error: { code: -32602, message: "Invalid Request: Invalid pubkey provided" }, id: 2 });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "logsSubscribe", params: [{ mentions: [chain.world.keys.alice, chain.world.keys.bob] }] }));
    expect((await next()).error.message).toBe("Invalid Request: Only 1 address supported");
    await chain.net.advance(1);
    const notification = await next();
    expect(notification).toMatchObject({ jsonrpc: "2.0", method: "slotNotification", params: { subscription: id, result: { slot: expect.any(Number) } } });
    ws.send(JSON.stringify([
      { jsonrpc: "2.0", id: 4, method: "slotUnsubscribe", params: [id] },
      { jsonrpc: "2.0", id: 5, method: "slotUnsubscribe", params: [id] },
    ]));
    expect(await next()).toEqual([
      { jsonrpc: "2.0", result: true, id: 4 },
      { jsonrpc: "2.0", error: { code: -32602, message: "Invalid subscription id." }, id: 5 },
    ]);
    ws.close();
  });

  it("also upgrades WebSockets on the RPC port", async () => {
    const { ws, next } = await open(chain.net.rpcUrl.replace("http", "ws"));
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "rootSubscribe" }));
    expect(Number.isInteger((await next()).result)).toBe(true);
    ws.close();
  });
});

describe("auto mode", () => {
  it("produces slots on its own every slotMs", async () => {
    const auto = await startTinyChain({ slotMs: 20 });
    try {
      const subs = createSolanaRpcSubscriptions(auto.net.wsUrl);
      const abort = new AbortController();
      const slots = take(await subs.slotNotifications().subscribe({ abortSignal: abort.signal }), 5);
      await Promise.race([slots.done, sleep(5_000)]);
      abort.abort();
      expect(slots.items.length).toBe(5);
      expect(auto.net.ledger.currentSlot).toBeGreaterThanOrEqual(5);
    } finally {
      await auto.net.close();
    }
  });
});
