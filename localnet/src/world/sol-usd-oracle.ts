/**
 * The Pyth SOL/USD feed the world moves: a small random walk reflected inside [150, 250] with an exponential moving
 * average, written as the PriceUpdateV2 account of pyth.ts. `ctx.solUsd` follows it, for sizing USD-quoted trades.
 */
import type { Pubkey } from "../chain/types.js";
import type { WorldContext } from "./context.js";
import type { Rng } from "./core/rng.js";
import { PYTH_SOL_USD } from "./programs.js";
import { encodePriceUpdateV2, PYTH_OWNER } from "./pyth.js";

const PYTH_EXPONENT = -8;

export class SolUsdOracle {
  /** USD per SOL. */
  price: number;
  private ema: number;
  private prevPublishTime = 0n;

  constructor(
    private readonly ctx: WorldContext,
    private readonly writeAuthority: Pubkey,
  ) {
    const rng = ctx.rng("pyth");
    this.price = 150 + rng.next() * 60;
    this.ema = this.price;
    ctx.solUsd = this.price;
  }

  /** One slot's step of the walk (one draw of `rng`). */
  step(rng: Rng): void {
    let next = this.price * Math.exp((rng.next() - 0.5) * 0.004);
    if (next < 152) next = 304 - next;
    if (next > 248) next = 496 - next;
    this.price = next;
    this.ema = this.ema * 0.95 + next * 0.05;
    this.ctx.solUsd = next;
  }

  /** Writes the feed account as published at the clock's slot and time. */
  write(): void {
    const price = BigInt(Math.round(this.price * 1e8));
    const ema = BigInt(Math.round(this.ema * 1e8));
    const publishTime = BigInt(this.ctx.clock.blockTime);
    this.ctx.store.put(
      PYTH_SOL_USD,
      PYTH_OWNER,
      encodePriceUpdateV2({
        writeAuthority: this.writeAuthority,
        price,
        conf: price / 2000n,
        exponent: PYTH_EXPONENT,
        publishTime,
        prevPublishTime: this.prevPublishTime || publishTime - 1n,
        emaPrice: ema,
        emaConf: ema / 1800n,
        postedSlot: BigInt(this.ctx.clock.slot),
      }),
      1_825_020n,
    );
    this.prevPublishTime = publishTime;
  }
}
