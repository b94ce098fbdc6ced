/**
 * A swap run on the current state and thrown away (`POST /__localnet/simulate-swap`): the venue's own swap code builds
 * the instruction and its state change into a draft that is never applied, and its amounts are the answer. Tests hold
 * the worker's quotes against it: the same state, the world's own math.
 */
import type { Pubkey } from "../chain/types.js";
import { Draft } from "./context.js";
import { ata } from "./core/keys.js";
import type { PoolRef, PoolVenue, Side } from "./venues/types.js";
import type { WorldState } from "./world-state.js";

export interface SimulatedSwap {
  pool: Pubkey;
  kind: string;
  /** the pair as the world trades it: base is what a buy gets */
  baseMint: Pubkey;
  quoteMint: Pubkey;
  side: Side;
  /** base atoms bought or sold */
  base: string;
  /** quote atoms paid (buy, fees included) or received (sell) */
  quote: string;
  slot: number;
}

/**
 * Runs `amountIn` (quote atoms for a buy, base atoms for a sell) through the pool's venue; a string says why not. `time`
 * (unix seconds) runs it at that chain time instead of the newest block's — the time of the slot a quote read, for
 * venues whose fees depend on the time since the last swap (DLMM's variable fee).
 */
export function simulateSwap(state: WorldState, pool: Pubkey, side: Side, amountIn: bigint, time?: number): SimulatedSwap | string {
  const { ctx } = state;
  if (time === undefined) return simulateNow(state, pool, side, amountIn);
  const blockTime = ctx.clock.blockTime;
  ctx.clock.blockTime = time;
  try {
    return simulateNow(state, pool, side, amountIn);
  } finally {
    ctx.clock.blockTime = blockTime;
  }
}

function simulateNow(state: WorldState, pool: Pubkey, side: Side, amountIn: bigint): SimulatedSwap | string {
  const { ctx } = state;
  const user = state.arbBot;
  const d = new Draft(ctx, user, 1_400_000, 0n);
  const slot = ctx.clock.slot;
  for (const token of state.tokens.values()) {
    const curve = token.curve;
    if (curve?.address !== pool) continue;
    const answer = { pool, kind: "pump-bonding-curve", baseMint: curve.mint, quoteMint: "So11111111111111111111111111111111111111112", side, slot };
    if (side === "buy") {
      const bought = state.pumpfun.buy(d, curve, user, amountIn);
      return bought ? { ...answer, base: bought.tokens.toString(), quote: bought.sol.toString() } : "the curve cannot take this buy";
    }
    const sold = state.pumpfun.sell(d, curve, user, amountIn);
    return sold ? { ...answer, base: amountIn.toString(), quote: sold.sol.toString() } : "the curve cannot take this sell";
  }
  const tradeable = state.tradeables.find((t) => t.pool.address === pool);
  const target: { pool: PoolRef; venue: PoolVenue } | undefined =
    tradeable ??
    (pool === state.solUsdcPool.address
      ? { pool: state.solUsdcPool, venue: state.clmm as unknown as PoolVenue }
      : state.dbc.pools.has(pool)
        ? { pool: state.dbc.pools.get(pool)!, venue: state.dbc as unknown as PoolVenue }
        : undefined);
  if (!target) return `no pool ${pool} in this world`;
  const { pool: ref, venue } = target;
  const userBase = ata(user, ref.baseMint, ctx.book.mint(ref.baseMint).program);
  const userQuote = ata(user, ref.quoteMint, ctx.book.mint(ref.quoteMint).program);
  const result = venue.swap(d, ref, user, side, amountIn, userBase, userQuote, false);
  if (!result) return "the pool cannot take this trade";
  return { pool, kind: ref.kind, baseMint: ref.baseMint, quoteMint: ref.quoteMint, side, base: result.base.toString(), quote: result.quote.toString(), slot };
}
