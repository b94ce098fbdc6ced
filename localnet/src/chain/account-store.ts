/**
 * Accounts versioned by slot: a read at slot S sees the newest version written at or before S, so each commitment level
 * reads its own state. Versions older than the finalized one are dropped as finality advances (`compact`), so memory is
 * bounded by the number of accounts plus the writes of the unfinalized slots.
 *
 * Secondary indexes (by program owner, and token accounts by token owner / mint, like Agave's account indexes) may hold
 * keys that no longer match at a given slot; readers re-check the state they read.
 */
import { decodeBase58 } from "./base58.js";
import { isTokenProgram } from "./program-ids.js";
import type { AccountState, Pubkey } from "./types.js";

interface Version {
  slot: number;
  state: AccountState | null; // null = deleted
  /** Index keys of `state`, computed once at write time. */
  keys: IndexKeys | null;
}

/** Index keys one version contributes; token keys are the 32 raw bytes as a latin1 string. */
interface IndexKeys {
  owner: Pubkey;
  tokenOwner?: string;
  tokenMint?: string;
}

const TOKEN_ACCOUNT_LENGTH = 165;
const MULTISIG_LENGTH = 355;
const ACCOUNT_TYPE_ACCOUNT = 2;

/** Token account layout per spl-token / Token-2022 (`StateWithExtensions<Account>`): 165 bytes, or longer with type byte 2. */
export function hasTokenAccountLayout(data: Uint8Array): boolean {
  if (data.length === TOKEN_ACCOUNT_LENGTH) return true;
  return data.length > TOKEN_ACCOUNT_LENGTH && data.length !== MULTISIG_LENGTH && data[TOKEN_ACCOUNT_LENGTH] === ACCOUNT_TYPE_ACCOUNT;
}

export function rawKey(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

function indexKeysOf(state: AccountState): IndexKeys {
  if (!isTokenProgram(state.owner) || !hasTokenAccountLayout(state.data)) return { owner: state.owner };
  return { owner: state.owner, tokenMint: rawKey(state.data.subarray(0, 32)), tokenOwner: rawKey(state.data.subarray(32, 64)) };
}

function addTo<K>(index: Map<K, Set<Pubkey>>, key: K, pubkey: Pubkey): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(pubkey);
}

function removeFrom<K>(index: Map<K, Set<Pubkey>>, key: K, pubkey: Pubkey): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(pubkey);
  if (set.size === 0) index.delete(key);
}

export class AccountStore {
  private readonly histories = new Map<Pubkey, Version[]>();
  private readonly byOwner = new Map<Pubkey, Set<Pubkey>>();
  private readonly byTokenOwner = new Map<string, Set<Pubkey>>();
  private readonly byTokenMint = new Map<string, Set<Pubkey>>();
  private readonly writesBySlot = new Map<number, Set<Pubkey>>();
  /** Raw bytes of every key seen, as latin1, for Agave's byte-order sorting of scan results. */
  private readonly sortKeys = new Map<Pubkey, string>();

  get(pubkey: Pubkey, slot: number): AccountState | undefined {
    return this.visible(pubkey, slot)?.state ?? undefined;
  }

  /** Slot of the version visible at `slot` (a deletion counts), or undefined when the account never existed by then. */
  modifiedSlot(pubkey: Pubkey, slot: number): number | undefined {
    return this.visible(pubkey, slot)?.slot;
  }

  set(pubkey: Pubkey, slot: number, state: AccountState | null): void {
    let history = this.histories.get(pubkey);
    if (!history) {
      if (state === null) return;
      this.histories.set(pubkey, (history = []));
    }
    const last = history[history.length - 1];
    if (last && last.slot > slot) throw new Error(`account ${pubkey} written at slot ${slot} after slot ${last.slot}`);
    const keys = state && indexKeysOf(state);
    if (last && last.slot === slot) {
      // A rewrite within the slot replaces the version; index keys it alone had are left for compaction to judge.
      last.state = state;
      last.keys = keys ?? last.keys;
    } else {
      history.push({ slot, state, keys });
    }
    if (keys) this.index(pubkey, keys);
    let writes = this.writesBySlot.get(slot);
    if (!writes) this.writesBySlot.set(slot, (writes = new Set()));
    writes.add(pubkey);
  }

  /**
   * Forgets every version written at `slot`, the newest slot written (a block on a fork the cluster abandoned): reads at
   * any slot then see what they saw before it. Index entries it added are left (readers re-check the state they read).
   * Returns the keys it had written.
   */
  dropSlot(slot: number): Pubkey[] {
    const written = [...(this.writesBySlot.get(slot) ?? [])];
    for (const pubkey of written) {
      const history = this.histories.get(pubkey);
      if (!history || history[history.length - 1]?.slot !== slot) continue;
      history.pop();
      if (history.length === 0) {
        this.histories.delete(pubkey);
        this.sortKeys.delete(pubkey);
      }
    }
    this.writesBySlot.delete(slot);
    return written;
  }

  /** Keys written in `slot`, kept until that slot is compacted (PubSub uses them to find changed accounts). */
  writtenAt(slot: number): ReadonlySet<Pubkey> | undefined {
    return this.writesBySlot.get(slot);
  }

  /** Accounts owned by `owner` at `slot`, sorted by raw key bytes like Agave's sorted scans. */
  ownedBy(owner: Pubkey, slot: number): [Pubkey, AccountState][] {
    return this.collect(this.byOwner.get(owner), slot, (state) => state.owner === owner);
  }

  /** Token accounts (either token program) whose token owner is `ownerBytes`, at `slot`, sorted. */
  tokenAccountsByOwner(ownerBytes: Uint8Array, slot: number): [Pubkey, AccountState][] {
    const key = rawKey(ownerBytes);
    return this.collect(this.byTokenOwner.get(key), slot, (state) => indexKeysOf(state).tokenOwner === key);
  }

  /** Token accounts (either token program) of mint `mintBytes`, at `slot`, sorted. */
  tokenAccountsByMint(mintBytes: Uint8Array, slot: number): [Pubkey, AccountState][] {
    const key = rawKey(mintBytes);
    return this.collect(this.byTokenMint.get(key), slot, (state) => indexKeysOf(state).tokenMint === key);
  }

  /** Every live account at `slot` (getSupply sums lamports over them). */
  *all(slot: number): Generator<[Pubkey, AccountState]> {
    for (const pubkey of this.histories.keys()) {
      const state = this.get(pubkey, slot);
      if (state) yield [pubkey, state];
    }
  }

  /**
   * Drops versions no commitment level can see any more: for each key written at or before `finalizedSlot`, everything
   * older than its newest version at or before that slot. Index entries left only by dropped versions go too.
   */
  compact(finalizedSlot: number): void {
    const slots = [...this.writesBySlot.keys()].filter((slot) => slot <= finalizedSlot).sort((a, b) => a - b);
    for (const slot of slots) {
      for (const pubkey of this.writesBySlot.get(slot)!) this.compactOne(pubkey, finalizedSlot);
      this.writesBySlot.delete(slot);
    }
  }

  private compactOne(pubkey: Pubkey, finalizedSlot: number): void {
    const history = this.histories.get(pubkey);
    if (!history) return;
    let base = -1;
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i]!.slot <= finalizedSlot) {
        base = i;
        break;
      }
    }
    if (base < 0) return;
    // Reads never go below the finalized slot, so a deletion as the base version needs no marker either.
    const dropCount = history[base]!.state === null ? base + 1 : base;
    if (dropCount === 0) return;
    const dropped = history.splice(0, dropCount);
    if (history.length === 0) {
      this.histories.delete(pubkey);
      this.sortKeys.delete(pubkey);
    }
    const live = history.flatMap((v) => (v.state && v.keys ? [v.keys] : []));
    for (const { keys: gone } of dropped) {
      if (!gone) continue;
      if (!live.some((k) => k.owner === gone.owner)) removeFrom(this.byOwner, gone.owner, pubkey);
      if (gone.tokenOwner !== undefined && !live.some((k) => k.tokenOwner === gone.tokenOwner)) {
        removeFrom(this.byTokenOwner, gone.tokenOwner, pubkey);
      }
      if (gone.tokenMint !== undefined && !live.some((k) => k.tokenMint === gone.tokenMint)) {
        removeFrom(this.byTokenMint, gone.tokenMint, pubkey);
      }
    }
  }

  private visible(pubkey: Pubkey, slot: number): Version | undefined {
    const history = this.histories.get(pubkey);
    if (!history) return undefined;
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i]!.slot <= slot) return history[i];
    }
    return undefined;
  }

  private index(pubkey: Pubkey, keys: IndexKeys): void {
    addTo(this.byOwner, keys.owner, pubkey);
    if (keys.tokenOwner !== undefined) addTo(this.byTokenOwner, keys.tokenOwner, pubkey);
    if (keys.tokenMint !== undefined) addTo(this.byTokenMint, keys.tokenMint, pubkey);
  }

  private collect(candidates: Set<Pubkey> | undefined, slot: number, matches: (state: AccountState) => boolean): [Pubkey, AccountState][] {
    if (!candidates) return [];
    const found: [Pubkey, AccountState][] = [];
    for (const pubkey of candidates) {
      const state = this.get(pubkey, slot);
      if (state && matches(state)) found.push([pubkey, state]);
    }
    return found.sort(([a], [b]) => {
      const ka = this.sortKey(a);
      const kb = this.sortKey(b);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  }

  private sortKey(pubkey: Pubkey): string {
    let key = this.sortKeys.get(pubkey);
    if (key === undefined) {
      const bytes = decodeBase58(pubkey);
      key = bytes instanceof Uint8Array ? rawKey(bytes) : pubkey;
      this.sortKeys.set(pubkey, key);
    }
    return key;
  }
}
