/**
 * The transactions a slot makes besides random trades: a completed curve's migration to PumpSwap, a new pump.fun
 * launch with its dev buy, the arbitrage that keeps SOL/USDC on the oracle; and the compute-budget shape every world
 * transaction draws.
 */
import { launchName } from "./catalog.js";
import { Draft } from "./context.js";
import { sqrtPriceX64FromPrice } from "./core/math.js";
import type { Rng } from "./core/rng.js";
import { PUMP_WITHDRAW_AUTHORITY, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT, WSOL_MINT } from "./programs.js";
import { poolTarget, trackCurveSwap, trackSwap } from "./swap-truth.js";
import { PUMP, type PumpCurve } from "./venues/pumpfun.js";
import { LAMPORTS, type TokenEntry, type WorldState } from "./world-state.js";

/** Compute-unit limit and price and message version, as wallets vary them. */
export function txShape(rng: Rng): { cuLimit: number; cuPrice: bigint; version: "legacy" | 0 } {
  const cuLimit = rng.pick([140_000, 200_000, 250_000, 300_000, 400_000]);
  const cuPrice = rng.chance(0.15) ? 0n : BigInt(Math.floor(rng.logUniform(1_000, 250_000)));
  return { cuLimit, cuPrice, version: rng.chance(0.25) ? 0 : "legacy" };
}

/** The migration of a completed curve to its PumpSwap pool; the token is "graduated" once it applies. */
export function migrateTx(state: WorldState, entry: TokenEntry, c: PumpCurve): Draft {
  const d = new Draft(state.ctx, PUMP_WITHDRAW_AUTHORITY, 400_000, 100_000n);
  const poolAddress = state.pumpfun.migrate(d, c);
  d.onApply(() => {
    state.addPumpSwapPool(entry, state.pumpswap.pools.get(poolAddress)!);
    entry.venues = entry.venues.filter((v) => v !== "pumpfun");
    if (!entry.venues.includes("pumpswap")) entry.venues.unshift("pumpswap");
    entry.tags.delete("near-graduation");
    entry.tags.delete("mid");
    entry.tags.delete("fresh");
    entry.tags.add("complete");
    entry.tags.add("graduated");
    entry.details.graduatedAtSlot = String(state.ctx.clock.slot);
  });
  return d;
}

/** Launch number `n`: a pump.fun create and dev buy by a wallet that can pay; the token is listed once it applies. */
export function launchTx(state: WorldState, rng: Rng, n: number, usedNames: Set<string>): Draft {
  const { ctx } = state;
  let creator = rng.pick(state.wallets);
  for (let i = 0; i < 10 && ctx.store.lamports(creator) < 4n * LAMPORTS; i++) creator = rng.pick(state.wallets);
  if (ctx.store.lamports(creator) < 4n * LAMPORTS) creator = rng.pick(state.whales);
  const t22 = n % 3 === 1;
  const { name, symbol } = launchName(rng, usedNames);
  const mint = state.key(`launch:${n}`);
  const tokenProgram = t22 ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
  const fields = { key: `launch-${n}`, mint, name, symbol, decimals: PUMP.decimals, tokenProgram, creator, venues: ["pumpfun"], details: { launchedAtSlot: String(ctx.clock.slot) } };
  const entry = state.newToken(fields, ["pumpfun", "pump", "fresh", "launched"]);
  state.registerMetadata(entry, { shape: "top-level", broken: null }, rng);
  const { cuLimit, cuPrice } = txShape(rng);
  const d = new Draft(ctx, creator, Math.max(cuLimit, 300_000), cuPrice, t22 ? 0 : "legacy");
  const info = { mint, name, symbol, uri: entry.metadataUri!, creator, tokenProgram };
  ctx.book.mints.set(mint, state.pumpfun.mintState(info));
  const curve = state.pumpfun.create(d, info);
  const devBuy = BigInt(Math.floor(rng.logUniform(0.2, 3) * 1e9));
  trackCurveSwap(state, d, curve, creator, "buy", devBuy, false);
  d.onApply(() => {
    entry.curve = curve;
    state.addCurvePool(entry, curve);
    state.tokens.set(mint, entry);
  });
  return d;
}

/** The arbitrage bot's swap that brings SOL/USDC to the oracle price, or null when it is close enough. */
export function arbTx(state: WorldState, rng: Rng): Draft | null {
  const { clmm, arbBot } = state;
  const pool = state.solUsdcPool;
  const target = sqrtPriceX64FromPrice(state.oracle.price / 1000);
  const cur = Number(pool.sqrtPrice);
  if (Math.abs(Number(target) - cur) / cur < 0.0002) return null;
  const { zeroForOne, amountIn } = clmm.amountToReach(pool, target);
  if (amountIn <= 0n) return null;
  const { cuLimit, cuPrice } = txShape(rng);
  const d = new Draft(state.ctx, arbBot, cuLimit, cuPrice * 5n, 0);
  const solIn = zeroForOne === (pool.mint0 === WSOL_MINT);
  const usdc = d.ensureAta(arbBot, USDC_MINT);
  const wsol = d.wrapSol(arbBot, solIn ? amountIn : 0n);
  const res = trackSwap(state.ctx, d, poolTarget(pool), arbBot, () => clmm.swapRaw(d, pool, arbBot, zeroForOne, amountIn, solIn ? wsol : usdc, solIn ? usdc : wsol, false), (x) => ({
    inMint: zeroForOne ? pool.mint0 : pool.mint1,
    inAmount: amountIn,
    outMint: zeroForOne ? pool.mint1 : pool.mint0,
    outAmount: x.out,
  }));
  if (!res) return null;
  d.unwrapSol(arbBot);
  return d;
}
