/**
 * The token world as the ledger sees it (`World`): builds every account at construction (genesis.ts, deterministic from
 * the seed), replays them into the ledger at genesis, produces a slot's worth of swaps, launches and migrations on each
 * `produceSlot` (slot-production.ts) and reports itself (manifest.ts). The state they share is world-state.ts.
 */
import type { AccountState, HttpReply, LedgerWriter, Pubkey, TxRecord, World, WorldRequest } from "../chain/types.js";
import { buildGenesis, writeGenesis } from "./genesis.js";
import { worldManifest, worldPoolPrice, type WorldManifest } from "./manifest.js";
import { SlotProducer, type TradeLogEntry } from "./slot-production.js";
import type { TradeRecord } from "./swap-truth.js";
import { metaplexMetadataAddress } from "./venues/pumpfun.js";
import { WorldState } from "./world-state.js";

export interface WorldOptions {
  seed: number;
  metadataBaseUrl: string;
}

export class TokenWorld implements World {
  private readonly state: WorldState;
  private readonly slots: SlotProducer;
  private genesisWritten = false;

  constructor(readonly options: WorldOptions) {
    this.state = new WorldState(options.seed, options.metadataBaseUrl);
    buildGenesis(this.state);
    this.slots = new SlotProducer(this.state);
  }

  /** Transactions dropped because applying them failed (a world bug; kept for tests and diagnostics). */
  get errors(): readonly string[] {
    return this.slots.errors;
  }

  /** The latest trades with the pool price (quote atoms per base atom) before and after, for tests and diagnostics. */
  get tradeLog(): readonly TradeLogEntry[] {
    return this.slots.tradeLog;
  }

  /** The swaps of slots `from`..`to` (inclusive) as the chain executed them (`GET /__localnet/trades`). */
  trades(from: number, to: number): TradeRecord[] {
    return this.slots.truth.between(from, to);
  }

  /** The next `slots` produced slots are mainnet-sized blocks (heavy-slot.ts). */
  heavySlots(slots: number): void {
    this.slots.heavy.request(slots);
  }

  /** The next produced slot creates a new pool of `kind` (`POST /__localnet/launch`), or why not. */
  launchPool(kind: string): WorldRequest | string {
    return this.slots.requested.launch(kind);
  }

  /** The next produced slot buys out `mint`'s bonding curve, or any near-graduation one (`POST /__localnet/graduate`). */
  graduateCurve(mint: string | undefined): WorldRequest | string {
    return this.slots.requested.graduate(mint);
  }

  /** The chain pruned the blocks below `slot`: their trades go too. */
  prune(slot: number): void {
    this.slots.truth.dropBelow(slot);
  }

  adopt(fixtures: ReadonlyMap<Pubkey, AccountState>): void {
    this.state.dammV1.adoptVaults(fixtures);
  }

  genesis(ledger: LedgerWriter): void {
    writeGenesis(this.state, ledger);
    this.genesisWritten = true;
  }

  produceSlot(ledger: LedgerWriter): TxRecord[] {
    if (!this.genesisWritten) throw new Error("produceSlot before genesis");
    return this.slots.produce(ledger);
  }

  manifest(): WorldManifest {
    return worldManifest(this.state);
  }

  /** Metaplex metadata PDA of a mint. */
  metadataAddress(mint: Pubkey): Pubkey {
    return metaplexMetadataAddress(mint);
  }

  /** The world's own price of a pool or curve (quote atoms per base atom), for tests. */
  priceOf(address: Pubkey): number {
    return worldPoolPrice(this.state, address);
  }

  http(path: string): HttpReply | undefined {
    return this.state.meta.http(path);
  }
}
