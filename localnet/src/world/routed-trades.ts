/**
 * The trade index's hard cases in the world's traffic: Jupiter v6 `route` transactions whose legs are CPIs into two or
 * three pools of different kinds (TOKEN→SOL→USDC, TOKEN→SOL→TOKEN, TOKEN→SOL→USDC→TOKEN; some fail on slippage),
 * top-level multi-swap transactions over several pools, and transactions that swap the same pool twice. Every leg is
 * planned on the state the legs before it leave (planned in sequence, then rolled back for the real execution).
 */
import type { Pubkey } from "../chain/types.js";
import { Draft } from "./context.js";
import { concat, hex } from "./core/bytes.js";
import { constantPda, u64le } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { JUPITER_V6_PROGRAM, TOKEN_PROGRAM, USDC_MINT, WSOL_MINT } from "./programs.js";
import type { RandomTrades } from "./random-trades.js";
import { txShape } from "./slot-transactions.js";
import { trackPoolSwap } from "./swap-truth.js";
import { r, w, rs, type Ix, type TxFailure } from "./tx/builder.js";
import { borsh, eventCpi } from "./tx/common.js";
import type { PoolRef, PoolVenue, Side } from "./venues/types.js";
import type { Tradeable, WorldState } from "./world-state.js";

const ROUTE = hex("e517cb977ae3ad2a");
/** Anchor `event:SwapEvent` (Jupiter's per-leg event, emitted by self-CPI). */
const SWAP_EVENT = hex("40c6cde8260871e2");
export const jupiterEventAuthority = constantPda(["__event_authority"], JUPITER_V6_PROGRAM);

/** Jupiter v6's `Swap` enum variant of each pool kind (IDL order; the world's CLMM swaps with SwapV2). */
const JUPITER_SWAP_VARIANT: Record<string, (side: Side) => number> = {
  "raydium-amm-v4": () => 7, // Raydium
  "meteora-damm-v1": () => 19, // Meteora
  "raydium-clmm": () => 40, // RaydiumClmmV2
  "meteora-dlmm": () => 38, // MeteoraDlmm
  "raydium-cpmm": () => 46, // RaydiumCp
  pumpswap: (side) => (side === "buy" ? 72 : 73), // PumpSwapBuy / PumpSwapSell
  "meteora-damm-v2": () => 77, // MeteoraDammV2
  "meteora-dbc": () => 78, // MeteoraDynamicBondingCurveSwap
};

/** Jupiter's SlippageToleranceExceeded (6001), raised by `route` after its legs ran (their CPIs stay in the meta). */
function jupiterSlippage(ixIndex: number): TxFailure {
  return {
    ixIndex,
    code: 6001,
    logs: ["AnchorError occurred. Error Code: SlippageToleranceExceeded. Error Number: 6001. Error Message: Slippage tolerance exceeded."],
    afterCpis: true,
  };
}

interface Leg {
  pool: PoolRef;
  venue: PoolVenue;
  side: Side;
}

const inMintOf = (l: Leg) => (l.side === "buy" ? l.pool.quoteMint : l.pool.baseMint);
const outMintOf = (l: Leg) => (l.side === "buy" ? l.pool.baseMint : l.pool.quoteMint);

/** A shallow copy of a venue's pool object (arrays and maps copied: swaps replace their items, never mutate them). */
function shallowCopy(o: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = Array.isArray(v) ? [...v] : v instanceof Map ? new Map(v) : v;
  return out;
}

/**
 * Runs `plan` with the account mirror journaled and the pools' objects saved, then puts everything back: `plan` may
 * apply each leg's state change as it goes (`Draft.applyFrom`) so the next leg is planned on it.
 */
export function planInSequence<T>(state: WorldState, pools: readonly PoolRef[], plan: () => T): T {
  const putBack = keepPoolObjects(pools);
  const { store, book } = state.ctx;
  store.begin();
  try {
    return plan();
  } finally {
    book.reload(store.rollback());
    putBack();
  }
}

/** Saves the pools' objects (a DAMM v1 pool's vaults too, and a curve: any object a swap changes); the answer puts them back. */
export function keepPoolObjects(pools: readonly object[]): () => void {
  const objects = new Set<object>();
  for (const p of pools) {
    objects.add(p);
    for (const nested of ["aVault", "bVault"] as const) {
      const v = (p as unknown as Record<string, unknown>)[nested];
      if (v && typeof v === "object") objects.add(v);
    }
  }
  const saved = [...objects].map((o) => [o, shallowCopy(o)] as const);
  return () => {
    for (const [o, copy] of saved) Object.assign(o, copy);
  };
}

export class RoutedTrades {
  constructor(
    private readonly state: WorldState,
    private readonly trades: RandomTrades,
  ) {}

  private pools(quoteMint: Pubkey): Tradeable[] {
    return this.state.tradeables.filter((t) => t.weight > 0 && t.pool.quoteMint === quoteMint && JUPITER_SWAP_VARIANT[t.pool.kind]);
  }

  private get solUsdc(): Tradeable {
    return { token: null, pool: this.state.solUsdcPool, venue: this.state.clmm, weight: 0 };
  }

  /** A wallet holding `mint` (one of the world's traders) that can pay fees and rent, and the share of it to sell. */
  private seller(rng: Rng, mint: Pubkey): { wallet: Pubkey; amount: bigint } | null {
    const s = this.trades.pickSeller(rng, mint);
    if (!s || this.state.ctx.store.lamports(s.owner) < 100_000_000n) return null;
    const amount = BigInt(Math.floor(Number(s.amount) * rng.logUniform(0.05, 0.6)));
    return amount > 0n ? { wallet: s.owner, amount } : null;
  }

  /**
   * A Jupiter v6 `route`: TOKEN→SOL on one pool, then SOL→USDC on the SOL/USDC CLMM, SOL→TOKEN on a pool of another
   * kind, or SOL→USDC→TOKEN over three pools; 12% fail on the route's slippage check.
   */
  route(rng: Rng): Draft | null {
    const sol = this.pools(WSOL_MINT);
    if (!sol.length) return null;
    const first = rng.pick(sol);
    const seller = this.seller(rng, first.pool.baseMint);
    if (!seller) return null;
    const legs: Leg[] = [{ pool: first.pool, venue: first.venue, side: "sell" }];
    // Every leg on a pool of another kind (SOL/USDC is a CLMM pool).
    const viaUsdc = first.pool.kind !== "raydium-clmm";
    const shape = viaUsdc ? rng.next() : 0.5;
    if (shape < 0.4) legs.push({ pool: this.state.solUsdcPool, venue: this.state.clmm, side: "sell" });
    else if (shape < 0.75) {
      const others = sol.filter((t) => t.pool.kind !== first.pool.kind && t.pool.baseMint !== first.pool.baseMint);
      if (!others.length) return null;
      const second = rng.pick(others);
      legs.push({ pool: second.pool, venue: second.venue, side: "buy" });
    } else {
      const usdc = this.pools(USDC_MINT).filter((t) => t.pool.baseMint !== first.pool.baseMint && t.pool.kind !== "raydium-clmm" && t.pool.kind !== first.pool.kind);
      if (!usdc.length) return null;
      const third = rng.pick(usdc);
      legs.push({ pool: this.state.solUsdcPool, venue: this.state.clmm, side: "sell" }, { pool: third.pool, venue: third.venue, side: "buy" });
    }
    const fail = rng.chance(0.12);
    const { cuLimit, cuPrice } = txShape(rng);
    const d = new Draft(this.state.ctx, seller.wallet, cuLimit, cuPrice, 0);
    const ok = planInSequence(this.state, legs.map((l) => l.pool), () => this.buildRoute(d, seller.wallet, legs, seller.amount, fail));
    return ok ? d : null;
  }

  private buildRoute(d: Draft, wallet: Pubkey, legs: Leg[], amountIn: bigint, fail: boolean): boolean {
    let applied = 0;
    const settle = () => {
      d.applyFrom(applied);
      applied = d.applyCount;
    };
    const accountOf = new Map<Pubkey, Pubkey>();
    for (const l of legs) {
      for (const mint of [inMintOf(l), outMintOf(l)]) {
        if (!accountOf.has(mint)) accountOf.set(mint, mint === WSOL_MINT ? d.wrapSol(wallet, 0n) : d.ensureAta(wallet, mint));
      }
    }
    settle();
    const steps: Ix["steps"] = [{ log: "Instruction: Route" }];
    const remaining: Ix["accounts"] = [];
    const plan = borsh().u32(legs.length);
    let amount = amountIn;
    for (const [i, l] of legs.entries()) {
      const userBase = accountOf.get(l.pool.baseMint)!;
      const userQuote = accountOf.get(l.pool.quoteMint)!;
      const start = d.ixs.length;
      const res = trackPoolSwap(this.state, d, l.pool, l.venue, wallet, l.side, amount, userBase, userQuote, false);
      if (!res) return false;
      const [legIx] = d.ixs.splice(start);
      const out = l.side === "buy" ? res.base : res.quote;
      const event = borsh().bytes(SWAP_EVENT).pubkey(l.pool.address).pubkey(inMintOf(l)).u64(amount).pubkey(outMintOf(l)).u64(out).done();
      steps.push({ cpi: legIx! }, { cpi: eventCpi(JUPITER_V6_PROGRAM, jupiterEventAuthority(), event) });
      remaining.push(r(legIx!.program), ...legIx!.accounts);
      plan.u8(JUPITER_SWAP_VARIANT[l.pool.kind]!(l.side)).u8(100).u8(i).u8(i + 1);
      settle();
      amount = out;
    }
    const last = legs[legs.length - 1]!;
    const slippageBps = 50;
    // A route sent to fail was quoted higher than the pools now pay (the market moved).
    const quoted = fail ? amount + (amount * 3n) / 100n + 1n : amount;
    steps.push({ ret: u64le(amount) });
    const index = d.add({
      program: JUPITER_V6_PROGRAM,
      accounts: [
        r(TOKEN_PROGRAM), rs(wallet), w(accountOf.get(inMintOf(legs[0]!))!), w(accountOf.get(outMintOf(last))!), r(JUPITER_V6_PROGRAM), r(outMintOf(last)),
        r(JUPITER_V6_PROGRAM), r(jupiterEventAuthority()), r(JUPITER_V6_PROGRAM), ...remaining,
      ],
      data: concat(ROUTE, plan.u64(amountIn).u64(quoted).u16(slippageBps).u8(0).done()),
      steps,
      cu: 32000,
    });
    if (fail) d.fail = jupiterSlippage(index);
    if (accountOf.has(WSOL_MINT)) d.unwrapSol(wallet);
    return true;
  }

  /**
   * Several top-level swap instructions in one transaction: buys on two or three SOL pools of different kinds
   * (`samePool`: a buy and then a second buy or a sell back on the same pool). 8% fail on their last swap.
   */
  multi(rng: Rng, samePool: boolean): Draft | null {
    const { state } = this;
    const sol = this.pools(WSOL_MINT);
    if (sol.length < 3) return null;
    const wallet = rng.chance(0.1) ? rng.pick(state.whales) : rng.pick(state.activeTraders);
    const picks: Tradeable[] = [];
    if (samePool) {
      const p = rng.pick(sol);
      picks.push(p, p);
    } else {
      const n = rng.int(2, 3);
      for (let tries = 0; picks.length < n && tries < 20; tries++) {
        const p = rng.pick(sol);
        if (!picks.some((x) => x.pool.kind === p.pool.kind)) picks.push(p);
      }
    }
    const amounts = picks.map(() => BigInt(Math.floor(rng.logUniform(0.03, 3) * 1e9)));
    const sellBack = samePool && rng.chance(0.5);
    const total = amounts.reduce((a, b) => a + b, 0n);
    if (state.ctx.store.lamports(wallet) < total + 200_000_000n) return null;
    const last = picks[picks.length - 1]!;
    // PumpSwap instructions carry no slippage failure in this world.
    const fail = rng.chance(0.08) && last.pool.kind !== "pumpswap";
    const { cuLimit, cuPrice, version } = txShape(rng);
    const d = new Draft(state.ctx, wallet, cuLimit, cuPrice, version);
    const ok = planInSequence(state, picks.map((p) => p.pool), () => {
      let applied = 0;
      const settle = () => {
        d.applyFrom(applied);
        applied = d.applyCount;
      };
      const wsol = d.wrapSol(wallet, total);
      settle();
      for (const [i, p] of picks.entries()) {
        const userBase = d.ensureAta(wallet, p.pool.baseMint);
        settle();
        const isLast = i === picks.length - 1;
        let side: Side = "buy";
        let amount = amounts[i]!;
        if (isLast && sellBack) {
          side = "sell";
          amount = state.ctx.book.account(userBase)?.amount ?? 0n;
          amount = (amount * 2n) / 3n;
          if (amount <= 0n) return false;
        }
        if (!trackPoolSwap(state, d, p.pool, p.venue, wallet, side, amount, userBase, wsol, fail && isLast)) return false;
        settle();
      }
      d.unwrapSol(wallet);
      return true;
    });
    return ok ? d : null;
  }
}
