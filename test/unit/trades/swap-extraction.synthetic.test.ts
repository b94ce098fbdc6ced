/**
 * Synthetic cases, each built by editing a real fixture's JSON in the test (the edit is stated where it is made):
 * failed transactions, one pool swapped twice, and malformed input.
 */
import { getBase58Decoder, getBase58Encoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import type { JsonInstruction, JsonTransaction } from "../../../src/trades/json-transaction";
import { extractTrades } from "../../../src/trades/swap-extraction";
import { at, copyOf, loadTransaction, resolvedKeys, WSOL } from "./transaction-fixtures";

const base58 = getBase58Decoder();
const bytesOf = (text: string) => new Uint8Array(getBase58Encoder().encode(text));

/** SPL Token Transfer data: tag 3, amount u64 LE. */
function tokenTransferData(amount: bigint): string {
  const data = new Uint8Array(9);
  data[0] = 3;
  new DataView(data.buffer).setBigUint64(1, amount, true);
  return base58.decode(data);
}

/** Adds `delta` to the post token balance of `account` (keeps the meta consistent with an added instruction). */
function addToPostTokenBalance(tx: JsonTransaction, account: string, delta: bigint): void {
  const index = resolvedKeys(tx).indexOf(account);
  const entry = tx.meta!.postTokenBalances!.find((b) => b.accountIndex === index)!;
  entry.uiTokenAmount.amount = (BigInt(entry.uiTokenAmount.amount) + delta).toString();
}

/** Appends a copy of top-level instruction `index` with its inner instructions, edited by `edit`, as the last instruction. */
function appendCopyOfInstruction(tx: JsonTransaction, index: number, edit: (inner: JsonInstruction[]) => void): void {
  const message = tx.transaction.message;
  const inner = copyOf(tx.meta!.innerInstructions!.find((g) => g.index === index)!.instructions);
  edit(inner);
  message.instructions.push(copyOf(message.instructions[index]!));
  tx.meta!.innerInstructions!.push({ index: message.instructions.length - 1, instructions: inner });
}

/**
 * One transaction doing what `a` and then `b` did (both without address-table keys): b's keys appended to a's, its
 * instructions, inner instructions and balances re-indexed after a's. Stands for a route through two pools.
 */
function concatenated(a: JsonTransaction, b: JsonTransaction): JsonTransaction {
  const tx = copyOf(a);
  const offset = a.transaction.message.accountKeys.length;
  const shift = (ix: JsonInstruction): JsonInstruction => ({ ...ix, programIdIndex: ix.programIdIndex + offset, accounts: ix.accounts.map((i) => i + offset) });
  const topOffset = tx.transaction.message.instructions.length;
  tx.transaction.message.accountKeys.push(...b.transaction.message.accountKeys);
  tx.transaction.message.instructions.push(...b.transaction.message.instructions.map(shift));
  const meta = tx.meta!;
  const other = b.meta!;
  meta.innerInstructions!.push(...other.innerInstructions!.map((g) => ({ index: g.index + topOffset, instructions: g.instructions.map(shift) })));
  meta.preBalances!.push(...other.preBalances!);
  meta.postBalances!.push(...other.postBalances!);
  meta.preTokenBalances!.push(...other.preTokenBalances!.map((t) => ({ ...t, accountIndex: t.accountIndex + offset })));
  meta.postTokenBalances!.push(...other.postTokenBalances!.map((t) => ({ ...t, accountIndex: t.accountIndex + offset })));
  return tx;
}

/**
 * Makes `key` the transaction's second signer: inserted at index 1 of the account keys (signers come first), every
 * account index at or after it shifted by one, its lamport balances 0 → 0. Returns its index (1).
 */
function addSecondSigner(tx: JsonTransaction, key: string): number {
  const message = tx.transaction.message;
  const shift = (i: number) => (i >= 1 ? i + 1 : i);
  const reindex = (ix: JsonInstruction): JsonInstruction => ({ ...ix, programIdIndex: shift(ix.programIdIndex), accounts: ix.accounts.map(shift) });
  message.accountKeys.splice(1, 0, key);
  message.header!.numRequiredSignatures += 1;
  message.instructions = message.instructions.map(reindex);
  const meta = tx.meta!;
  meta.innerInstructions = meta.innerInstructions!.map((g) => ({ ...g, instructions: g.instructions.map(reindex) }));
  meta.preBalances!.splice(1, 0, 0);
  meta.postBalances!.splice(1, 0, 0);
  for (const b of [...meta.preTokenBalances!, ...meta.postTokenBalances!]) b.accountIndex = shift(b.accountIndex);
  return 1;
}

describe("extractTrades on edited real transactions", () => {
  it("a transaction through two pools gives one swap per pool, in execution order, each as its own transaction gave it", () => {
    // Given the AMM v4 buy 54MFrVcf and the DLMM swap 2DfsmTYv joined into one transaction (AMM v4 first)
    const amm = loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json");
    const dlmm = loadTransaction("meteora-dlmm/vixen_2DfsmTYv_rpcjson.json");
    // When extracted
    const { swaps } = extractTrades(concatenated(amm, dlmm), at);
    // Then two swaps, ordinals 0 and 1, with the pools and amounts each transaction gives alone
    const alone = [...extractTrades(amm, at).swaps, ...extractTrades(dlmm, at).swaps];
    const fields = (s: (typeof swaps)[number]) => [s.pool, s.kind, s.baseMint, s.quoteMint, s.side, s.baseAmount, s.quoteAmount];
    expect(swaps.map(fields)).toEqual(alone.map(fields));
    expect(swaps.map((s) => s.ordinal)).toEqual([0, 1]);
  });


  it("a failed transaction (meta.err set) gives no swap and no event", () => {
    // Given the pump.fun create + buy transaction, edited: meta.err = InstructionError
    const tx = copyOf(loadTransaction("pumpfun/txparser_pumpfun_create_0.json"));
    expect(extractTrades(tx, at).swaps).toHaveLength(1);
    tx.meta!.err = { InstructionError: [3, { Custom: 6001 }] };
    // When extracted / Then nothing
    expect(extractTrades(tx, at)).toEqual({ swaps: [], events: [], pools: [] });
  });

  it("one AMM v4 pool swapped twice in a transaction gives two swaps, each with its own amounts, in order", () => {
    // Given the AMM v4 buy 54MFrVcf, edited: its swap_base_in (instruction 2) repeated as a last instruction whose CPI
    // transfers move 1000 lamports of wSOL in and 400 tokens out; the meta's post balances moved accordingly
    const tx = copyOf(loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json"));
    appendCopyOfInstruction(tx, 2, (inner) => {
      inner[0]!.data = tokenTransferData(1000n); // user wSOL → pc vault 3dFDpJ
      inner[1]!.data = tokenTransferData(400n); // coin vault 52wPGM → user
    });
    addToPostTokenBalance(tx, "3dFDpJ6hih3KP8hbADKdGG8H1mb4QySmVKypruvdv6To", 1000n);
    addToPostTokenBalance(tx, "52wPGMAnLNQnrbvWVTd81TVdFYG9YzgUbPNSPcsBGWDV", -400n);
    // When extracted
    const { swaps } = extractTrades(tx, at);
    // Then two buys on the pool: the original amounts (the transfers in the first swap's subtree) and the edited ones
    expect(swaps.map((s) => [s.pool, s.ordinal, s.side, s.baseAmount, s.quoteAmount])).toEqual([
      ["E2LhpiJdbHx6Fbz2zGAcbbrbMPkn88TpMHP4g236oBZi", 0, "buy", 12795559n, 32508133n],
      ["E2LhpiJdbHx6Fbz2zGAcbbrbMPkn88TpMHP4g236oBZi", 1, "buy", 400n, 1000n],
    ]);
  });

  it("two signers swapping on one pool in one transaction: each swap's wallet is the user its instruction names, not the fee payer", () => {
    // Given the AMM v4 buy 54MFrVcf (its swap_base_in names the fee payer as user_owner, its last account),
    // edited: a second signer added, and the swap repeated as a last instruction whose user_owner is that signer,
    // its CPI transfers moving 1000 lamports of wSOL in and 400 tokens out (post balances moved accordingly). No mainnet
    // capture of two signers swapping one pool is in test/fixtures: this one is built from the real instruction shape.
    const tx = copyOf(loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json"));
    const payer = tx.transaction.message.accountKeys[0]!;
    const second = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU";
    const secondIndex = addSecondSigner(tx, second);
    appendCopyOfInstruction(tx, 2, (inner) => {
      inner[0]!.data = tokenTransferData(1000n);
      inner[1]!.data = tokenTransferData(400n);
    });
    const copy = tx.transaction.message.instructions.at(-1)!;
    copy.accounts[copy.accounts.length - 1] = secondIndex;
    addToPostTokenBalance(tx, "3dFDpJ6hih3KP8hbADKdGG8H1mb4QySmVKypruvdv6To", 1000n);
    addToPostTokenBalance(tx, "52wPGMAnLNQnrbvWVTd81TVdFYG9YzgUbPNSPcsBGWDV", -400n);
    // When extracted
    const { swaps } = extractTrades(tx, at);
    // Then two buys with their own amounts, the first the fee payer's, the second the second signer's
    expect(swaps.map((s) => [s.ordinal, s.side, s.baseAmount, s.quoteAmount, s.wallet])).toEqual([
      [0, "buy", 12795559n, 32508133n, payer],
      [1, "buy", 400n, 1000n, second],
    ]);
  });

  it("a swap whose user is no signer of the transaction (a router's account, signed by CPI) is the fee payer's", () => {
    // Given the DLMM swap 2DfsmTYv, edited: its user (position 10) replaced by an account nobody signed for
    const tx = copyOf(loadTransaction("meteora-dlmm/vixen_2DfsmTYv_rpcjson.json"));
    const keys = resolvedKeys(tx);
    const swap = [...tx.transaction.message.instructions, ...tx.meta!.innerInstructions!.flatMap((g) => g.instructions)].find(
      (ix) => keys[ix.programIdIndex] === "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo" && ix.accounts.length >= 15,
    )!;
    const signers = tx.transaction.message.header!.numRequiredSignatures;
    const unsigned = keys.findIndex((k, i) => i >= signers && k !== keys[swap.accounts[10]!]);
    swap.accounts[10] = unsigned;
    // When extracted / Then its wallet is the fee payer
    expect(extractTrades(tx, at).swaps.map((s) => s.wallet)).toEqual([keys[0]]);
  });

  it("one pump.fun curve sold into twice: each sell's SOL is its own TradeEvent's (the curve pays out without a CPI)", () => {
    // Given tx-parser's pump sell (asserts sol_out 37437283903), edited: the sell repeated as a last instruction whose
    // token transfer moves 1 000 000 tokens and whose TradeEvent self-CPI says sol_amount 5000 (bytes 48..56)
    const tx = copyOf(loadTransaction("pumpfun/txparser_pumpfun_sell_0.json"));
    appendCopyOfInstruction(tx, 3, (inner) => {
      inner[0]!.data = tokenTransferData(1_000_000n);
      const event = bytesOf(inner[1]!.data);
      new DataView(event.buffer).setBigUint64(48, 5000n, true);
      inner[1]!.data = base58.decode(event);
    });
    addToPostTokenBalance(tx, "DPRZquLKK921awahujH9AbzpfonDHC2xYJnz8WSAvw5Y", 1_000_000n);
    const curve = resolvedKeys(tx).indexOf("6cSXbsWdUE86Nvwq8UZSQS8X8v4Rz3TP39V6gSb9Rg6f");
    tx.meta!.postBalances![curve]! -= 5000;
    // When extracted / Then two sells with their own amounts, the first as the source asserts
    expect(extractTrades(tx, at).swaps.map((s) => [s.ordinal, s.side, s.baseAmount, s.quoteAmount])).toEqual([
      [0, "sell", 592443959000000n, 37437283903n],
      [1, "sell", 1_000_000n, 5000n],
    ]);
  });

  it("a CPI'd swap recorded without stackHeight (older transactions) still gives its amounts", () => {
    // Given the PumpSwap sell CPI'd at stack height 2 by another program (5gtu6ARV), edited: every stackHeight removed
    const original = loadTransaction("pumpswap/vixen_5gtu6ARV_rpcjson.json");
    const tx = copyOf(original);
    for (const group of tx.meta!.innerInstructions!) for (const ix of group.instructions) delete ix.stackHeight;
    // When extracted / Then the same swap as with the nesting known
    expect(extractTrades(tx, at)).toEqual(extractTrades(original, at));
    expect(extractTrades(tx, at).swaps).toHaveLength(1);
  });

  it("a reserve whose balance did not move gives no swap (never a zero amount)", () => {
    // Given the AMM v4 buy, edited: the coin vault's post balance set back to its pre balance
    const tx = copyOf(loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json"));
    const index = resolvedKeys(tx).indexOf("52wPGMAnLNQnrbvWVTd81TVdFYG9YzgUbPNSPcsBGWDV");
    const pre = tx.meta!.preTokenBalances!.find((b) => b.accountIndex === index)!;
    tx.meta!.postTokenBalances!.find((b) => b.accountIndex === index)!.uiTokenAmount.amount = pre.uiTokenAmount.amount;
    expect(extractTrades(tx, at).swaps).toEqual([]);
  });

  it("a pool whose two reserves both gained gives no swap (never a negative amount)", () => {
    // Given the AMM v4 buy, edited: the coin vault's post balance raised above its pre balance
    const tx = copyOf(loadTransaction("raydium-amm-v4/vixen_54MFrVcf_rpcjson.json"));
    addToPostTokenBalance(tx, "52wPGMAnLNQnrbvWVTd81TVdFYG9YzgUbPNSPcsBGWDV", 100_000_000n);
    expect(extractTrades(tx, at).swaps).toEqual([]);
  });
});

describe("extractTrades never throws on malformed input", () => {
  const dbc = () => copyOf(loadTransaction("meteora-dbc/vixen_23BXcBmn_rpcjson.json"));
  const swapOf = (tx: JsonTransaction) => tx.transaction.message.instructions[3]!;

  it("truncated swap instruction data: that instruction is skipped", () => {
    // Given the DBC swap, edited: its data cut to its first 3 base58 characters
    const tx = dbc();
    swapOf(tx).data = swapOf(tx).data.slice(0, 3);
    expect(extractTrades(tx, at)).toEqual({ swaps: [], events: [], pools: [] });
  });

  it("an account index out of range: that instruction is skipped", () => {
    // Given the DBC swap, edited: its quote vault's account index set to 999
    const tx = dbc();
    swapOf(tx).accounts[6] = 999;
    expect(extractTrades(tx, at)).toEqual({ swaps: [], events: [], pools: [] });
  });

  it("data that is not base58: that instruction is skipped", () => {
    const tx = dbc();
    swapOf(tx).data = "0OIl not base58";
    expect(extractTrades(tx, at)).toEqual({ swaps: [], events: [], pools: [] });
  });

  it("missing meta, missing message, or not an object: nothing", () => {
    const tx = dbc();
    const broken: unknown[] = [
      { ...tx, meta: null },
      { ...tx, meta: undefined },
      { ...tx, transaction: {} },
      { ...tx, transaction: { signatures: [], message: { accountKeys: null, instructions: [] } } },
      null,
      42,
      "tx",
      {},
    ];
    for (const b of broken) expect(extractTrades(b as JsonTransaction, at)).toEqual({ swaps: [], events: [], pools: [] });
  });

  it("garbage in the meta's lists and balances: no throw, and no swap built on them", () => {
    const cases: ((tx: JsonTransaction) => void)[] = [
      (tx) => (tx.meta!.innerInstructions = [null, { index: "x" }, { index: 3, instructions: "y" }] as never),
      (tx) => (tx.meta!.preTokenBalances = [{ accountIndex: 4, mint: "m", uiTokenAmount: { amount: "12abc", decimals: 6 } }] as never),
      (tx) => (tx.meta!.postTokenBalances = [null, 7, { accountIndex: 4 }] as never),
      (tx) => (tx.meta!.preBalances = null),
      (tx) => (tx.meta!.loadedAddresses = { writable: 5, readonly: null } as never),
      (tx) => (tx.transaction.message.instructions = [null, { programIdIndex: "__proto__", accounts: "abc", data: 7 }] as never),
      (tx) => (swapOf(tx).accounts = [-1, 1.5, NaN] as never),
    ];
    for (const edit of cases) {
      const tx = dbc();
      edit(tx);
      const { swaps } = extractTrades(tx, at);
      for (const s of swaps) {
        expect(s.baseAmount).toBeGreaterThan(0n);
        expect(s.quoteAmount).toBeGreaterThan(0n);
      }
    }
  });
});

/**
 * Graduations. No fixture in test/fixtures holds a completion event, so each case takes a real swap and appends,
 * inside the swap's CPI subtree, the self-CPI event the program emits when the swap completes its curve, its bytes built
 * field by field from the official IDL (Anchor: EVENT_IX_TAG e445a52e51cb9a1d ‖ sha256("event:<Name>")[0..8] ‖ borsh).
 */
describe("graduation events (real swaps, edited: the completion event their program emits appended)", () => {
  const EVENT_IX_TAG = "e445a52e51cb9a1d";
  const hex = (text: string) => new Uint8Array(text.match(/../g)!.map((b) => parseInt(b, 16)));
  const address = (text: string) => bytesOf(text);
  const u64 = (value: bigint) => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, value, true);
    return bytes;
  };
  const concat = (...parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) out.set(p, (at += p.length) - p.length);
    return out;
  };

  /** The event as the program's self-CPI after `afterIndex` of top-level `top`'s inner list (same program, same event authority). */
  function insertSelfCpiEvent(tx: JsonTransaction, top: number, afterIndex: number, like: number, event: Uint8Array): void {
    const inner = tx.meta!.innerInstructions!.find((g) => g.index === top)!.instructions;
    inner.splice(afterIndex + 1, 0, { ...copyOf(inner[like]!), data: base58.decode(event) });
  }

  // pump IDL (pump-fun/pump-public-docs @1b822158): CompleteEvent { user, mint, bonding_curve, timestamp i64, quote_mint }
  const PUMP_COMPLETE = EVENT_IX_TAG + "5f72619cd42e9808";
  const PUMP_CURVE = "DzEuwnKqiZxfZgeo7MjpZ3FWfZzt5ERRzjkNpx856Ram";
  const PUMP_MINT = "4eLCXkNbDw2bvdrZZVn1cXurtL63H4z9ZfbYCY17pump";
  const PUMP_USER = "FwjYcbfktK8PC2bzCrqxR6QkUPxmHFbcFGNrz3YAV7ft";
  const PUMP_GLOBAL = "4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf";
  /** vixen 22K6ixTV: a router (instruction 4) CPIs the pump buy (inner 0, stack height 2); its TradeEvent is inner 6 (height 3). */
  const pumpBuy = () => copyOf(loadTransaction("pumpfun/vixen_22K6ixTV_rpcjson.json"));
  const pumpComplete = (curve: string, withQuoteMint: boolean) =>
    concat(
      hex(PUMP_COMPLETE),
      address(PUMP_USER), // user @16
      address(PUMP_MINT), // mint @48
      address(curve), // bonding_curve @80
      u64(1_700_000_000n), // timestamp @112
      ...(withQuoteMint ? [address(WSOL)] : []), // quote_mint @120 (since the USDC-paired coins; absent before: 120 B)
    );

  it("pump.fun: the buy whose subtree carries a CompleteEvent of its curve graduates the curve (152 B and the older 120 B event)", () => {
    for (const withQuoteMint of [true, false]) {
      // Given the CPI'd pump buy, edited: a CompleteEvent of its curve appended after its TradeEvent (stack height 3)
      const tx = pumpBuy();
      insertSelfCpiEvent(tx, 4, 6, 6, pumpComplete(PUMP_CURVE, withQuoteMint));
      // When extracted
      const { swaps, events } = extractTrades(tx, at);
      // Then the buy is unchanged and the curve graduated, with the pair and the related accounts its pricer reads
      expect(swaps.map((s) => [s.pool, s.side])).toEqual([[PUMP_CURVE, "buy"]]);
      expect(events).toMatchObject([
        { ordinal: 0, type: "graduate", kind: "pump-bonding-curve", pool: PUMP_CURVE, baseMint: PUMP_MINT, quoteMint: WSOL, related: { global: PUMP_GLOBAL } },
      ]);
    }
  });

  it("pump.fun: a CompleteEvent of another curve, or one outside the buy's subtree, graduates nothing", () => {
    // Given the CPI'd pump buy, edited: a CompleteEvent naming another curve (the user's key) inside the buy
    const other = pumpBuy();
    insertSelfCpiEvent(other, 4, 6, 6, pumpComplete(PUMP_USER, true));
    expect(extractTrades(other, at).events).toEqual([]);
    // Given the same buy, edited: the curve's CompleteEvent as a top-level instruction after the router's
    const outside = pumpBuy();
    const event = outside.meta!.innerInstructions!.find((g) => g.index === 4)!.instructions[6]!;
    outside.transaction.message.instructions.push({ ...copyOf(event), data: base58.decode(pumpComplete(PUMP_CURVE, true)), stackHeight: 1 });
    expect(extractTrades(outside, at).events).toEqual([]);
  });

  // dynamic_bonding_curve IDL 0.1.10 (MeteoraAg/dynamic-bonding-curve-sdk @ce9afb7): EvtCurveComplete { pool, config,
  // base_reserve u64, quote_reserve u64 }
  const DBC_COMPLETE = EVENT_IX_TAG + "e5e756549c864b18";
  const DBC_POOL = "CQLuGpgxg5qmuw5BnHCG8zHquKn3jxXuVrgSLYGBk48t";
  const DBC_CONFIG = "GydFpD4ERr8kR3UA8VKH8getkcgmzLpfF1EFwgXENnN4";
  const dbcComplete = (pool: string) =>
    concat(
      hex(DBC_COMPLETE),
      address(pool), // pool @16
      address(DBC_CONFIG), // config @48
      u64(793_100_000_000_000n), // base_reserve @80
      u64(85_000_000_000n), // quote_reserve @88
    );

  it("Meteora DBC: the swap whose subtree carries EvtCurveComplete of its pool graduates the pool", () => {
    // Given the DBC swap 23BXcBmn (top-level 3; its two transfers, then its EvtSwap events, inner 2 and 3), edited: an
    // EvtCurveComplete of its pool appended after the events, as the program emits it when the quote threshold is reached
    const tx = copyOf(loadTransaction("meteora-dbc/vixen_23BXcBmn_rpcjson.json"));
    insertSelfCpiEvent(tx, 3, 3, 3, dbcComplete(DBC_POOL));
    // When extracted / Then the swap stays and the pool graduated, with its config (what its pricer reads)
    const { swaps, events } = extractTrades(tx, at);
    expect(swaps.map((s) => s.pool)).toEqual([DBC_POOL]);
    expect(events).toMatchObject([
      { type: "graduate", kind: "meteora-dbc", pool: DBC_POOL, baseMint: "EeXMYKCMjVLU1PrjAi4o2fMpC37h9RpuU3y7k4WHBQN9", quoteMint: WSOL, related: { config: DBC_CONFIG } },
    ]);
    // And an EvtCurveComplete of another pool in the same place graduates nothing
    const other = copyOf(loadTransaction("meteora-dbc/vixen_23BXcBmn_rpcjson.json"));
    insertSelfCpiEvent(other, 3, 3, 3, dbcComplete(DBC_CONFIG));
    expect(extractTrades(other, at).events).toEqual([]);
  });
});
