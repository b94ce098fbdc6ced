/**
 * The ledger: slots, blocks, commitment levels, versioned accounts and the transaction indexes.
 *
 * - A slot is either produced (a block exists) or skipped (decided by the seed); only produced slots are banks, so
 *   processed/confirmed/finalized always name produced slots: processed = the newest block, confirmed = the one before,
 *   finalized = the newest block at least `finalityDepth` slots behind processed (slot 0 at worst).
 * - Blocks older than `maxBlockSlots` slots are pruned, with their transaction index entries; the skip schedule still
 *   answers for them, as Agave's slot history does.
 * - Accounts are versioned per slot (see AccountStore) and compacted to the finalized slot after each slot's listeners ran.
 * - A dropped block (`dropNext`): the next produced slot's block sits on a fork the cluster abandons. It is the processed
 *   block (getSlot, account reads, slotSubscribe, getSignatureStatuses at processed see it) until the next produced slot,
 *   which builds on its parent instead: the block, its transactions and its account writes are then gone at every
 *   commitment and its slot counts as skipped — it was never confirmed.
 */
import { AccountStore } from "./account-store.js";
import { MAX_PROCESSING_AGE, RENT_EXEMPT_EPOCH, SLOTS_PER_EPOCH } from "./cluster-constants.js";
import { SYSTEM_PROGRAM_ID } from "./program-ids.js";
import { blockhashOf, faucetOf, foundationOf, genesisHashOf, identityOf, isSkippedSlot } from "./slot-schedule.js";
import { COMPUTE_BUDGET_PROGRAM_ID, executeTransaction, type PendingTransaction } from "./transaction-runtime.js";

/** Owner of builtin program accounts. */
const NATIVE_LOADER_ID = "NativeLoader1111111111111111111111111111111";
import { emptySlotHashesData, sysvarAccounts, withSlotHash } from "./sysvars.js";
import type { AccountState, Block, LedgerWriter, Pubkey, Reward, TxRecord, World } from "./types.js";

export type Commitment = "processed" | "confirmed" | "finalized";

export interface CommitmentSlots {
  processed: number;
  confirmed: number;
  finalized: number;
}

/** What listeners (PubSub) learn after every slot, produced or skipped. */
export interface SlotEvent {
  slot: number;
  block: Block | null;
  before: CommitmentSlots;
  after: CommitmentSlots;
  /** the processed block this slot abandoned (`dropNext`), and the accounts it had written */
  dropped?: { slot: number; accounts: Pubkey[] };
}

/** Builds the transactions of a block on a fork the cluster abandons, writing their accounts through `writer`. */
export type ForkContent = (writer: LedgerWriter) => TxRecord[];

/** The fork block being processed: what its building changed, to put back when it is dropped. */
interface LiveFork {
  slot: number;
  slotHashes: Uint8Array;
  epochStartTimestamp: number;
}

export interface LedgerOptions {
  seed: number;
  finalityDepth: number;
  /** Milliseconds per slot used for block times. */
  slotDurationMs: number;
  /** Unix seconds of slot 0. */
  genesisTime: number;
  /** Slots of blocks kept; older blocks are pruned. */
  maxBlockSlots: number;
}

export interface TxLocation {
  block: Block;
  index: number;
}

interface StoredBlock {
  block: Block;
  /** Transactions in this block and all before it (getTransactionCount / getEpochInfo). */
  transactionCount: number;
}

/** (slot, index in block) packed into one number that sorts like the pair: slot < 2^37 and index < 2^16 keep it exact. */
const INDEX_SPAN = 65_536;
const pack = (slot: number, index: number) => slot * INDEX_SPAN + index;
const slotOfPacked = (packed: number) => Math.floor(packed / INDEX_SPAN);

/** Ascending list consumed from the front by pruning without shifting the whole array each time. */
class PrunableList {
  items: number[] = [];
  head = 0;

  dropBelow(limit: number): void {
    while (this.head < this.items.length && this.items[this.head]! < limit) this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.items.length - this.head;
  }
}

/** Index of the first element >= value in items[from..] (ascending). */
function lowerBound(items: number[], from: number, value: number): number {
  let lo = from;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const IDENTITY_GENESIS_LAMPORTS = 500_000_000_000n;
/** The faucet's genesis balance: 500,000,000 SOL (solana-test-validator's default faucet). */
const FAUCET_GENESIS_LAMPORTS = 500_000_000_000_000_000n;
/** The foundation's genesis balance: 50,000,000 SOL, non-circulating. */
const FOUNDATION_GENESIS_LAMPORTS = 50_000_000_000_000_000n;
/** Bounds of one generation of the string intern table (dropped whole when full) and of the log lines worth sharing. */
const MAX_INTERNED = 200_000;
const MAX_INTERNED_LENGTH = 200;

/** What the ledger holds, by kind: each is bounded by the block retention (`maxBlockSlots`). */
export interface RetainedCounts {
  maxBlockSlots: number;
  blocks: number;
  transactions: number;
  signatures: number;
  /** Addresses in the getSignaturesForAddress index, and their entries (one per transaction mentioning them). */
  addresses: number;
  addressEntries: number;
  blockhashes: number;
  /** Shared strings (keys, log lines) of the intern table's two generations. */
  internedStrings: number;
  /** Submitted transactions waiting for the next produced slot. */
  pending: number;
}

/**
 * The world's handle on the slot being built. Copies in and out: the world may reuse buffers, and stored versions must
 * never change under older commitments.
 */
class SlotWriter implements LedgerWriter {
  constructor(
    private readonly accounts: AccountStore,
    readonly slot: number,
    readonly blockTime: number,
    readonly recentBlockhash: string,
  ) {}

  getAccount(pubkey: Pubkey): AccountState | undefined {
    const state = this.accounts.get(pubkey, this.slot);
    return state && { ...state, data: state.data.slice() };
  }

  setAccount(pubkey: Pubkey, state: AccountState): void {
    this.accounts.set(pubkey, this.slot, { ...state, data: state.data.slice() });
  }

  deleteAccount(pubkey: Pubkey): void {
    this.accounts.set(pubkey, this.slot, null);
  }
}

export class Ledger {
  readonly accounts = new AccountStore();
  readonly seed: number;
  readonly genesisHash: string;
  readonly identity: Pubkey;
  /** requestAirdrop's payer. */
  readonly faucet: Pubkey;
  /** The non-circulating accounts getSupply reports (Agave: known foundation / locked addresses and locked stake). */
  readonly nonCirculatingAccounts: readonly Pubkey[];
  readonly finalityDepth: number;
  /** Transactions accepted by sendTransaction / requestAirdrop, executed in the next produced slot. */
  private pending: PendingTransaction[] = [];
  private readonly options: LedgerOptions;
  private readonly blocks = new Map<number, StoredBlock>();
  private readonly produced = new PrunableList();
  private readonly signatureIndex = new Map<string, number>();
  private readonly addressIndex = new Map<Pubkey, PrunableList>();
  private readonly blockhashHeights = new Map<string, number>();
  private readonly listeners: ((event: SlotEvent) => void)[] = [];
  /**
   * The intern table in two generations rotated every `maxBlockSlots` slots: a string no retained block has used for a
   * whole retention span is let go, so the table is bounded by retention rather than by the chain's age.
   */
  private interned = new Map<string, string>();
  private internedBefore = new Map<string, string>();
  private internedSince = 0;
  /** SlotHashes data of the newest bank: its ancestors' (slot, blockhash), newest first. Never mutated once stored. */
  private slotHashes = emptySlotHashesData();
  /** Clock's epoch_start_timestamp: the block time of the first bank of the current epoch. */
  private epochStartTimestamp = 0;
  private slots: CommitmentSlots = { processed: 0, confirmed: 0, finalized: 0 };
  private current = 0;
  /** `dropNext` asked for: the next produced slot is a fork block. */
  private forkRequest: { content: ForkContent; produced: (block: Block) => void } | null = null;
  private fork: LiveFork | null = null;
  /** Slots whose block was dropped (skipped, as far as any reader can tell), while blocks that old are kept. */
  private readonly droppedSlots = new Set<number>();

  constructor(options: LedgerOptions) {
    this.options = options;
    this.seed = options.seed;
    this.finalityDepth = options.finalityDepth;
    this.genesisHash = genesisHashOf(options.seed);
    this.identity = identityOf(options.seed);
    this.faucet = faucetOf(options.seed);
    this.nonCirculatingAccounts = [foundationOf(options.seed)];
  }

  /** Queues a submitted transaction for the next produced slot (a signature already seen is ignored). */
  submit(tx: PendingTransaction): void {
    const signature = tx.signatures[0]!;
    if (this.signatureIndex.has(signature) || this.pending.some((p) => p.signatures[0] === signature)) return;
    this.pending.push(tx);
  }

  /** Writes genesis accounts (the world's, then `extraAccounts`, which win) and block 0. */
  genesis(world: World, extraAccounts: Iterable<[Pubkey, AccountState]> = []): void {
    this.accounts.set(this.identity, 0, {
      lamports: IDENTITY_GENESIS_LAMPORTS,
      owner: SYSTEM_PROGRAM_ID,
      data: new Uint8Array(0),
      executable: false,
      rentEpoch: RENT_EXEMPT_EPOCH,
    });
    this.accounts.set(this.faucet, 0, {
      lamports: FAUCET_GENESIS_LAMPORTS,
      owner: SYSTEM_PROGRAM_ID,
      data: new Uint8Array(0),
      executable: false,
      rentEpoch: RENT_EXEMPT_EPOCH,
    });
    for (const foundation of this.nonCirculatingAccounts) {
      this.accounts.set(foundation, 0, { lamports: FOUNDATION_GENESIS_LAMPORTS, owner: SYSTEM_PROGRAM_ID, data: new Uint8Array(0), executable: false, rentEpoch: RENT_EXEMPT_EPOCH });
    }
    // Builtin program accounts the localnet's transfers use, as on a validator: 1 lamport, executable, the program's name.
    for (const [program, name] of [[SYSTEM_PROGRAM_ID, "system_program"], [COMPUTE_BUDGET_PROGRAM_ID, "compute_budget_program"]] as const) {
      this.accounts.set(program, 0, { lamports: 1n, owner: NATIVE_LOADER_ID, data: new TextEncoder().encode(name), executable: true, rentEpoch: RENT_EXEMPT_EPOCH });
    }
    this.epochStartTimestamp = this.options.genesisTime;
    this.writeSysvars(0, this.options.genesisTime, true);
    const fixtures = new Map(extraAccounts);
    world.adopt?.(fixtures);
    world.genesis(this.writerFor(0, this.genesisHash));
    for (const [pubkey, state] of fixtures) this.accounts.set(pubkey, 0, state);
    this.store({
      slot: 0,
      parentSlot: 0,
      blockhash: this.genesisHash,
      previousBlockhash: "11111111111111111111111111111111",
      blockTime: this.options.genesisTime,
      blockHeight: 0,
      transactions: [],
      rewards: [],
    });
  }

  onSlot(listener: (event: SlotEvent) => void): void {
    this.listeners.push(listener);
  }

  /** The newest slot advanced through, produced or skipped. */
  get currentSlot(): number {
    return this.current;
  }

  get commitments(): CommitmentSlots {
    return { ...this.slots };
  }

  slotAt(commitment: Commitment): number {
    return this.slots[commitment];
  }

  /**
   * The next produced slot's block goes on a fork the cluster abandons (see the header): `content` makes its
   * transactions. Settles with that block once it is produced. A string says why not (one fork at a time).
   */
  dropNext(content: ForkContent): Promise<Block> | string {
    if (this.forkRequest || this.fork) return "a dropped block is already pending";
    return new Promise((produced) => {
      this.forkRequest = { content, produced };
    });
  }

  /** The slot of the fork block being processed (it will be dropped), if any. */
  get pendingDrop(): number | undefined {
    return this.fork?.slot;
  }

  /** Advances one slot: builds its block with the world unless the seed skips it, then notifies listeners. */
  advance(world: World): SlotEvent {
    const slot = ++this.current;
    const before = this.commitments;
    let block: Block | null = null;
    let dropped: SlotEvent["dropped"];
    let forked: ((block: Block) => void) | undefined;
    if (!isSkippedSlot(this.seed, slot)) {
      // A fork block is abandoned by the next block, which builds on the fork's parent.
      if (this.fork) dropped = this.dropFork();
      const request = this.forkRequest;
      this.forkRequest = null;
      if (request) {
        this.fork = { slot, slotHashes: this.slotHashes, epochStartTimestamp: this.epochStartTimestamp };
        block = this.buildBlock(slot, request.content, false);
        forked = request.produced;
      } else {
        block = this.buildBlock(slot, (writer) => world.produceSlot(writer), true);
      }
      this.store(block);
    }
    this.slots = this.commitmentsAfter();
    this.prune(world);
    this.rotateInterned();
    const event: SlotEvent = { slot, block, before, after: this.commitments, ...(dropped ? { dropped } : {}) };
    if (block && forked) forked(block);
    for (const listener of this.listeners) listener(event);
    this.accounts.compact(this.slots.finalized);
    return event;
  }

  /**
   * Block time of a slot being produced: the slot schedule, but never behind the wall clock nor the parent block, as on a
   * real cluster — so in manual mode a slot produced after a pause carries the current time (and a fresh oracle update).
   */
  blockTimeOf(slot: number): number {
    const scheduled = this.options.genesisTime + Math.floor((slot * this.options.slotDurationMs) / 1000);
    const parent = this.blocks.get(this.slots.processed)?.block.blockTime ?? 0;
    return Math.max(scheduled, parent, Math.floor(Date.now() / 1000));
  }

  getBlock(slot: number): Block | undefined {
    return this.blocks.get(slot)?.block;
  }

  isSkipped(slot: number): boolean {
    return isSkippedSlot(this.seed, slot) || this.droppedSlots.has(slot);
  }

  /** Lowest slot whose block is still stored. */
  get firstAvailableBlock(): number {
    return this.produced.items[this.produced.head] ?? 0;
  }

  /** Produced slots in [from, to], ascending. */
  producedSlots(from: number, to: number): number[] {
    const { items, head } = this.produced;
    const out: number[] = [];
    for (let i = lowerBound(items, head, from); i < items.length && items[i]! <= to; i++) out.push(items[i]!);
    return out;
  }

  transactionCountAt(slot: number): number {
    return this.blocks.get(slot)?.transactionCount ?? 0;
  }

  findTransaction(signature: string): TxLocation | undefined {
    const packed = this.signatureIndex.get(signature);
    if (packed === undefined) return undefined;
    const block = this.blocks.get(slotOfPacked(packed))?.block;
    return block && { block, index: packed % INDEX_SPAN };
  }

  /**
   * Transactions mentioning `address` in slots <= `highestSlot`, newest first (slot, then position in block, descending).
   * `before` unknown → nothing (as Agave); `until` stops the walk at that transaction's position.
   */
  signaturesForAddress(address: Pubkey, highestSlot: number, before: string | undefined, until: string | undefined, limit: number): TxLocation[] {
    const list = this.addressIndex.get(address);
    if (!list) return [];
    let end = lowerBound(list.items, list.head, pack(highestSlot + 1, 0));
    if (before !== undefined) {
      const beforePacked = this.signatureIndex.get(before);
      if (beforePacked === undefined) return [];
      end = Math.min(end, lowerBound(list.items, list.head, beforePacked));
    }
    const untilPacked = until === undefined ? undefined : this.signatureIndex.get(until);
    const out: TxLocation[] = [];
    for (let i = end - 1; i >= list.head && out.length < limit; i--) {
      const packed = list.items[i]!;
      // `until` marks a position in the ledger, whether or not that transaction mentions the address.
      if (untilPacked !== undefined && packed <= untilPacked) break;
      const block = this.blocks.get(slotOfPacked(packed))?.block;
      if (block) out.push({ block, index: packed % INDEX_SPAN });
    }
    return out;
  }

  /** Agave `is_blockhash_valid`: produced at most MAX_PROCESSING_AGE blocks before the bank at `slot`. */
  isBlockhashValid(blockhash: string, slot: number): boolean {
    const height = this.blockhashHeights.get(blockhash);
    const bankHeight = this.getBlock(slot)?.blockHeight;
    return height !== undefined && bankHeight !== undefined && height <= bankHeight && bankHeight - height <= MAX_PROCESSING_AGE;
  }

  private writerFor(slot: number, recentBlockhash: string): LedgerWriter {
    return new SlotWriter(this.accounts, slot, this.blockTimeOf(slot), recentBlockhash);
  }

  /** A block built on the processed one: `content` makes the transactions (`pending`: then the submitted ones run too). */
  private buildBlock(slot: number, content: ForkContent, pending: boolean): Block {
    const parent = this.blocks.get(this.slots.processed)!.block;
    const blockTime = this.blockTimeOf(slot);
    // The bank's sysvars first (the world may read the Clock): its parent joins SlotHashes.
    this.slotHashes = withSlotHash(this.slotHashes, parent.slot, parent.blockhash);
    const newEpoch = Math.floor(slot / SLOTS_PER_EPOCH) > Math.floor(parent.slot / SLOTS_PER_EPOCH);
    if (newEpoch) this.epochStartTimestamp = blockTime;
    this.writeSysvars(slot, blockTime, newEpoch);
    let transactions: TxRecord[] = [];
    try {
      transactions = content(new SlotWriter(this.accounts, slot, blockTime, parent.blockhash));
    } catch (err) {
      // A world bug must not stop the chain: the slot still gets an (empty) block.
      console.error(`[localnet] producing slot ${slot} failed:`, err);
    }
    // Submitted transactions wait for a block of the chain that stays (a fork block does not take them).
    if (pending) transactions = [...transactions, ...this.executePending(slot)];
    return {
      slot,
      parentSlot: parent.slot,
      blockhash: blockhashOf(this.seed, slot),
      previousBlockhash: parent.blockhash,
      blockTime,
      blockHeight: parent.blockHeight + 1,
      transactions,
      rewards: this.collectFees(slot, transactions),
    };
  }

  /**
   * Runs the queued submitted transactions at `slot`, after the world's; those that cannot pay their fee (or meet state
   * the runtime does not model) are dropped.
   */
  private executePending(slot: number): TxRecord[] {
    const out: TxRecord[] = [];
    for (const tx of this.pending.splice(0)) {
      const outcome = executeTransaction(tx, (pubkey) => this.accounts.get(pubkey, slot));
      if (outcome.kind !== "executed") continue;
      for (const [pubkey, state] of outcome.writes) this.accounts.set(pubkey, slot, state);
      out.push(outcome.record);
    }
    return out;
  }

  /** Clock and SlotHashes of the bank at `slot`; with `all`, Rent, EpochSchedule and StakeHistory too. */
  private writeSysvars(slot: number, unixTimestamp: number, all: boolean): void {
    const epoch = Math.floor(slot / SLOTS_PER_EPOCH);
    const clock = { slot, epochStartTimestamp: this.epochStartTimestamp, epoch, leaderScheduleEpoch: epoch + 1, unixTimestamp };
    for (const [pubkey, state] of sysvarAccounts(clock, this.slotHashes, all)) this.accounts.set(pubkey, slot, state);
  }

  /** Half of the fees go to the leader (the other half is burned), as a "fee" reward credited to the identity. */
  private collectFees(slot: number, transactions: TxRecord[]): Reward[] {
    let fees = 0n;
    for (const tx of transactions) fees += tx.meta.fee;
    const reward = fees / 2n;
    if (reward === 0n) return [];
    const identity = this.accounts.get(this.identity, slot)!;
    const postBalance = identity.lamports + reward;
    this.accounts.set(this.identity, slot, { ...identity, lamports: postBalance });
    return [{ pubkey: this.identity, lamports: reward, postBalance, rewardType: "fee", commission: null }];
  }

  /**
   * Abandons the fork block (the processed one, the newest of everything the ledger holds): its block, its index
   * entries and its account writes go; SlotHashes and the epoch start are those of its parent again.
   */
  private dropFork(): NonNullable<SlotEvent["dropped"]> {
    const fork = this.fork!;
    this.fork = null;
    const { slot } = fork;
    const stored = this.blocks.get(slot);
    if (stored) {
      this.blocks.delete(slot);
      this.blockhashHeights.delete(stored.block.blockhash);
      if (this.produced.items[this.produced.items.length - 1] === slot) this.produced.items.pop();
      const from = pack(slot, 0);
      for (const tx of stored.block.transactions) {
        if (tx.signatures[0]) this.signatureIndex.delete(tx.signatures[0]);
        for (const key of tx.message.accountKeys) {
          const list = this.addressIndex.get(key);
          if (!list) continue;
          while (list.length > 0 && list.items[list.items.length - 1]! >= from) list.items.pop();
          if (list.length === 0) this.addressIndex.delete(key);
        }
      }
    }
    const accounts = this.accounts.dropSlot(slot);
    this.slotHashes = fork.slotHashes;
    this.epochStartTimestamp = fork.epochStartTimestamp;
    this.droppedSlots.add(slot);
    this.slots = this.commitmentsAfter();
    return { slot, accounts };
  }

  private store(block: Block): void {
    for (const tx of block.transactions) this.internStrings(tx);
    const previousCount = this.blocks.get(this.slots.processed)?.transactionCount ?? 0;
    this.blocks.set(block.slot, { block, transactionCount: previousCount + block.transactions.length });
    this.produced.items.push(block.slot);
    this.blockhashHeights.set(block.blockhash, block.blockHeight);
    block.transactions.forEach((tx, index) => {
      const packed = pack(block.slot, index);
      if (tx.signatures[0]) this.signatureIndex.set(tx.signatures[0], packed);
      for (const key of new Set(tx.message.accountKeys)) {
        let list = this.addressIndex.get(key);
        if (!list) this.addressIndex.set(key, (list = new PrunableList()));
        list.items.push(packed);
      }
    });
    this.slots.processed = block.slot;
  }

  /**
   * Swaps a stored transaction's keys and log lines for shared copies of equal strings: the same programs, pools and
   * log texts recur in every block, and kept blocks are most of the localnet's memory.
   */
  private internStrings(tx: TxRecord): void {
    const keys = tx.message.accountKeys;
    for (let i = 0; i < keys.length; i++) keys[i] = this.intern(keys[i]!);
    const logs = tx.meta.logMessages;
    for (let i = 0; i < logs.length; i++) if (logs[i]!.length <= MAX_INTERNED_LENGTH) logs[i] = this.intern(logs[i]!);
  }

  private intern(text: string): string {
    const shared = this.interned.get(text);
    if (shared !== undefined) return shared;
    const kept = this.internedBefore.get(text) ?? text;
    if (this.interned.size >= MAX_INTERNED) this.interned.clear();
    this.interned.set(kept, kept);
    return kept;
  }

  /** Starts a new intern generation once a retention span has passed since the last one. */
  private rotateInterned(): void {
    if (this.current - this.internedSince < this.options.maxBlockSlots) return;
    this.internedBefore = this.interned;
    this.interned = new Map();
    this.internedSince = this.current;
  }

  /** Sizes of everything the ledger keeps per block or per transaction (the admin memory route and tests read them). */
  retained(): RetainedCounts {
    let transactions = 0;
    for (const { block } of this.blocks.values()) transactions += block.transactions.length;
    let addressEntries = 0;
    for (const list of this.addressIndex.values()) addressEntries += list.length;
    return {
      maxBlockSlots: this.options.maxBlockSlots,
      blocks: this.blocks.size,
      transactions,
      signatures: this.signatureIndex.size,
      addresses: this.addressIndex.size,
      addressEntries,
      blockhashes: this.blockhashHeights.size,
      internedStrings: this.interned.size + this.internedBefore.size,
      pending: this.pending.length,
    };
  }

  private commitmentsAfter(): CommitmentSlots {
    const { items, head } = this.produced;
    const processed = items[items.length - 1]!;
    const finalizedTarget = Math.max(0, processed - this.finalityDepth);
    const finalizedIndex = Math.max(head, lowerBound(items, head, finalizedTarget + 1) - 1);
    const finalized = Math.min(items[finalizedIndex] ?? 0, processed);
    const confirmed = Math.max(finalized, items[items.length - 2] ?? processed);
    return { processed, confirmed, finalized: Math.max(finalized, this.slots.finalized) };
  }

  private prune(world: World): void {
    const keepFrom = this.current - this.options.maxBlockSlots + 1;
    // Never prune at or above the finalized block: every commitment level must keep its bank.
    const limit = Math.min(keepFrom, this.slots.finalized);
    const { items } = this.produced;
    while (this.produced.head < items.length && items[this.produced.head]! < limit) {
      const slot = items[this.produced.head]!;
      this.produced.head++;
      const stored = this.blocks.get(slot);
      if (!stored) continue;
      this.blocks.delete(slot);
      this.blockhashHeights.delete(stored.block.blockhash);
      for (const tx of stored.block.transactions) {
        if (tx.signatures[0]) this.signatureIndex.delete(tx.signatures[0]);
        for (const key of tx.message.accountKeys) {
          const list = this.addressIndex.get(key);
          if (!list) continue;
          list.dropBelow(pack(limit, 0));
          if (list.length === 0) this.addressIndex.delete(key);
        }
      }
    }
    this.produced.dropBelow(limit);
    for (const slot of this.droppedSlots) if (slot < limit) this.droppedSlots.delete(slot);
    world.prune?.(limit);
  }
}
