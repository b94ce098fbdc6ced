/**
 * Ground truth of the world's swaps (`GET /__localnet/trades`): every swap a transaction makes is tracked while the
 * transaction is assembled (pool, kind, trader, the reserve accounts it moves) and measured while its state change
 * applies, so the recorded amounts are the exact reserve balance changes the chain applied, never the plan's. A swap in
 * a failed transaction records what it tried. Records live by slot and are dropped with their blocks.
 */
import type { Pubkey } from "../chain/types.js";
import type { Draft, WorldContext } from "./context.js";
import { WSOL_MINT } from "./programs.js";
import type { ReserveSide, SwapMark, TokenAmount } from "./swap-marks.js";
import { venueOfKind, type AnyVenue, type SwapKind } from "./venues/index.js";
import { pumpFunCurve, type PumpCurve } from "./venues/pumpfun.js";
import type { PoolRef, PoolVenue, Side, SwapResult } from "./venues/types.js";
import type { WorldState } from "./world-state.js";

export type { SwapKind, TokenAmount };

/** One swap as the chain executed it. */
export interface TradeRecord {
  signature: string;
  slot: number;
  /** index of the transaction in its block's `transactions` */
  txIndex: number;
  /** 0, 1, … among the swaps of the transaction, in instruction order */
  ordinal: number;
  pool: Pubkey;
  kind: SwapKind;
  /** the signer whose swap it is (its user account in the swap instruction), not necessarily the fee payer */
  wallet: Pubkey;
  /** the pair as the world models the pool: the token traded, and what it is paid in (a curve's SOL; a pool's quote) */
  baseMint: Pubkey;
  quoteMint: Pubkey;
  /** the trader's side: "buy" = the base token left the pool */
  side: Side;
  /** what the pool's reserves gained */
  poolIn: TokenAmount;
  /** what the pool's reserves lost */
  poolOut: TokenAmount;
  failed: boolean;
}

/** A pool or curve a swap trades against: its venue, the venue's own pool object, and the pair. */
export interface SwapTarget {
  venue: AnyVenue;
  pool: unknown;
  address: Pubkey;
  baseMint: Pubkey;
  quoteMint: Pubkey;
}

/** The target of a world pool (its venue found by kind). */
export function poolTarget(pool: PoolRef): SwapTarget {
  return { venue: venueOfKind(pool.kind), pool, address: pool.address, baseMint: pool.baseMint, quoteMint: pool.quoteMint };
}

/** The target of a pump.fun curve. */
export function curveTarget(curve: PumpCurve): SwapTarget {
  return { venue: pumpFunCurve as AnyVenue, pool: curve, address: curve.address, baseMint: curve.mint, quoteMint: WSOL_MINT };
}

/** The two reserve accounts of a world pool, as its venue keeps them. */
export function reserveSides(pool: PoolRef): [ReserveSide, ReserveSide] {
  return venueOfKind(pool.kind).reserves(pool);
}

/** The trade index's kind of a world pool kind ("pumpfun" is the curve). */
export function swapKindOf(kind: string): SwapKind {
  return venueOfKind(kind).tradeKind;
}

function measure(ctx: WorldContext, sides: ReserveSide[]): bigint[] {
  return sides.map((s) => (s.lamports ? ctx.store.lamports(s.account) : (ctx.book.account(s.account)?.amount ?? 0n)));
}

/**
 * Tracks the swap `run` adds to the draft: reserve balances are read just before and just after the state change of
 * the instructions it adds. `planned` says what the swap tries (pool in, pool out), used when the transaction fails.
 * Returns `run`'s result (null: nothing was added, nothing is tracked).
 */
export function trackSwap<R>(
  ctx: WorldContext,
  d: Draft,
  target: SwapTarget,
  wallet: Pubkey,
  run: () => R | null,
  planned: (result: R) => { inMint: Pubkey; inAmount: bigint; outMint: Pubkey; outAmount: bigint },
): R | null {
  const sides = target.venue.reserves(target.pool);
  const mark: SwapMark = {
    pool: target.address,
    kind: target.venue.tradeKind,
    wallet,
    baseMint: target.baseMint,
    quoteMint: target.quoteMint,
    sides,
    planned: null,
    before: null,
    after: null,
  };
  d.onApply(() => {
    mark.before = measure(ctx, sides);
  });
  const result = run();
  if (result === null) return null;
  d.onApply(() => {
    mark.after = measure(ctx, sides);
  });
  const p = planned(result);
  mark.planned = { in: { mint: p.inMint, amount: p.inAmount.toString() }, out: { mint: p.outMint, amount: p.outAmount.toString() } };
  d.swaps.push(mark);
  return result;
}

/** A pump.fun buy (`amount` lamports at most) or sell (`amount` tokens), tracked for the ground truth. */
export function trackCurveSwap(state: WorldState, d: Draft, curve: PumpCurve, wallet: Pubkey, side: Side, amount: bigint, fail: boolean): boolean {
  const { pumpfun } = state;
  const target = curveTarget(curve);
  if (side === "buy") {
    const r = trackSwap(state.ctx, d, target, wallet, () => pumpfun.buy(d, curve, wallet, amount, { fail }), (x) => ({ inMint: WSOL_MINT, inAmount: x.sol, outMint: curve.mint, outAmount: x.tokens }));
    return r !== null;
  }
  const r = trackSwap(state.ctx, d, target, wallet, () => pumpfun.sell(d, curve, wallet, amount, { fail }), (x) => ({ inMint: curve.mint, inAmount: amount, outMint: WSOL_MINT, outAmount: x.sol }));
  return r !== null;
}

/** A venue swap (`amount` quote atoms for a buy, base atoms for a sell), tracked for the ground truth. */
export function trackPoolSwap(
  state: WorldState,
  d: Draft,
  pool: PoolRef,
  venue: PoolVenue,
  wallet: Pubkey,
  side: Side,
  amount: bigint,
  userBase: Pubkey,
  userQuote: Pubkey,
  fail: boolean,
): SwapResult | null {
  return trackSwap(state.ctx, d, poolTarget(pool), wallet, () => venue.swap(d, pool, wallet, side, amount, userBase, userQuote, fail), (x) =>
    side === "buy"
      ? { inMint: pool.quoteMint, inAmount: x.quote, outMint: pool.baseMint, outAmount: x.base }
      : { inMint: pool.baseMint, inAmount: x.base, outMint: pool.quoteMint, outAmount: x.quote },
  );
}

/** The records of a transaction's tracked swaps, once it executed at `slot` as `txIndex` of its block. */
export function tradeRecords(marks: readonly SwapMark[], tx: { signature: string; slot: number; txIndex: number; failed: boolean }): TradeRecord[] {
  return marks.map((m, ordinal) => {
    let poolIn = m.planned!.in;
    let poolOut = m.planned!.out;
    if (!tx.failed) {
      if (!m.before || !m.after) throw new Error(`swap of ${m.pool} was not measured`);
      const deltas = m.sides.map((_, i) => m.after![i]! - m.before![i]!);
      const gained = deltas.findIndex((x) => x > 0n);
      const lost = deltas.findIndex((x) => x < 0n);
      if (gained < 0 || lost < 0) throw new Error(`swap of ${m.pool} moved no reserves (${deltas.join(", ")})`);
      poolIn = { mint: m.sides[gained]!.mint, amount: deltas[gained]!.toString() };
      poolOut = { mint: m.sides[lost]!.mint, amount: (-deltas[lost]!).toString() };
    }
    const side: Side = poolOut.mint === m.baseMint ? "buy" : "sell";
    return {
      signature: tx.signature, slot: tx.slot, txIndex: tx.txIndex, ordinal, pool: m.pool, kind: m.kind as SwapKind, wallet: m.wallet,
      baseMint: m.baseMint, quoteMint: m.quoteMint, side, poolIn, poolOut, failed: tx.failed,
    };
  });
}

/** Trade records by slot, kept as long as the chain keeps the slot's block. */
export class TradeTruth {
  private readonly bySlot = new Map<number, TradeRecord[]>();
  private readonly slots: number[] = [];

  add(slot: number, records: TradeRecord[]): void {
    if (records.length === 0) return;
    let list = this.bySlot.get(slot);
    if (!list) {
      this.bySlot.set(slot, (list = []));
      this.slots.push(slot);
    }
    list.push(...records);
  }

  /** Records of slots `from`..`to` (inclusive), by slot, tx index and ordinal. */
  between(from: number, to: number): TradeRecord[] {
    const out: TradeRecord[] = [];
    for (const slot of this.slots) {
      if (slot < from || slot > to) continue;
      out.push(...this.bySlot.get(slot)!);
    }
    return out.sort((a, b) => a.slot - b.slot || a.txIndex - b.txIndex || a.ordinal - b.ordinal);
  }

  /** Forgets the slots below `slot` (their blocks were pruned). */
  dropBelow(slot: number): void {
    let n = 0;
    while (n < this.slots.length && this.slots[n]! < slot) this.bySlot.delete(this.slots[n++]!);
    if (n) this.slots.splice(0, n);
  }

  get size(): number {
    let n = 0;
    for (const list of this.bySlot.values()) n += list.length;
    return n;
  }
}
