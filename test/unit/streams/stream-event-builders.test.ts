/**
 * The chain tail's pure part: one block → the stream events of the topics asked for, on real mainnet transactions
 * (test/fixtures, through test/unit/trades/transaction-fixtures.ts) read by the trade index's own `readBlock`.
 */
import { describe, expect, it } from "vitest";
import { readBlock, type JsonBlock } from "../../../src/trades/block-reading";
import { tradeItemOf, tradeItemSchema } from "../../../src/trades/trade-queries";
import { addressesOf, blockEvents, eventsForRoom, mintsToPrice, priceEvents } from "../../../src/streams/stream-event-builders";
import { streamEventSchema, topicPattern } from "../../../src/streams/stream-events";
import { walletChangesOfBlock } from "../../../src/streams/wallet-changes";
import type { JsonTransaction } from "../../../src/trades/json-transaction";
import { balanceChange, copyOf, loadTransaction, WSOL } from "../trades/transaction-fixtures";

const SLOT = 300_000_000;
const BLOCK_TIME = 1_700_000_000;
// tx-parser's pump.fun create fixture: the creator (fee payer) creates curve CQrqvW… for mint 5dNYcC… and buys in the same transaction
const create = loadTransaction("pumpfun/txparser_pumpfun_create_0.json");
const CREATOR = "6xo262KbDXepWbF3vPTrFXysr5vJwk3mozBXmXk3hmMx";
const MINT = "5dNYcCZXEGfGgbdUdq7MMR7KLsNJLLLgL83wLH8Fpump";
const CURVE = "CQrqvWERJtEjw2rCCQV6EqfM6V6jzTuKjhJjKNFmGB7r";
const CREATOR_ATA = "CBcxvAtecE3kqrr5x6jFbZTfV5DXpUimwkgmLF4ZiSFb";
// and a Raydium AMM v4 swap by someone else
const other = loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json");

function blockOf(...transactions: JsonTransaction[]): { raw: JsonBlock; stored: ReturnType<typeof readBlock> } {
  const raw: JsonBlock = { blockTime: BLOCK_TIME, transactions };
  return { raw, stored: readBlock(SLOT, raw, 150) };
}

describe("blockEvents", () => {
  it("a trade arrives under trade:<baseMint> and trade:<wallet>, as the REST item (one serializer), and under nothing else", () => {
    // Given a block with the create + buy and another venue's swap
    const { raw, stored } = blockOf(other, create);
    const buy = stored.trades.find((t) => t.baseMint === MINT)!;
    // When the topics are the token and its buyer
    const events = blockEvents(stored, raw, new Set([`trade:${MINT}`, `trade:${CREATOR}`]));
    // Then the one trade comes twice, once per topic, with the REST item as data
    expect(events.map((e) => e.topic)).toEqual([`trade:${MINT}`, `trade:${CREATOR}`]);
    for (const e of events) {
      expect(e).toMatchObject({ kind: "trade", slot: SLOT });
      expect(e.data).toEqual(tradeItemOf(buy));
      expect(tradeItemSchema.safeParse(e.data).success).toBe(true);
      expect(streamEventSchema.safeParse(e).success).toBe(true);
    }
    expect(events[0]!.data).toMatchObject({ baseMint: MINT, quoteMint: WSOL, kind: "pumpfun", side: "buy", wallet: CREATOR, blockTime: BLOCK_TIME });
    // and a topic of a mint the block did not trade gives nothing
    expect(blockEvents(stored, raw, new Set(["trade:So11111111111111111111111111111111111111112"]))).toEqual([]);
  });

  it("a pool creation is a newpair with the fee payer as creator and the first trade's price in the block as initial price", () => {
    const { raw, stored } = blockOf(other, create);
    const events = blockEvents(stored, raw, new Set(["newpair"]));
    const buy = stored.trades.find((t) => t.pool === CURVE)!;
    expect(events).toEqual([
      {
        kind: "newpair",
        topic: "newpair",
        slot: SLOT,
        data: { type: "create", mint: MINT, quoteMint: WSOL, pool: CURVE, kind: "pumpfun", creator: CREATOR, initialPrice: buy.priceQuote, signature: create.transaction.signatures[0], slot: SLOT, blockTime: BLOCK_TIME },
      },
    ]);
    expect(create.transaction.message.accountKeys[0]).toBe(CREATOR);
    // Without the swap in the block, no initial price
    const bare = blockOf(create);
    const noTrade = { ...bare.stored, trades: [] };
    expect(blockEvents(noTrade, bare.raw, new Set(["newpair"]))[0]!.data).toMatchObject({ initialPrice: null });
  });

  it("wallet events: the wallet's SOL and token changes in the block, equal to the meta's post − pre", () => {
    const { raw, stored } = blockOf(other, create);
    const events = blockEvents(stored, raw, new Set([`wallet:${CREATOR}`]));
    const sol = events.find((e) => e.kind === "wallet" && e.data.mint === "SOL")!;
    const token = events.find((e) => e.kind === "wallet" && e.data.mint === MINT)!;
    expect(sol.topic).toBe(`wallet:${CREATOR}`);
    expect(BigInt((sol.data as { change: string }).change)).toBe(balanceChange(create, CREATOR, true));
    expect(token.data).toMatchObject({ wallet: CREATOR, pre: "0", change: balanceChange(create, CREATOR_ATA).toString(), decimals: 6, slot: SLOT, blockTime: BLOCK_TIME });
    for (const e of events) expect(streamEventSchema.safeParse(e).success).toBe(true);
  });
});

describe("walletChangesOfBlock", () => {
  it("a failed transaction still moves the fee payer's SOL (its fee): reported, though it has no trade", () => {
    // Given the create transaction as a failed one: the fee was taken, nothing else moved
    const failed = copyOf(create);
    const meta = failed.meta!;
    meta.err = { InstructionError: [0, "Custom"] };
    meta.postBalances = [...meta.preBalances!];
    meta.postBalances[0] = meta.preBalances![0]! - 5000;
    meta.postTokenBalances = meta.preTokenBalances;
    const { stored } = blockOf(failed);
    expect(stored.trades).toEqual([]);
    // Then the payer's fee is its one change
    const changes = walletChangesOfBlock([failed], new Set([CREATOR]), { slot: SLOT, blockTime: null });
    expect(changes).toEqual([
      { wallet: CREATOR, mint: "SOL", pre: String(meta.preBalances![0]), post: String(meta.preBalances![0]! - 5000), change: "-5000", decimals: 9, signature: failed.transaction.signatures[0], slot: SLOT, blockTime: null },
    ]);
  });

  it("sums a wallet's token accounts of one mint; an account opened has no pre entry, a closed one no post entry", () => {
    const tx = copyOf(create);
    const meta = tx.meta!;
    const mk = (accountIndex: number, amount: string) => ({ accountIndex, mint: MINT, owner: "W1111111111111111111111111111111111111111111", uiTokenAmount: { amount, decimals: 6 } });
    meta.preTokenBalances = [mk(1, "100"), mk(2, "50")];
    meta.postTokenBalances = [mk(1, "70"), mk(3, "500")];
    const changes = walletChangesOfBlock([tx], new Set(["W1111111111111111111111111111111111111111111"]), { slot: SLOT, blockTime: null });
    expect(changes.map((c) => [c.mint, c.pre, c.post, c.change])).toEqual([[MINT, "150", "570", "420"]]);
  });

  it("survives hostile input: null transactions, missing metas, non-numeric balances, bad amounts", () => {
    const broken = copyOf(create);
    broken.meta!.preBalances = ["x" as unknown as number];
    broken.meta!.preTokenBalances = [{ accountIndex: 1, mint: MINT, owner: CREATOR, uiTokenAmount: { amount: "-1e9", decimals: 6 } }];
    const noMeta = { ...copyOf(create), meta: null };
    const txs = [null, {}, noMeta, broken] as unknown as JsonTransaction[];
    expect(() => walletChangesOfBlock(txs, new Set([CREATOR]), { slot: SLOT, blockTime: null })).not.toThrow();
  });
});

describe("prices and rooms", () => {
  it("mintsToPrice: each subscribed mint the block traded, as base or quote, once", () => {
    const { stored } = blockOf(other, create, create);
    const untraded = "W1111111111111111111111111111111111111111111";
    expect(mintsToPrice(stored, new Set([`price:${MINT}`, `price:${WSOL}`, `price:${untraded}`])).sort()).toEqual([MINT, WSOL].sort());
    expect(mintsToPrice(stored, new Set([`trade:${MINT}`]))).toEqual([]);
  });

  it("priceEvents names each record's mint as its topic; eventsForRoom keeps a room's topics only, in order", () => {
    const record = { ca: MINT, dex: "pumpfun", priceInSol: "0.1", priceInUsd: "15", marketCap: "1", pool: CURVE, poolType: "bonding-curve", liquidityUsd: "1", quoteMint: WSOL, quotePriceSource: "sol-usd:pyth", slot: SLOT, updatedAt: 1 } as const;
    const prices = priceEvents(SLOT, [record]);
    expect(prices).toEqual([{ kind: "price", topic: `price:${MINT}`, slot: SLOT, data: record }]);
    const { raw, stored } = blockOf(other, create);
    const all = [...blockEvents(stored, raw, new Set([`trade:${MINT}`, `trade:${CREATOR}`, "newpair"])), ...prices];
    expect(eventsForRoom(all, new Set(["newpair", `price:${MINT}`])).map((e) => e.kind)).toEqual(["newpair", "price"]);
    expect(eventsForRoom(all, new Set([`trade:${CREATOR}`])).map((e) => e.topic)).toEqual([`trade:${CREATOR}`]);
  });
});

describe("topics", () => {
  it("accepts newpair and trade:/price:/wallet: with a base58 address; refuses anything else", () => {
    for (const ok of ["newpair", `trade:${MINT}`, `price:${WSOL}`, `wallet:${CREATOR}`, `trade:${"1".repeat(32)}`]) expect(topicPattern.test(ok), ok).toBe(true);
    for (const bad of ["", "newpairs", "trade:", `trade:${MINT}x`.padEnd(60, "x"), `trade:${MINT.replace("5", "0")}`, `swap:${MINT}`, ` trade:${MINT}`, `trade:${"1".repeat(31)}`, `TRADE:${MINT}`]) {
      expect(topicPattern.test(bad), bad).toBe(false);
    }
  });

  it("addressesOf picks the addresses of one kind of topic", () => {
    const topics = ["newpair", `trade:${MINT}`, `wallet:${CREATOR}`, `price:${MINT}`, `wallet:${WSOL}`];
    expect([...addressesOf(topics, "wallet")]).toEqual([CREATOR, WSOL]);
    expect([...addressesOf(topics, "trade")]).toEqual([MINT]);
  });
});
