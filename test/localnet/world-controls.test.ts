/**
 * The world's admin controls: `POST /__localnet/launch?kind=` (the next produced slot creates a new pool of that kind,
 * by the normal pool-launch path) and `POST /__localnet/graduate?mint=` (the next produced slot buys out a pump.fun
 * curve; the slot after migrates it to PumpSwap). Checked against the chain itself: the block holds the transaction,
 * the venue program's create instruction ran, the pool account exists with the venue's owner, the manifest lists it.
 * And `POST /__localnet/drop-next` (the next produced block is processed, then dropped: never confirmed), checked
 * through the RPC methods a client would use at each commitment.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  METEORA_DAMM_V1_PROGRAM,
  METEORA_DAMM_V2_PROGRAM,
  METEORA_DBC_PROGRAM,
  METEORA_DLMM_PROGRAM,
  PUMP_AMM_PROGRAM,
  PUMP_PROGRAM,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  RAYDIUM_CPMM_PROGRAM,
} from "../../localnet/src/world/programs.js";
import type { WorldManifest, WorldToken } from "../../localnet/src/world/manifest.js";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import WebSocket from "ws";
import { call } from "./helpers/local-chain.js";

const PROGRAM_OF_KIND: Record<string, string> = {
  "raydium-amm-v4": RAYDIUM_AMM_V4_PROGRAM,
  "raydium-cpmm": RAYDIUM_CPMM_PROGRAM,
  "raydium-clmm": RAYDIUM_CLMM_PROGRAM,
  "meteora-dlmm": METEORA_DLMM_PROGRAM,
  "meteora-damm-v1": METEORA_DAMM_V1_PROGRAM,
  "meteora-damm-v2": METEORA_DAMM_V2_PROGRAM,
  "meteora-dbc": METEORA_DBC_PROGRAM,
};

let net: Localnet;

const post = async (path: string) => {
  const res = await fetch(`${net.rpcUrl}${path}`, { method: "POST" });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};
const manifest = async () => (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as WorldManifest;
const tokenOf = async (mint: string) => (await manifest()).tokens.find((t) => t.mint === mint);

/** A `wait=1` control in manual mode: slots are produced (one every 30 ms) until it answers. */
async function waited(path: string): Promise<{ status: number; json: Record<string, any> }> {
  let settled = false;
  const answer = post(`${path}${path.includes("?") ? "&" : "?"}wait=1`).finally(() => (settled = true));
  while (!settled) {
    await new Promise((r) => setTimeout(r, 30));
    if (!settled) await net.advance(1);
  }
  return answer;
}

async function transaction(signature: string) {
  const { result } = await call(net.rpcUrl, "getTransaction", [signature, { encoding: "json", commitment: "confirmed", maxSupportedTransactionVersion: 0 }]);
  return result as { slot: number; meta: { err: unknown; logMessages: string[] }; transaction: { message: { accountKeys: string[] } } };
}

async function ownerOf(address: string): Promise<string | undefined> {
  const { result } = await call(net.rpcUrl, "getAccountInfo", [address, { encoding: "base64", commitment: "processed" }]);
  return result?.value?.owner;
}

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 23 });
  await net.advance(40);
}, 60_000);

afterAll(() => net?.close());

describe("POST /__localnet/launch?kind=", () => {
  it.each(Object.keys(PROGRAM_OF_KIND))("kind=%s: the next produced slot creates a pool of that kind with the program's own create instruction", async (kind) => {
    // Given the chain at some slot
    const before = net.ledger.currentSlot;

    // When a launch of that kind is asked for, waiting for the slot that makes it
    const { status, json } = await waited(`/__localnet/launch?kind=${kind}`);

    // Then it answers the slot, the transaction and the new mint and pool
    expect(status).toBe(200);
    expect(json).toMatchObject({ kind, slot: expect.any(Number), signature: expect.any(String), mint: expect.any(String), pool: expect.any(String), creator: expect.any(String) });
    expect(json.slot).toBeGreaterThan(before);
    expect(Math.abs(Date.now() - json.producedAtMs)).toBeLessThan(10_000);
    // and the block of that slot holds it: a successful transaction signed by the creator, invoking the venue's program
    await net.advance(1);
    const tx = await transaction(json.signature);
    expect(tx.slot).toBe(json.slot);
    expect(tx.meta.err).toBeNull();
    expect(tx.transaction.message.accountKeys[0]).toBe(json.creator);
    expect(tx.meta.logMessages).toContain(`Program ${PROGRAM_OF_KIND[kind]} invoke [1]`);
    // and the pool account exists, owned by that program, and the manifest lists the token with that pool
    expect(await ownerOf(json.pool)).toBe(PROGRAM_OF_KIND[kind]);
    const token = (await tokenOf(json.mint)) as WorldToken;
    expect(token.pools.map((p) => [p.kind, p.address])).toContainEqual([kind, json.pool]);
    expect(token.details).toMatchObject({ launchedAtSlot: String(json.slot), pool: json.pool });
  }, 60_000);

  it("without wait it answers at once what is queued; the next produced slot makes it", async () => {
    // Given a launch asked for without waiting
    const { status, json } = await post("/__localnet/launch?kind=meteora-dbc");
    expect(status).toBe(200);
    expect(json).toEqual({ queued: { what: "launch", kind: "meteora-dbc" }, afterSlot: net.ledger.currentSlot });
    const known = new Set((await manifest()).tokens.map((t) => t.mint));

    // When the next slots are produced
    await net.advance(2);

    // Then exactly one new DBC token appeared, launched in a slot after the answer's
    const fresh = (await manifest()).tokens.filter((t) => !known.has(t.mint) && t.tags.includes("meteora-dbc"));
    expect(fresh).toHaveLength(1);
    expect(Number(fresh[0]!.details?.launchedAtSlot)).toBeGreaterThan(json.afterSlot);
  });

  it("refuses a missing or unknown kind and a bad wait with 400 and a message", async () => {
    expect(await post("/__localnet/launch")).toEqual({ status: 400, json: { error: "kind is required" } });
    const unknown = await post("/__localnet/launch?kind=orca-whirlpool");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/^kind must be one of .*raydium-amm-v4.*meteora-dbc/);
    expect(await post("/__localnet/launch?kind=raydium-cpmm&wait=yes")).toEqual({ status: 400, json: { error: "wait must be 0 or 1" } });
  });
});

describe("POST /__localnet/graduate", () => {
  it("mint=<a live curve>: a whale's pump.fun buy takes every token left (CompleteEvent); the next slot migrates it to its PumpSwap pool", async () => {
    // Given a pump.fun coin whose curve is live
    const coin = (await manifest()).tokens.find((t) => t.venues.includes("pumpfun") && !t.tags.includes("complete") && !t.tags.includes("graduated"))!;
    expect(coin).toBeDefined();
    const curve = coin.pools.find((p) => p.kind === "pumpfun")!.address;

    // When its graduation is asked for
    const { status, json } = await waited(`/__localnet/graduate?mint=${coin.mint}`);

    // Then the slot's buy completed the curve
    expect(status).toBe(200);
    expect(json).toMatchObject({ mint: coin.mint, curve, completed: true, slot: expect.any(Number), wallet: expect.any(String), pumpSwapPool: expect.any(String) });
    await net.advance(2);
    const buy = await transaction(json.signature);
    expect(buy.meta.err).toBeNull();
    expect(buy.transaction.message.accountKeys[0]).toBe(json.wallet);
    expect(buy.meta.logMessages).toContain(`Program ${PUMP_PROGRAM} invoke [1]`);
    expect(buy.meta.logMessages).toContain("Program log: Instruction: Buy");
    // the ground truth has it as the whale's buy on the curve
    const truth = ((await (await fetch(`${net.rpcUrl}/__localnet/trades?from=${json.slot}&to=${json.slot}`)).json()) as { trades: { signature: string; kind: string; side: string; wallet: string }[] }).trades;
    expect(truth.filter((t) => t.signature === json.signature)).toEqual([expect.objectContaining({ kind: "pump-bonding-curve", side: "buy", wallet: json.wallet })]);
    // the curve account says complete (bool at byte 48 of the BondingCurve layout)
    const { result } = await call(net.rpcUrl, "getAccountInfo", [curve, { encoding: "base64", commitment: "processed" }]);
    expect(Buffer.from(result.value.data[0], "base64")[48]).toBe(1);
    // and the next slot migrated it: the token is graduated, with its canonical PumpSwap pool, owned by the PumpSwap program
    const token = (await tokenOf(coin.mint))!;
    expect(token.tags).toEqual(expect.arrayContaining(["complete", "graduated"]));
    expect(token.details).toMatchObject({ completedAtSlot: String(json.slot), graduatedAtSlot: expect.any(String) });
    expect(Number(token.details?.graduatedAtSlot)).toBeGreaterThan(json.slot);
    expect(token.pools.map((p) => [p.kind, p.address])).toContainEqual(["pumpswap", json.pumpSwapPool]);
    expect(await ownerOf(json.pumpSwapPool)).toBe(PUMP_AMM_PROGRAM);
  }, 60_000);

  it("no mint: picks a near-graduation curve (else the live curve with the fewest tokens left)", async () => {
    const live = (await manifest()).tokens.filter((t) => t.venues.includes("pumpfun") && !t.tags.includes("complete") && !t.tags.includes("graduated"));
    const { status, json } = await post("/__localnet/graduate");
    expect(status).toBe(200);
    expect(json.queued.what).toBe("graduate");
    expect(live.map((t) => t.mint)).toContain(json.queued.mint);
    const near = live.filter((t) => t.tags.includes("near-graduation")).map((t) => t.mint);
    if (near.length > 0) expect(near).toContain(json.queued.mint);
    // asking for the same curve again while it waits is refused
    expect(await post(`/__localnet/graduate?mint=${json.queued.mint}`)).toEqual({ status: 400, json: { error: `a graduation of ${json.queued.mint} is already queued` } });
    await net.advance(3);
    expect((await tokenOf(json.queued.mint))!.tags).toContain("graduated");
  });

  it("refuses a malformed mint, a mint the world does not have, a token with no curve and a completed curve with 400 and a message", async () => {
    const m = await manifest();
    const noCurve = m.tokens.find((t) => !t.venues.includes("pumpfun") && !t.tags.includes("pump"))!;
    const done = m.tokens.find((t) => t.tags.includes("graduated") && t.pools.some((p) => p.kind === "pumpfun"))!;
    expect(await post("/__localnet/graduate?mint=not-a-key")).toEqual({ status: 400, json: { error: "mint must be a base58 address" } });
    expect(await post("/__localnet/graduate?mint=")).toEqual({ status: 400, json: { error: "mint must be a base58 address" } });
    const stranger = "11111111111111111111111111111112";
    expect(await post(`/__localnet/graduate?mint=${stranger}`)).toEqual({ status: 400, json: { error: `mint ${stranger} is not a token of the world` } });
    expect(await post(`/__localnet/graduate?mint=${noCurve.mint}`)).toEqual({ status: 400, json: { error: `mint ${noCurve.mint} has no pump.fun bonding curve` } });
    expect(await post(`/__localnet/graduate?mint=${done.mint}`)).toEqual({ status: 400, json: { error: `the bonding curve of ${done.mint} is already complete` } });
  });
});

describe("POST /__localnet/drop-next", () => {
  const slotAt = async (commitment: string) => (await call(net.rpcUrl, "getSlot", [{ commitment }])).result as number;
  const accountsAt = async (keys: string[], commitment: string) =>
    ((await call(net.rpcUrl, "getMultipleAccounts", [keys, { commitment, encoding: "base64" }])).result.value as ({ data: [string, string]; lamports: number } | null)[]).map((a) => JSON.stringify(a));

  it("pool=P: a whale's buy on P in a block seen at processed only; the next block builds on its parent and the slot is skipped at every commitment", async () => {
    // Given a SOL-quoted CPMM pool of the world, its reserve accounts, and a slot subscription
    const pool = (await manifest()).tokens.flatMap((t) => t.pools).find((p) => p.kind === "raydium-cpmm" && p.quoteMint === "So11111111111111111111111111111111111111112")!;
    const reserves = Object.values(pool.related);
    const slots: { slot: number; parent: number }[] = [];
    const ws = new WebSocket(net.wsUrl);
    await new Promise((resolve) => ws.once("open", resolve));
    ws.on("message", (m) => {
      const msg = JSON.parse(String(m));
      if (msg.method === "slotNotification") slots.push(msg.params.result);
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "slotSubscribe" }));
    await new Promise((r) => setTimeout(r, 100));
    const before = await accountsAt(reserves, "processed");

    // When the next block is asked to be dropped, with a buy of 20 SOL on the pool
    const { status, json } = await waited(`/__localnet/drop-next?pool=${pool.address}&sol=20`);

    // Then the answer names the fork block and its one transaction
    expect(status).toBe(200);
    const fork = json.slot as number;
    expect(json).toMatchObject({ slot: fork, parentSlot: expect.any(Number), signatures: [expect.any(String)] });
    const [signature] = json.signatures as string[];
    // and at processed the chain is at that block, the buy moved the pool's reserves, the transaction is processed
    expect(await slotAt("processed")).toBe(fork);
    expect(await slotAt("confirmed")).toBeLessThan(fork);
    expect(await accountsAt(reserves, "processed")).not.toEqual(before);
    expect(await accountsAt(reserves, "confirmed")).toEqual(before);
    const status1 = (await call(net.rpcUrl, "getSignatureStatuses", [[signature]])).result.value[0];
    expect(status1).toMatchObject({ slot: fork, confirmationStatus: "processed", err: null });
    // and getBlock at confirmed does not serve it (processed is refused, as Agave does)
    expect((await call(net.rpcUrl, "getBlock", [fork, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }])).error?.code).toBe(-32004);
    // and a second drop while this one is pending is refused
    expect(await post("/__localnet/drop-next")).toEqual({ status: 409, json: { error: "a dropped block is already pending" } });

    // When the chain goes on until the confirmed slot passes the fork
    for (let i = 0; i < 20 && (await slotAt("confirmed")) <= fork; i++) await net.advance(1);

    // Then the next block was built on the fork's parent, as slotSubscribe said
    const confirmed = await slotAt("confirmed");
    expect(confirmed).toBeGreaterThan(fork);
    const blocks = (await call(net.rpcUrl, "getBlocks", [json.parentSlot, confirmed, { commitment: "confirmed" }])).result as number[];
    expect(blocks).not.toContain(fork);
    const next = blocks.find((b) => b > fork)!;
    expect((await call(net.rpcUrl, "getBlock", [next, { commitment: "confirmed", maxSupportedTransactionVersion: 0, transactionDetails: "none" }])).result.parentSlot).toBe(json.parentSlot);
    await new Promise((r) => setTimeout(r, 100));
    expect(slots).toContainEqual(expect.objectContaining({ slot: fork, parent: json.parentSlot }));
    expect(slots).toContainEqual(expect.objectContaining({ slot: next, parent: json.parentSlot }));
    // and the fork is gone: no block at confirmed, no transaction, no status; the ledger counts it skipped
    expect((await call(net.rpcUrl, "getBlock", [fork, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }])).error?.code).toBe(-32004);
    expect((await call(net.rpcUrl, "getTransaction", [signature, { commitment: "confirmed", maxSupportedTransactionVersion: 0 }])).result).toBeNull();
    expect((await call(net.rpcUrl, "getSignatureStatuses", [[signature], { searchTransactionHistory: true }])).result.value).toEqual([null]);
    expect(net.ledger.isSkipped(fork)).toBe(true);
    // and the world went on from the state the confirmed chain has: its trades apply without errors
    expect((net.world as unknown as { errors: readonly string[] }).errors.filter((e) => Number(/^slot (\d+)/.exec(e)?.[1]) >= fork)).toEqual([]);
    ws.close();
  }, 60_000);

  it("refuses a malformed or unknown pool, an amount out of range and a bad wait with 400", async () => {
    expect(await post("/__localnet/drop-next?pool=nope")).toEqual({ status: 400, json: { error: "pool must be a base58 address" } });
    const stranger = "11111111111111111111111111111112";
    expect(await post(`/__localnet/drop-next?pool=${stranger}`)).toEqual({ status: 400, json: { error: `no pool or curve ${stranger} that this world trades` } });
    const pool = (await manifest()).tokens.flatMap((t) => t.pools).find((p) => p.kind === "raydium-cpmm")!;
    expect(await post(`/__localnet/drop-next?pool=${pool.address}&sol=0`)).toEqual({ status: 400, json: { error: "sol must be a number from 0.01 to 1000" } });
    expect(await post(`/__localnet/drop-next?pool=${pool.address}&sol=1e3`)).toEqual({ status: 400, json: { error: "sol must be a number from 0.01 to 1000" } });
    expect(await post("/__localnet/drop-next?wait=2")).toEqual({ status: 400, json: { error: "wait must be 0 or 1" } });
  });
});
