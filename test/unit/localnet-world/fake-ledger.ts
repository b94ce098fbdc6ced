/** An in-memory LedgerWriter for world tests: one map of accounts, a clock, blockhashes derived from the slot. */
import type { AccountState, LedgerWriter, Pubkey } from "../../../localnet/src/chain/types.js";

export class FakeLedger {
  readonly accounts = new Map<Pubkey, AccountState>();
  slot = 0;
  blockTime = 1_763_000_000;
  writes = 0;

  writer(): LedgerWriter {
    const self = this;
    return {
      slot: this.slot,
      blockTime: this.blockTime,
      recentBlockhash: `${"1".repeat(12)}${this.slot.toString().padStart(8, "1")}`.replace(/0/g, "2"),
      getAccount: (pubkey) => self.accounts.get(pubkey),
      setAccount: (pubkey, state) => {
        self.writes++;
        self.accounts.set(pubkey, { ...state, data: state.data.slice() });
      },
      deleteAccount: (pubkey) => {
        self.accounts.delete(pubkey);
      },
    };
  }

  next(): LedgerWriter {
    this.slot += 1;
    this.blockTime += this.slot % 5 === 0 ? 1 : 0;
    return this.writer();
  }
}
