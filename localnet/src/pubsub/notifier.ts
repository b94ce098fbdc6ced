/**
 * Turns each slot the ledger advances through into PubSub notifications, as Agave's rpc_subscriptions does:
 * - slotNotification `{parent, root, slot}` for every new block;
 * - for each commitment level whose slot moved, the newly committed blocks feed account, program, logs and signature
 *   subscriptions at that level: an account notifies once per move when it changed since it last notified (with its
 *   state at the new commitment slot, `context.slot` = that slot); a program notifies every changed account it owns
 *   that passes the filters; logs and signatures notify per transaction with the transaction's slot as context;
 * - rootNotification when the finalized slot moves;
 * - a dropped processed block (Ledger.dropNext): processed account subscriptions it had notified notify again with the
 *   state of the block that replaced it (the state they were sent is on no chain any more).
 */
import type { Commitment, Ledger, SlotEvent } from "../chain/ledger.js";
import { SYSTEM_PROGRAM_ID } from "../chain/program-ids.js";
import type { AccountState } from "../chain/types.js";
import { matchesFilters } from "../rpc/methods/program-account-filters.js";
import { RpcError } from "../rpc/rpc-error.js";
import { encodeAccount, type RpcContext } from "../rpc/rpc-context.js";
import { uiAccount, type AccountEncoding, type DataSlice } from "../rpc/encoding/account-encoding.js";
import type { Subscription, SubscriptionRegistry } from "./subscriptions.js";

const LEVELS: Commitment[] = ["processed", "confirmed", "finalized"];

/** What Agave sends when a subscribed account disappears: the default account. */
const DELETED_ACCOUNT: AccountState = { lamports: 0n, owner: SYSTEM_PROGRAM_ID, data: new Uint8Array(0), executable: false, rentEpoch: 0n };

export class Notifier {
  constructor(
    private readonly ctx: RpcContext,
    private readonly registry: SubscriptionRegistry,
  ) {}

  private get ledger(): Ledger {
    return this.ctx.ledger;
  }

  /** PubSub encodes without the RPC size check: Agave's `UiAccount::encode` puts a placeholder in too-long base58 data. */
  accountJson(slot: number, state: AccountState, encoding: AccountEncoding, slice: DataSlice | undefined): unknown {
    try {
      return encodeAccount(this.ctx, slot, state, encoding, slice);
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      const text = "error: data too large for bs58 encoding";
      return uiAccount(state, encoding === "binary" ? text : [text, encoding]);
    }
  }

  /** Starting point of a new account subscription: only later changes notify. */
  accountBaseline(pubkey: string, commitment: Commitment): number {
    return this.ledger.accounts.modifiedSlot(pubkey, this.ledger.slotAt(commitment)) ?? -1;
  }

  onSlot(event: SlotEvent): void {
    if (event.block) {
      const result = { parent: event.block.parentSlot, root: event.after.finalized, slot: event.slot };
      for (const sub of this.registry.ofKind("slot")) sub.send("slotNotification", result);
    }
    if (event.dropped) {
      // A processed subscription that was told of the dropped block's state is told the state of the block that
      // replaced it (the version it saw is gone): its account notifies again at the new processed slot.
      const written = new Set(event.dropped.accounts);
      for (const sub of this.registry.ofKind("account")) {
        if (sub.commitment === "processed" && sub.lastNotified >= event.dropped.slot && written.has(sub.pubkey)) sub.lastNotified = -1;
      }
    }
    for (const level of LEVELS) {
      const from = event.before[level];
      const to = event.after[level];
      if (to === from) continue;
      const newlyCommitted = this.ledger.producedSlots(from + 1, to);
      this.notifyAccounts(level, to);
      this.notifyPrograms(level, to, newlyCommitted);
      this.notifyTransactions(level, newlyCommitted);
    }
    if (event.after.finalized !== event.before.finalized) {
      for (const sub of this.registry.ofKind("root")) sub.send("rootNotification", event.after.finalized);
    }
  }

  private notifyAccounts(level: Commitment, slot: number): void {
    for (const sub of this.registry.ofKind("account")) {
      if (sub.commitment !== level) continue;
      const modified = this.ledger.accounts.modifiedSlot(sub.pubkey, slot);
      if (modified === undefined || modified <= sub.lastNotified) continue;
      sub.lastNotified = modified;
      const state = this.ledger.accounts.get(sub.pubkey, slot) ?? DELETED_ACCOUNT;
      sub.send("accountNotification", { context: { slot }, value: this.accountJson(slot, state, sub.encoding, sub.dataSlice) });
    }
  }

  private notifyPrograms(level: Commitment, slot: number, newlyCommitted: number[]): void {
    const subs = [...this.registry.ofKind("program")].filter((sub) => sub.commitment === level);
    if (subs.length === 0) return;
    const changed = new Set<string>();
    for (const s of newlyCommitted) for (const pubkey of this.ledger.accounts.writtenAt(s) ?? []) changed.add(pubkey);
    for (const pubkey of changed) {
      const state = this.ledger.accounts.get(pubkey, slot);
      if (!state) continue;
      for (const sub of subs) {
        if (state.owner !== sub.programId || !matchesFilters(state, sub.filters)) continue;
        sub.send("programNotification", {
          context: { slot },
          value: { pubkey, account: this.accountJson(slot, state, sub.encoding, sub.dataSlice) },
        });
      }
    }
  }

  private notifyTransactions(level: Commitment, newlyCommitted: number[]): void {
    const logs = [...this.registry.ofKind("logs")].filter((sub) => sub.commitment === level);
    const signatures = [...this.registry.ofKind("signature")].filter((sub) => sub.commitment === level);
    if (logs.length === 0 && signatures.length === 0) return;
    for (const slot of newlyCommitted) {
      const block = this.ledger.getBlock(slot);
      if (!block) continue;
      for (const tx of block.transactions) {
        const signature = tx.signatures[0]!;
        for (const sub of logs) {
          if (sub.mentions !== undefined && !tx.message.accountKeys.includes(sub.mentions)) continue;
          sub.send("logsNotification", { context: { slot }, value: { signature, err: tx.meta.err, logs: tx.meta.logMessages } });
        }
        for (const sub of signatures) {
          if (sub.signature === signature) this.notifySignature(sub, slot, tx.meta.err);
        }
      }
    }
  }

  /** Signature subscriptions end with their one notification. */
  notifySignature(sub: Subscription, slot: number, err: unknown): void {
    this.registry.remove(sub.id);
    sub.send("signatureNotification", { context: { slot }, value: { err } });
  }
}
