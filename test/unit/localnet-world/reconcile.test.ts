/**
 * The chain may write fixture accounts over the world's at genesis (`--accounts`, "extra accounts win"). From the first
 * produced slot the world's own versions are back, so balances in its transactions keep matching the ledger.
 */
import { describe, expect, it } from "vitest";
import { TokenWorld } from "../../../localnet/src/world/index.js";
import { FakeLedger } from "./fake-ledger.js";

describe("reconcile after genesis overrides", () => {
  it("puts the world's accounts back on the first slot", () => {
    // Given a world whose vault and wallet accounts were overwritten right after genesis
    const world = new TokenWorld({ seed: 5, metadataBaseUrl: "http://x" });
    const ledger = new FakeLedger();
    world.genesis(ledger.writer());
    const pool = world.manifest().tokens.flatMap((t) => t.pools).find((p) => p.kind === "meteora-damm-v1")!;
    const tokenVault = pool.related.bTokenVault!;
    const original = ledger.accounts.get(tokenVault)!;
    ledger.accounts.set(tokenVault, { ...original, lamports: 1n, data: new Uint8Array(165) });
    const whale = world.manifest().wallets.whales[0]!;
    ledger.accounts.set(whale, { ...ledger.accounts.get(whale)!, lamports: 7n });
    // When a slot is produced
    const before = new Map(ledger.accounts);
    const txs = world.produceSlot(ledger.next());
    // Then the world's versions are in the ledger again, and the slot's first use of them shows the world's balances
    expect(ledger.accounts.get(tokenVault)!.data.subarray(0, 32)).toEqual(original.data.subarray(0, 32));
    expect(ledger.accounts.get(whale)!.lamports).not.toBe(7n);
    expect(before.get(whale)!.lamports).toBe(7n);
    for (const tx of txs) {
      const i = tx.message.accountKeys.indexOf(whale);
      if (i >= 0) expect(tx.meta.preBalances[i]).not.toBe(7n);
    }
  });
});
