/**
 * What the admin controls ask of the next produced slot (`POST /__localnet/launch`, `POST /__localnet/graduate`): a new
 * pool of a given kind, made by the normal pool-launch path (pool-launches.ts), or a whale's pump.fun buy that takes
 * every token a bonding curve has left (the curve completes; slot-production.ts migrates it to PumpSwap the slot after).
 * Requests are checked when made (a string says why not) and run in the order made, after the slot's scheduled launches.
 */
import type { Pubkey, TxRecord, WorldRequest } from "../chain/types.js";
import { Draft } from "./context.js";
import type { Rng } from "./core/rng.js";
import { LAUNCHED_POOL_KINDS, type LaunchKind, type PoolLaunches } from "./pool-launches.js";
import { txShape } from "./slot-transactions.js";
import { trackCurveSwap } from "./swap-truth.js";
import { canonicalPumpSwapPool } from "./venues/pumpswap.js";
import type { TokenEntry, WorldState } from "./world-state.js";

/** Requests waiting for a slot, at most (each is one transaction of that slot). */
export const MAX_PENDING_REQUESTS = 16;
/** Lamports the whale keeps besides the buy (fees, its token account's rent). */
const WHALE_RESERVE = 100_000_000n;

type Request = { what: "launch"; kind: LaunchKind } | { what: "graduate"; mint: Pubkey };

interface Pending {
  request: Request;
  resolve(outcome: Record<string, unknown>): void;
}

/** Runs a planned transaction into the slot (slot-production.ts's `run`, which records a failure in the world's errors). */
export type RunDraft = (plan: () => Draft | null) => void;

export class RequestedEvents {
  private readonly pending: Pending[] = [];
  private readonly rng: Rng;

  constructor(
    private readonly state: WorldState,
    private readonly launches: PoolLaunches,
  ) {
    // its own stream: a request never shifts the draws of the world's other streams
    this.rng = state.ctx.rng("admin-requests");
  }

  /** A new pool of `kind` in the next produced slot, or why not. */
  launch(kind: string): WorldRequest | string {
    if (!(LAUNCHED_POOL_KINDS as readonly string[]).includes(kind)) return `kind must be one of ${LAUNCHED_POOL_KINDS.join(", ")}`;
    const queuedLaunches = this.pending.filter((p) => p.request.what === "launch").length;
    if (queuedLaunches >= this.launches.remaining) return "the world made all the pool launches it makes (its memory cap)";
    return this.enqueue({ what: "launch", kind: kind as LaunchKind });
  }

  /** The buy-out of `mint`'s bonding curve (or of any near-graduation curve) in the next produced slot, or why not. */
  graduate(mint: string | undefined): WorldRequest | string {
    const queued = new Set(this.pending.flatMap((p) => (p.request.what === "graduate" ? [p.request.mint] : [])));
    if (mint !== undefined) {
      const token = this.state.tokens.get(mint);
      if (!token) return `mint ${mint} is not a token of the world`;
      if (!token.curve) return `mint ${mint} has no pump.fun bonding curve`;
      if (token.curve.complete) return `the bonding curve of ${mint} is already complete`;
      if (queued.has(mint)) return `a graduation of ${mint} is already queued`;
      return this.enqueue({ what: "graduate", mint });
    }
    const live = [...this.state.tokens.values()].filter((t) => t.curve && !t.curve.complete && !queued.has(t.mint));
    // near-graduation curves first, then the one with the fewest tokens left
    const pick = live.find((t) => t.tags.has("near-graduation")) ?? live.sort((a, b) => (a.curve!.rtr < b.curve!.rtr ? -1 : 1))[0];
    if (!pick) return "no bonding curve left to graduate";
    return this.enqueue({ what: "graduate", mint: pick.mint });
  }

  /** Runs the queued requests into the slot, in order; each settles with what it made or why it could not. */
  runAll(slot: number, txs: readonly TxRecord[], run: RunDraft, errors: readonly string[]): void {
    for (const { request, resolve } of this.pending.splice(0)) {
      const before = txs.length;
      const lastError = errors.at(-1);
      let outcome: Record<string, unknown> = {};
      run(() => {
        if (request.what === "launch") {
          const made = this.launches.launchNow(request.kind);
          if (!made) throw new Error("the world made all the pool launches it makes");
          outcome = { kind: request.kind, mint: made.mint };
          return made.draft;
        }
        const token = this.state.tokens.get(request.mint)!;
        const made = this.buyOut(token);
        outcome = { mint: token.mint, curve: token.curve!.address, pumpSwapPool: canonicalPumpSwapPool(token.mint), wallet: made.draft.payer };
        return made.draft;
      });
      const tx = txs[before];
      if (!tx) {
        const error = errors.at(-1) !== lastError ? errors.at(-1)! : "the slot could not make it";
        resolve({ ...outcome, slot, error });
        continue;
      }
      const entry = this.state.tokens.get(String(outcome.mint));
      const extra = request.what === "launch" ? { pool: entry?.details.pool ?? null, creator: entry?.creator ?? null } : { completed: entry?.curve?.complete === true };
      resolve({ ...outcome, ...extra, slot, signature: tx.signatures[0]!, producedAtMs: Date.now() });
    }
  }

  private enqueue(request: Request): WorldRequest | string {
    if (this.pending.length >= MAX_PENDING_REQUESTS) return `at most ${MAX_PENDING_REQUESTS} requests wait for a slot`;
    let resolve!: (o: Record<string, unknown>) => void;
    const done = new Promise<Record<string, unknown>>((r) => (resolve = r));
    this.pending.push({ request, resolve });
    return { queued: { ...request }, done };
  }

  /** The richest whale's buy of every token the curve has left (a real pump.fun `buy`; its CompleteEvent follows). */
  private buyOut(token: TokenEntry): { draft: Draft } {
    const { state } = this;
    const curve = token.curve!;
    if (curve.complete) throw new Error(`the bonding curve of ${token.mint} completed before its requested buy-out`);
    const budget = state.pumpfun.buyOutBudget(curve);
    const whale = [...state.whales].sort((a, b) => (state.ctx.store.lamports(b) > state.ctx.store.lamports(a) ? 1 : -1))[0]!;
    if (state.ctx.store.lamports(whale) < budget + WHALE_RESERVE) throw new Error(`no whale can pay ${budget} lamports to buy out ${token.mint}`);
    const { cuPrice } = txShape(this.rng);
    const d = new Draft(state.ctx, whale, 300_000, cuPrice, "legacy");
    if (!trackCurveSwap(state, d, curve, whale, "buy", budget, false)) throw new Error(`the buy-out of ${token.mint} found nothing to buy`);
    return { draft: d };
  }
}
