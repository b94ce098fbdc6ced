/**
 * The ledger on its own: the seed's determinism, commitment levels, per-slot account versions, compaction, block
 * pruning with its indexes, fee rewards, and a world that throws.
 */
import { describe, expect, it } from "vitest";
import { Ledger, type LedgerOptions } from "../../localnet/src/chain/ledger.js";
import type { TxRecord, World } from "../../localnet/src/chain/types.js";
import { createTinyWorld, keyOf, SYSTEM_PROGRAM } from "./helpers/tiny-world.js";

function ledgerWith(world: World, options: Partial<LedgerOptions> = {}): Ledger {
  const ledger = new Ledger({ seed: 11, finalityDepth: 32, slotDurationMs: 400, genesisTime: 1_700_000_000, maxBlockSlots: 20_000, ...options });
  ledger.genesis(world);
  return ledger;
}

function run(ledger: Ledger, world: World, slots: number): void {
  for (let i = 0; i < slots; i++) ledger.advance(world);
}

describe("seed", () => {
  it("decides skipped slots and blockhashes: same seed, same chain; another seed, another chain", () => {
    const [a, b] = [createTinyWorld(), createTinyWorld()];
    const [la, lb] = [ledgerWith(a), ledgerWith(b)];
    run(la, a, 200);
    run(lb, b, 200);
    expect(la.producedSlots(0, 200)).toEqual(lb.producedSlots(0, 200));
    expect(la.getBlock(150)?.blockhash).toBe(lb.getBlock(150)?.blockhash);
    const skipped = Array.from({ length: 200 }, (_, s) => s).filter((s) => la.isSkipped(s));
    expect(skipped.length).toBeGreaterThan(3);
    expect(skipped.length).toBeLessThan(25); // ~5%
    const other = new Ledger({ seed: 12, finalityDepth: 32, slotDurationMs: 400, genesisTime: 0, maxBlockSlots: 100 });
    expect(other.genesisHash).not.toBe(la.genesisHash);
    expect(other.identity).not.toBe(la.identity);
  });

  it("links blocks: parentSlot skips skipped slots, previousBlockhash is the parent's, heights count blocks", () => {
    const world = createTinyWorld();
    const ledger = ledgerWith(world);
    run(ledger, world, 70);
    const block = ledger.getBlock(60)!; // seed 11 skips 58 and 59
    expect(block.parentSlot).toBe(57);
    expect(block.previousBlockhash).toBe(ledger.getBlock(57)!.blockhash);
    expect(block.blockHeight).toBe(ledger.producedSlots(1, 60).length);
    expect(ledger.getBlock(58)).toBeUndefined();
  });

  it("times blocks by the slot schedule, but never behind the parent block or the wall clock", () => {
    const world = createTinyWorld();
    const future = Math.floor(Date.now() / 1000) + 1_000_000;
    const scheduled = ledgerWith(world, { genesisTime: future });
    run(scheduled, world, 70);
    expect(scheduled.getBlock(60)!.blockTime).toBe(future + 24); // 60 slots × 400 ms
    const past = ledgerWith(world, { genesisTime: 1_700_000_000 });
    run(past, world, 10);
    const now = Math.floor(Date.now() / 1000);
    const times = past.producedSlots(1, 10).map((slot) => past.getBlock(slot)!.blockTime);
    expect(times.every((t) => t >= now - 1 && t <= now + 1)).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe("commitment", () => {
  it("processed is the newest block, confirmed the one before, finalized the newest at least finalityDepth behind", () => {
    const world = createTinyWorld();
    const ledger = ledgerWith(world);
    run(ledger, world, 100);
    const produced = ledger.producedSlots(0, 100);
    const { processed, confirmed, finalized } = ledger.commitments;
    expect(processed).toBe(produced.at(-1));
    expect(confirmed).toBe(produced.at(-2));
    expect(finalized).toBe(produced.filter((s) => s <= processed - 32).at(-1));
  });

  it("each level reads the account state of its own slot, even after versions are compacted", () => {
    const world = createTinyWorld();
    const ledger = ledgerWith(world);
    run(ledger, world, 100);
    const amountAt = (level: "processed" | "confirmed" | "finalized") =>
      Buffer.from(ledger.accounts.get(world.keys.aliceToken, ledger.slotAt(level))!.data).readBigUInt64LE(64);
    const transfers = (from: number, to: number) =>
      ledger.producedSlots(from, to).reduce((sum, slot) => sum + 1_000n + BigInt(slot % 97), 0n);
    const { processed, confirmed, finalized } = ledger.commitments;
    expect(amountAt("processed")).toBe(1_000_000_000n - transfers(1, processed));
    expect(amountAt("confirmed")).toBe(1_000_000_000n - transfers(1, confirmed));
    expect(amountAt("finalized")).toBe(1_000_000_000n - transfers(1, finalized));
    expect(ledger.accounts.modifiedSlot(world.keys.aliceToken, finalized)).toBe(finalized);
  });

  it("a deletion is seen at processed first and reaches finalized later", () => {
    const victim = keyOf("short-lived");
    const world: World = {
      genesis: (l) => l.setAccount(victim, { lamports: 5n, owner: SYSTEM_PROGRAM, data: new Uint8Array(0), executable: false, rentEpoch: 0n }),
      produceSlot: (l) => {
        if (l.slot === 10) l.deleteAccount(victim);
        return [];
      },
      manifest: () => ({ seed: 0, tokens: [], wellKnown: {}, wallets: { whales: [], delegates: [] } }),
      http: () => undefined,
    };
    const ledger = ledgerWith(world, { finalityDepth: 5 });
    run(ledger, world, 12);
    expect(ledger.accounts.get(victim, ledger.slotAt("processed"))).toBeUndefined();
    expect(ledger.accounts.get(victim, ledger.slotAt("finalized"))?.lamports).toBe(5n);
    run(ledger, world, 10);
    expect(ledger.accounts.get(victim, ledger.slotAt("finalized"))).toBeUndefined();
    expect(ledger.accounts.modifiedSlot(victim, ledger.slotAt("finalized"))).toBeUndefined();
  });
});

describe("pruning and indexes", () => {
  it("keeps maxBlockSlots of blocks and drops the pruned transactions from the signature and address indexes", () => {
    const world = createTinyWorld();
    const ledger = ledgerWith(world, { maxBlockSlots: 50, finalityDepth: 4 });
    run(ledger, world, 200);
    expect(ledger.firstAvailableBlock).toBeGreaterThan(140);
    expect(ledger.getBlock(100)).toBeUndefined();
    const old = world.produced[10]!.signatures[0]!;
    expect(ledger.findTransaction(old)).toBeUndefined();
    const recent = world.produced.at(-1)!.signatures[0]!;
    expect(ledger.findTransaction(recent)?.block.slot).toBe(ledger.slotAt("processed"));
    const history = ledger.signaturesForAddress(world.keys.alice, ledger.slotAt("processed"), undefined, undefined, 1000);
    expect(history.length).toBe(ledger.producedSlots(ledger.firstAvailableBlock, ledger.slotAt("processed")).length);
    expect(history.every(({ block }) => block.slot >= ledger.firstAvailableBlock)).toBe(true);
  });

  it("pays half of each block's fees to the node identity as a Fee reward", () => {
    const world = createTinyWorld(2);
    const ledger = ledgerWith(world);
    run(ledger, world, 3);
    const block = ledger.getBlock(ledger.slotAt("processed"))!;
    expect(block.rewards).toEqual([{ pubkey: ledger.identity, lamports: 5_000n, postBalance: expect.any(BigInt), rewardType: "fee", commission: null }]);
    expect(ledger.accounts.get(ledger.identity, block.slot)!.lamports).toBe(block.rewards[0]!.postBalance);
  });

  it("keeps producing (empty) blocks when the world throws", () => {
    let calls = 0;
    const world: World = {
      genesis: () => undefined,
      produceSlot: (): TxRecord[] => {
        calls++;
        throw new Error("world bug");
      },
      manifest: () => ({ seed: 0, tokens: [], wellKnown: {}, wallets: { whales: [], delegates: [] } }),
      http: () => undefined,
    };
    const ledger = ledgerWith(world);
    const quiet = console.error;
    console.error = () => undefined;
    try {
      run(ledger, world, 5);
    } finally {
      console.error = quiet;
    }
    expect(calls).toBeGreaterThan(0);
    expect(ledger.getBlock(ledger.slotAt("processed"))!.transactions).toEqual([]);
  });
});
