/**
 * Slot production: on each produced slot the oracle steps, completed curves migrate, a pump coin launches now and then,
 * a new pool now and then, what the admin controls asked for (requested-events.ts), the arbitrage bot aligns SOL/USDC
 * with the oracle and 2–12 random trades follow, all drawn in that order (the requests from their own stream). Each transaction is executed into the account mirror (and so the ledger); one whose
 * state change fails is rolled back and dropped.
 */
import type { LedgerWriter, Pubkey, TxRecord } from "../chain/types.js";
import type { Draft } from "./context.js";
import { signatureFor } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { RandomTrades } from "./random-trades.js";
import { HeavySlots } from "./heavy-slot.js";
import { PoolLaunches } from "./pool-launches.js";
import { RequestedEvents } from "./requested-events.js";
import { RoutedTrades } from "./routed-trades.js";
import { arbTx, launchTx, migrateTx } from "./slot-transactions.js";
import { TradeTruth, tradeRecords } from "./swap-truth.js";
import { executeTx } from "./tx/builder.js";
import { ExtrasLife } from "./world-extras.js";
import type { Side } from "./venues/types.js";
import type { WorldState } from "./world-state.js";

/** Launches after genesis; beyond this the world keeps trading what exists. */
const MAX_LAUNCHES = 200;
const MAX_TRADE_LOG = 4000;
const MAX_ERRORS = 100;

export interface TradeLogEntry {
  slot: number;
  signature: string;
  kind: string;
  pool: Pubkey;
  side: Side;
  failed: boolean;
  priceBefore: number;
  priceAfter: number;
}

export class SlotProducer {
  /** Transactions dropped because applying them failed (a world bug; kept for tests and diagnostics). */
  readonly errors: string[] = [];
  /** The latest trades with the pool price (quote atoms per base atom) before and after, for tests and diagnostics. */
  readonly tradeLog: TradeLogEntry[] = [];
  /** Every swap of the world's transactions, as executed, for the slots whose blocks the chain keeps. */
  readonly truth = new TradeTruth();
  private readonly rng: Rng;
  private readonly trades: RandomTrades;
  private readonly routed: RoutedTrades;
  /** Its own stream, so the routed traffic never shifts the draws of the life stream. */
  private readonly routesRng: Rng;
  /** Mainnet-sized blocks asked for through `heavySlots`. */
  readonly heavy: HeavySlots;
  private readonly poolLaunches: PoolLaunches;
  /** What the admin controls asked of the next slot (`POST /__localnet/launch`, `/graduate`). */
  readonly requested: RequestedEvents;
  private readonly heavyRng: Rng;
  private nextLaunchSlot: number;
  private launches = 0;
  private readonly usedNames = new Set<string>();
  private reconciled = false;
  /** The extras edition's slot life (world-extras.ts), on its own random stream. */
  private readonly extras: ExtrasLife | null;

  constructor(
    private readonly state: WorldState,
    /** More of the slot, run after the admin controls' requests (the security tokens' launches: security-tokens.ts). */
    private readonly extra?: (slot: number, run: (plan: () => Draft | null) => void) => void,
  ) {
    this.rng = state.ctx.rng("life");
    this.nextLaunchSlot = 20 + this.rng.int(0, 15);
    this.trades = new RandomTrades(state);
    this.routed = new RoutedTrades(state, this.trades);
    this.routesRng = state.ctx.rng("routes");
    this.heavy = new HeavySlots(state);
    this.poolLaunches = new PoolLaunches(state, state.ctx.rng("pool-launches"));
    this.requested = new RequestedEvents(state, this.poolLaunches);
    this.heavyRng = state.ctx.rng("heavy");
    this.extras = state.extras ? new ExtrasLife(state) : null;
  }

  /** Mutates the world for the ledger's slot and returns the slot's transactions. */
  produce(ledger: LedgerWriter): TxRecord[] {
    const { state, rng } = this;
    const { ctx } = state;
    ctx.store.attach(ledger);
    if (!this.reconciled) this.reconcile(ledger);
    ctx.clock.slot = ledger.slot;
    ctx.clock.blockTime = ledger.blockTime;
    const txs: TxRecord[] = [];
    const run = (d: Pick<Draft, "plan" | "swaps"> | null) => {
      if (!d) return;
      try {
        const tx = executeTx(d.plan(), {
          store: ctx.store,
          book: ctx.book,
          recentBlockhash: ledger.recentBlockhash,
          signature: signatureFor(state.seed, `${ledger.slot}:${txs.length}`),
        });
        // The world's transactions lead the block, so the index here is the index in the block.
        this.truth.add(ledger.slot, tradeRecords(d.swaps, { signature: tx.signatures[0]!, slot: ledger.slot, txIndex: txs.length, failed: tx.meta.err !== null }));
        txs.push(tx);
      } catch (err) {
        // The state was rolled back; the slot goes on without this transaction.
        this.errors.push(`slot ${ledger.slot}: ${(err as Error).message}`);
        if (this.errors.length > MAX_ERRORS) this.errors.shift();
      }
    };

    // Planning a transaction that throws (a world bug) loses that transaction, never the slot.
    const planned = (plan: () => Draft | null): Draft | null => {
      try {
        return plan();
      } catch (err) {
        this.errors.push(`slot ${ledger.slot}: planning: ${(err as Error).message}`);
        if (this.errors.length > MAX_ERRORS) this.errors.shift();
        return null;
      }
    };

    // Oracle first: the slot's trades size USD amounts at its new price.
    state.oracle.step(rng);
    state.oracle.write();

    // Curves completed in an earlier slot migrate first.
    for (const entry of state.tokens.values()) {
      const c = entry.curve;
      if (c && c.complete && !c.migratedPool && c.completedAtSlot !== null && c.completedAtSlot > 0 && c.completedAtSlot < ledger.slot) {
        run(migrateTx(state, entry, c));
      }
    }
    // A new pump coin now and then (capped, so a long-running node keeps bounded memory).
    if (ledger.slot >= this.nextLaunchSlot && this.launches < MAX_LAUNCHES) {
      run(launchTx(state, rng, this.launches++, this.usedNames));
      this.nextLaunchSlot = ledger.slot + rng.int(20, 40);
    }
    // Now and then a new token's pool, of each kind in turn, created by the program's own instruction.
    run(planned(() => this.poolLaunches.next(ledger.slot)));
    // Then what the admin controls asked for: new pools of a given kind, bonding curves bought out.
    this.requested.runAll(ledger.slot, txs, (plan) => run(planned(plan)), this.errors);
    this.extra?.(ledger.slot, (plan) => run(planned(plan)));
    // Keep SOL/USDC in line with the oracle.
    run(arbTx(state, rng));
    const n = rng.int(2, 12);
    for (let i = 0; i < n; i++) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const t = this.trades.next(rng);
        if (!t) continue;
        const before = t.price();
        const count = txs.length;
        run(t.draft);
        if (txs.length > count) {
          const tx = txs[txs.length - 1]!;
          this.tradeLog.push({ slot: ledger.slot, signature: tx.signatures[0]!, kind: t.kind, pool: t.pool, side: t.side, failed: tx.meta.err !== null, priceBefore: before, priceAfter: t.price() });
          if (this.tradeLog.length > MAX_TRADE_LOG) this.tradeLog.splice(0, MAX_TRADE_LOG / 2);
        }
        break;
      }
    }
    // The trade index's hard cases: Jupiter routes over two or three pools, multi-swap transactions, a pool swapped twice.
    const routes = this.routesRng;
    if (routes.chance(0.4)) run(planned(() => this.routed.route(routes)));
    if (routes.chance(0.18)) run(planned(() => this.routed.multi(routes, false)));
    if (routes.chance(0.15)) run(planned(() => this.routed.multi(routes, true)));
    this.extras?.produce(ledger.slot, run, planned);
    if (this.heavy.take()) this.produceHeavy(ledger, run, planned);
    this.markCompletedCurves();
    return txs;
  }

  /**
   * A mainnet-sized block: ~1,100 more transactions, ~70% validators' votes, the rest random trades and Jupiter routes
   * of every kind, interleaved.
   */
  private produceHeavy(ledger: LedgerWriter, run: (d: Pick<Draft, "plan" | "swaps"> | null) => void, planned: (plan: () => Draft | null) => Draft | null): void {
    const rng = this.heavyRng;
    let votes = 0;
    for (const isVote of this.heavy.layout(rng)) {
      if (isVote) {
        const plan = this.heavy.votePlan(votes++, ledger.slot, ledger.recentBlockhash, ledger.blockTime);
        run({ plan: () => plan, swaps: [] });
        continue;
      }
      if (rng.chance(0.1)) {
        run(planned(() => this.routed.route(rng)));
        continue;
      }
      for (let attempt = 0; attempt < 6; attempt++) {
        const t = this.trades.next(rng);
        if (!t) continue;
        run(t.draft);
        break;
      }
    }
  }

  /**
   * Accounts written over the world's at genesis (the chain's `--accounts` fixtures win at slot 0, and some share
   * addresses with ours: the wSOL dynamic vault, the Pyth feed, configs) are put back once, so every balance and price
   * the world reports from slot 1 on matches the ledger.
   */
  private reconcile(ledger: LedgerWriter): void {
    this.reconciled = true;
    for (const [k, mine] of this.state.ctx.store.accounts) {
      const there = ledger.getAccount(k);
      if (!there || there.lamports !== mine.lamports || there.owner !== mine.owner || Buffer.compare(there.data, mine.data) !== 0) {
        ledger.setAccount(k, mine);
      }
    }
  }

  /** Curves that completed in this slot are tagged "complete" until their migration (next slot) adds "graduated". */
  private markCompletedCurves(): void {
    for (const t of this.state.tokens.values()) {
      if (!t.curve?.complete || t.curve.migratedPool || t.tags.has("complete")) continue;
      for (const tag of ["fresh", "mid", "near-graduation"]) t.tags.delete(tag);
      t.tags.add("complete");
      t.details.completedAtSlot = String(t.curve!.completedAtSlot);
    }
  }
}
