/**
 * The chain with the real token world (`createWorld`, the default): every block's transactions, as the world builds them
 * (swaps with inner instructions, token balances, v0 messages), must pass web3.js's strict response validation in every
 * encoding, and every token of the manifest must read back through both clients.
 */
import { address, createSolanaRpc } from "@solana/kit";
import { Connection, PublicKey, type ParsedAccountData } from "@solana/web3.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorldManifest } from "../../localnet/src/world/manifest.js";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import { call } from "./helpers/local-chain.js";

let net: Localnet;
let manifest: WorldManifest;
let connection: Connection;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 5, finalityDepth: 4 });
  await net.advance(40);
  manifest = (await (await fetch(`${net.rpcUrl}/__localnet/world`)).json()) as WorldManifest;
  connection = new Connection(net.rpcUrl, { commitment: "confirmed", wsEndpoint: net.wsUrl });
}, 60_000);

afterAll(() => net.close());

describe("real world", () => {
  it("every finalized block reads through web3's getBlock and getParsedBlock, and kit's base64 getBlock", async () => {
    const rpc = createSolanaRpc(net.rpcUrl);
    const slots = await connection.getBlocks(1, net.ledger.slotAt("finalized"));
    let transactions = 0;
    for (const slot of slots) {
      const block = await connection.getBlock(slot, { maxSupportedTransactionVersion: 0 });
      const parsed = await connection.getParsedBlock(slot, { maxSupportedTransactionVersion: 0, transactionDetails: "full" });
      const binary = await rpc.getBlock(BigInt(slot), { encoding: "base64", maxSupportedTransactionVersion: 0 }).send();
      expect(parsed.transactions).toHaveLength(block!.transactions.length);
      expect(binary!.transactions).toHaveLength(block!.transactions.length);
      transactions += block!.transactions.length;
    }
    expect(transactions).toBeGreaterThan(0);
  }, 60_000);

  it("every transaction reads through web3's getTransaction / getParsedTransaction by signature", async () => {
    const slot = (await connection.getBlocks(1, net.ledger.slotAt("confirmed"))).at(-1)!;
    const { signatures } = await connection.getBlockSignatures(slot, "confirmed");
    for (const signature of signatures) {
      const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
      const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
      expect(tx!.slot).toBe(slot);
      expect(parsed!.transaction.signatures[0]).toBe(signature);
    }
  });

  it("every token's mint parses (spl-token or spl-token-2022), its supply and largest holders read through both clients", async () => {
    const rpc = createSolanaRpc(net.rpcUrl);
    expect(manifest.tokens.length).toBeGreaterThan(0);
    for (const token of manifest.tokens) {
      const info = await connection.getParsedAccountInfo(new PublicKey(token.mint));
      const data = info.value!.data as ParsedAccountData;
      expect(data.program).toBe(token.tokenProgram === "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" ? "spl-token-2022" : "spl-token");
      expect(data.parsed.info.decimals).toBe(token.decimals);
      const supply = await rpc.getTokenSupply(address(token.mint)).send();
      expect(supply.value.decimals).toBe(token.decimals);
      const largest = await connection.getTokenLargestAccounts(new PublicKey(token.mint));
      const amounts = largest.value.map((a) => BigInt(a.amount));
      expect([...amounts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(amounts);
    }
  }, 60_000);

  it("every pool account of the manifest exists and is owned by a program; getMultipleAccounts reads them in one call", async () => {
    const pools = manifest.tokens.flatMap((t) => t.pools.map((p) => p.address)).slice(0, 100);
    const { result } = await call(net.rpcUrl, "getMultipleAccounts", [pools, { encoding: "base64" }]);
    expect(result.value).toHaveLength(pools.length);
    for (const account of result.value) expect(account?.owner).toBeTruthy();
  });
});
