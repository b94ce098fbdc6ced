/**
 * The token world as the ledger sees it (`World`): builds every account at construction (genesis.ts, deterministic from
 * the seed), replays them into the ledger at genesis, produces a slot's worth of swaps, launches and migrations on each
 * `produceSlot` (slot-production.ts) and reports itself (manifest.ts). The state they share is world-state.ts.
 */
import type { AccountState, HttpReply, LedgerWriter, Pubkey, TxRecord, World, WorldRequest } from "../chain/types.js";
import { forkContent } from "./fork-block.js";
import { buildGenesis, writeGenesis } from "./genesis.js";
import { worldManifest, worldPoolPrice, type WorldManifest } from "./manifest.js";
import { SlotProducer, type TradeLogEntry } from "./slot-production.js";
import type { TradeRecord } from "./swap-truth.js";
import { metaplexMetadataAddress } from "./venues/pumpfun.js";
import { securityAdmin } from "./security-admin.js";
import { SecurityTokens } from "./security-tokens.js";
import { simulateSwap, type SimulatedSwap } from "./swap-simulation.js";
import { WorldState } from "./world-state.js";

export interface WorldOptions {
  seed: number;
  metadataBaseUrl: string;
  /**
   * The extras edition (world-extras.ts): Raydium LaunchLab and Orca Whirlpool pools, pools quoted in JitoSOL, USD1
   * and a memecoin, quiet pools of the non-derivable kinds, pools that open later in the run, multi-signer swaps.
   * Off by default: the classic world, byte for byte.
   */
  extras?: boolean;
}

export class TokenWorld implements World {
  private readonly state: WorldState;
  private readonly slots: SlotProducer;
  private readonly security: SecurityTokens;
  private genesisWritten = false;

  constructor(readonly options: WorldOptions) {
    this.state = new WorldState(options.seed, options.metadataBaseUrl, options.extras ?? false);
    buildGenesis(this.state);
    // Security tokens (security-tokens.ts) come after the rest of genesis and run their launches after each slot's own.
    const security = new SecurityTokens(this.state, (from, to) => this.slots.truth.between(from, to));
    security.genesis();
    this.security = security;
    this.slots = new SlotProducer(this.state, (slot, run) => security.runSlot(slot, run));
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

  /** A swap on the current state, thrown away (`POST /__localnet/simulate-swap`). */
  simulateSwap(pool: Pubkey, side: "buy" | "sell", amountIn: bigint, time?: number): SimulatedSwap | string {
    return simulateSwap(this.state, pool, side, amountIn, time);
  }

  /** The content of a block the chain will drop (`POST /__localnet/drop-next`): fork-block.ts. */
  forkBlock(pool: Pubkey | undefined, sol: number): ((writer: LedgerWriter) => TxRecord[]) | string {
    return forkContent(this.state, pool, sol);
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

  /** `/__localnet/security...` (security-admin.ts); undefined for any other path. */
  admin(method: string, url: URL): { status: number; body: unknown } | undefined {
    if (url.pathname === "/__localnet/reopen") return this.reopen(method, url);
    return securityAdmin(this.security, method, url);
  }

  /**
   * `POST /__localnet/reopen?seconds=N` (extras edition): the next produced slot moves every later-opening pool's
   * activation to N seconds after that slot's block time (1 ≤ N ≤ 3600) and stops its trades until then.
   */
  private reopen(method: string, url: URL): { status: number; body: unknown } {
    if (method !== "POST") return { status: 405, body: { error: "POST only" } };
    if (!this.state.extras || this.state.openings.length === 0) return { status: 404, body: { error: "this world has no pools that open later (start it with --extras)" } };
    const seconds = Number(url.searchParams.get("seconds"));
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) return { status: 400, body: { error: "seconds must be an integer from 1 to 3600" } };
    this.state.reopenRequest = seconds;
    return { status: 200, body: { queued: true, seconds, pools: this.state.openings.map((o) => o.tradeable.pool.address) } };
  }

  http(path: string): HttpReply | undefined {
    return this.state.meta.http(path);
  }
}
