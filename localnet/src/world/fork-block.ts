/**
 * The content of a block on a fork the cluster abandons (`POST /__localnet/drop-next?pool=P`, Ledger.dropNext): a
 * whale's buy of `sol` SOL's worth on pool or curve P, made by the world's own venue code and executed into the fork
 * slot's ledger writer — so the pool's price moves at `processed` — and then the world's own state (the account mirror,
 * the typed token state, the pool's objects) is put back as it was: once the fork is dropped, the world goes on from the
 * state the confirmed chain has. Its swap is not in the ground truth of trades (the chain never keeps it).
 */
import type { ForkContent } from "../chain/ledger.js";
import type { Pubkey, TxRecord } from "../chain/types.js";
import { Draft } from "./context.js";
import { signatureFor } from "./core/keys.js";
import { WSOL_MINT } from "./programs.js";
import { keepPoolObjects } from "./routed-trades.js";
import { trackCurveSwap, trackPoolSwap } from "./swap-truth.js";
import { executeTx } from "./tx/builder.js";
import type { WorldState } from "./world-state.js";

/** The fork block's transactions: a buy on `pool` (none without one), or why the world cannot make it. */
export function forkContent(state: WorldState, pool: Pubkey | undefined, sol: number): ForkContent | string {
  if (pool === undefined) return () => [];
  const curveToken = [...state.tokens.values()].find((t) => t.curve?.address === pool);
  const tradeable = state.tradeables.find((t) => t.pool.address === pool) ?? (pool === state.solUsdcPool.address ? { pool: state.solUsdcPool, venue: state.clmm } : undefined);
  if (curveToken?.curve?.complete) return `the curve ${pool} is complete`;
  if (!curveToken && !tradeable) return `no pool or curve ${pool} that this world trades`;
  return (writer) => {
    const { ctx } = state;
    ctx.store.attach(writer);
    ctx.clock.slot = writer.slot;
    ctx.clock.blockTime = writer.blockTime;
    const quoteMint = tradeable ? tradeable.pool.quoteMint : WSOL_MINT;
    const amount = state.quoteAtomsFor(quoteMint, sol);
    // the whale best able to pay: the most lamports, or the most of the pool's quote token
    const funds = (w: Pubkey) => (quoteMint === WSOL_MINT ? ctx.store.lamports(w) : ([...ctx.book.holdersOf(quoteMint)].find((a) => a.owner === w)?.amount ?? 0n));
    const wallet = [...state.whales].sort((a, b) => (funds(b) > funds(a) ? 1 : funds(b) < funds(a) ? -1 : 0))[0];
    if (wallet === undefined || funds(wallet) < amount + (quoteMint === WSOL_MINT ? 100_000_000n : 0n)) throw new Error(`no whale can pay ${sol} SOL's worth on ${pool}`);
    const putBack = keepPoolObjects([tradeable?.pool ?? curveToken!.curve!]);
    const d = new Draft(ctx, wallet, 400_000, 1_000n);
    let planned: boolean;
    if (curveToken) planned = trackCurveSwap(state, d, curveToken.curve!, wallet, "buy", amount, false);
    else {
      const { pool: ref, venue } = tradeable!;
      const baseIsSol = ref.baseMint === WSOL_MINT;
      const quoteIsSol = quoteMint === WSOL_MINT;
      const userBase = baseIsSol ? d.wrapSol(wallet, 0n) : d.ensureAta(wallet, ref.baseMint);
      const userQuote = quoteIsSol ? d.wrapSol(wallet, amount) : d.ensureAta(wallet, quoteMint);
      planned = trackPoolSwap(state, d, ref, venue, wallet, "buy", amount, userBase, userQuote, false) !== null;
      if (planned && (baseIsSol || quoteIsSol)) d.unwrapSol(wallet);
    }
    if (!planned) {
      putBack();
      throw new Error(`the pool ${pool} cannot take this buy`);
    }
    let txs: TxRecord[];
    try {
      const { value, restored } = ctx.store.aside(() => [executeTx(d.plan(), { store: ctx.store, book: ctx.book, recentBlockhash: writer.recentBlockhash, signature: signatureFor(state.seed, `fork:${writer.slot}`) })]);
      ctx.book.reload(restored);
      txs = value;
    } finally {
      putBack();
    }
    return txs;
  };
}
