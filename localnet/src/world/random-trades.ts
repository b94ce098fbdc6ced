/**
 * Random trades: a pool or an active bonding curve picked by weight, a side (curves near graduation lean to buys), a
 * trader who can pay (sellers hold the token; buyers are holders, the active traders or now and then a whale) and an
 * amount; 2.5% are sent to fail on their slippage limit.
 */
import type { Pubkey } from "../chain/types.js";
import { Draft } from "./context.js";
import { ata } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { WSOL_MINT } from "./programs.js";
import { txShape } from "./slot-transactions.js";
import { trackCurveSwap, trackPoolSwap } from "./swap-truth.js";
import type { PumpCurve } from "./venues/pumpfun.js";
import type { Side } from "./venues/types.js";
import type { TokenEntry, Tradeable, WorldState } from "./world-state.js";

/** A trade assembled for the slot, with the price of its pool or curve (read before and after it applies). */
export interface PlannedTrade {
  draft: Draft;
  kind: string;
  pool: Pubkey;
  side: Side;
  price: () => number;
}

export class RandomTrades {
  constructor(private readonly state: WorldState) {}

  /** The next random trade, or null when the draw finds nothing a wallet can pay for (the caller draws again). */
  next(rng: Rng): PlannedTrade | null {
    const { state } = this;
    const { ctx } = state;
    const pick = this.pickTradeable(rng);
    if (!pick) return null;
    const fail = rng.chance(0.025);
    const { cuLimit, cuPrice, version } = txShape(rng);
    // Lamports the payer must keep for the fee, rent of new accounts and some change.
    const reserve = 5000n + (BigInt(cuLimit) * cuPrice) / 1_000_000n + 60_000_000n;
    const isCurve = "curve" in pick;
    const baseMint = isCurve ? pick.token.mint : pick.pool.baseMint;
    const quoteMint = isCurve ? WSOL_MINT : pick.pool.quoteMint;
    const buyBias = isCurve && pick.token.tags.has("near-graduation") ? 0.85 : 0.55;
    let side: Side = rng.chance(buyBias) ? "buy" : "sell";
    let wallet: Pubkey | null = null;
    let amount = 0n;
    if (side === "sell" && baseMint === WSOL_MINT) {
      // Selling SOL for USDC: any wallet with SOL.
      wallet = rng.pick(state.wallets);
      amount = BigInt(Math.floor(rng.logUniform(0.05, 8) * 1e9));
      if (ctx.store.lamports(wallet) < amount + reserve) return null;
    } else if (side === "sell") {
      const seller = this.pickSeller(rng, baseMint);
      if (!seller) side = "buy";
      else {
        wallet = seller.owner;
        const frac = rng.chance(0.3) ? 1 : rng.logUniform(0.05, 0.9);
        amount = frac >= 1 ? seller.amount : BigInt(Math.floor(Number(seller.amount) * frac));
        if (amount <= 0n) return null;
      }
    }
    if (side === "buy") {
      const whale = rng.chance(0.06);
      // Half the buyers already hold the token; the rest come from the active traders of the day.
      const holder = whale ? null : rng.chance(0.5) ? this.pickSeller(rng, baseMint) : null;
      wallet = whale ? rng.pick(state.whales) : (holder?.owner ?? rng.pick(state.activeTraders));
      const sol = rng.logUniform(0.03, whale ? 40 : 5);
      if (quoteMint === WSOL_MINT) {
        amount = BigInt(Math.floor(sol * 1e9));
        if (ctx.store.lamports(wallet) < amount + reserve) return null;
      } else {
        amount = state.quoteAtomsFor(quoteMint, sol);
        const stable = ctx.book.account(ata(wallet, quoteMint, ctx.book.mint(quoteMint).program));
        if (!stable || stable.amount < amount) return null;
      }
    }
    if (!wallet || ctx.store.lamports(wallet) < reserve) return null;
    const d = new Draft(ctx, wallet, cuLimit, cuPrice, version);
    if (isCurve) {
      const curve = pick.curve;
      const ok = trackCurveSwap(state, d, curve, wallet, side, amount, fail);
      return ok ? { draft: d, kind: "pumpfun", pool: curve.address, side, price: () => state.pumpfun.price(curve) } : null;
    }
    const { pool, venue } = pick;
    const baseIsSol = baseMint === WSOL_MINT;
    const quoteIsSol = quoteMint === WSOL_MINT;
    const userBase = baseIsSol ? d.wrapSol(wallet, side === "sell" ? amount : 0n) : d.ensureAta(wallet, baseMint);
    const userQuote = quoteIsSol ? d.wrapSol(wallet, side === "buy" ? amount : 0n) : d.ensureAta(wallet, quoteMint);
    if (!trackPoolSwap(state, d, pool, venue, wallet, side, amount, userBase, userQuote, fail)) return null;
    if (baseIsSol || quoteIsSol) d.unwrapSol(wallet);
    return { draft: d, kind: pool.kind, pool: pool.address, side, price: () => venue.price(pool) };
  }

  private curveCache: { slot: number; curves: TokenEntry[] } | null = null;
  private activeCurves(): TokenEntry[] {
    if (this.curveCache?.slot !== this.state.ctx.clock.slot) {
      this.curveCache = { slot: this.state.ctx.clock.slot, curves: [...this.state.tokens.values()].filter((t) => t.curve && !t.curve.complete) };
    }
    return this.curveCache.curves.filter((t) => !t.curve!.complete);
  }

  private pickTradeable(rng: Rng): Tradeable | { curve: PumpCurve; token: TokenEntry } | null {
    const curves = this.activeCurves();
    const curveWeights = curves.map((t) => [t, t.tags.has("near-graduation") ? 8 : 2] as const);
    const curveWeight = curveWeights.reduce((a, [, w]) => a + w, 0);
    const poolWeight = this.state.tradeables.reduce((a, t) => a + t.weight, 0);
    const roll = rng.next() * (poolWeight + curveWeight + 2);
    if (roll < curveWeight && curves.length) {
      const token = rng.weighted(curveWeights);
      return { curve: token.curve!, token };
    }
    if (roll >= poolWeight + curveWeight) return { token: null, pool: this.state.solUsdcPool, venue: this.state.clmm, weight: 2 };
    if (this.state.tradeables.length === 0) return null;
    return rng.weighted(this.state.tradeables.map((t) => [t, t.weight] as const));
  }

  /** A holder account of `mint` owned by one of our trading wallets, not delegated, with a balance. */
  pickSeller(rng: Rng, mint: Pubkey): { owner: Pubkey; amount: bigint } | null {
    // Reservoir sample over the mint's accounts: wallet-owned ATAs only (vaults, the incinerator and delegated accounts never sell).
    let chosen: { owner: Pubkey; amount: bigint } | null = null;
    let seen = 0;
    for (const a of this.state.ctx.book.holdersOf(mint)) {
      if (a.amount === 0n || a.delegate !== null || !this.isTrader(a.owner)) continue;
      seen++;
      if (rng.next() * seen < 1) chosen = { owner: a.owner, amount: a.amount };
    }
    return chosen;
  }

  private traderSet: Set<Pubkey> | null = null;
  private isTrader(k: Pubkey): boolean {
    if (!this.traderSet) this.traderSet = new Set([...this.state.wallets, ...this.state.whales]);
    return this.traderSet.has(k);
  }
}

