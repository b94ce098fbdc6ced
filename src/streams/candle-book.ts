/**
 * The live candles the chain tail streams (`candle:<mint>` topics, docs/streams.md#candles): per followed mint and per
 * interval of `candleIntervals`, the candle still forming, folded trade by trade with REST OHLCV's own fold
 * (src/trades/ohlcv.ts `foldTrade`), so a candle streamed equals the REST candle of the same span. Pure: the tail
 * hands it each block it reads (in slot order) and publishes what it returns.
 *
 * Time is the chain's: a trade falls in the interval of its block time, and a candle closes with the first block whose
 * block time is past its end (even one that traded nothing), so a quiet mint's candle closes on time too. A candle is
 * `partial` when the tail may have missed some of its trades: it started following the mint (or skipped slots) at or
 * after the candle's start. Memory: one fold per followed mint and interval, only mints some room wants (`follow`).
 */
import { candleOfFold, foldTrade, newCandleFold, type CandleFold } from "../trades/ohlcv";
import type { Trade } from "../trades/trade";
import { candleIntervalNames, candleIntervals, topicOf, type CandleInterval, type LiveCandle, type StreamEvent } from "./stream-events";

interface Forming {
  fold: CandleFold;
  partial: boolean;
}

interface Followed {
  /** block time of the first block seen while following (null: none yet, or slots were skipped since) */
  since: number | null;
  forming: Map<CandleInterval, Forming>;
}

/** The topic of a mint's candles. */
export const candleTopic = (mint: string) => topicOf("candle", mint);

export class CandleBook {
  private readonly mints = new Map<string, Followed>();

  /** The mints whose candles some room wants now: new ones are followed from the next block, the others forgotten. */
  follow(mints: ReadonlySet<string>): void {
    for (const mint of this.mints.keys()) if (!mints.has(mint)) this.mints.delete(mint);
    for (const mint of mints) if (!this.mints.has(mint)) this.mints.set(mint, { since: null, forming: new Map() });
  }

  get followed(): number {
    return this.mints.size;
  }

  /**
   * Slots were not read (the tail fell behind, or a block could not be read): every candle forming now, and every one
   * the next block starts at or before its time, may lack trades.
   */
  skipped(): void {
    for (const f of this.mints.values()) {
      f.since = null;
      for (const c of f.forming.values()) c.partial = true;
    }
  }

  /**
   * One block, in slot order: the candles it closes (their final state), then the forming candle of every interval of
   * each followed mint it traded (once per mint and interval). A block without a block time places nothing in time:
   * its trades are left out, as REST OHLCV leaves them out.
   */
  block(slot: number, blockTime: number | null, trades: readonly Trade[]): StreamEvent[] {
    if (blockTime === null || this.mints.size === 0) return [];
    const events: StreamEvent[] = [];
    for (const [mint, f] of this.mints) {
      f.since ??= blockTime;
      for (const [interval, c] of f.forming) {
        if (blockTime < c.fold.time + candleIntervals[interval]) continue;
        events.push(event(mint, interval, c, true, slot));
        f.forming.delete(interval);
      }
    }
    const touched = new Map<string, Followed>();
    for (const trade of trades) {
      const f = this.mints.get(trade.baseMint);
      if (f === undefined) continue;
      touched.set(trade.baseMint, f);
      for (const interval of candleIntervalNames) {
        let c = f.forming.get(interval);
        if (c === undefined) {
          const time = Math.floor(blockTime / candleIntervals[interval]) * candleIntervals[interval];
          // at or before the first block seen, earlier blocks of the interval were not read by this tail
          c = { fold: newCandleFold(time), partial: time <= f.since! };
          f.forming.set(interval, c);
        }
        foldTrade(c.fold, { ...trade, blockTime });
      }
    }
    for (const [mint, f] of touched) for (const interval of candleIntervalNames) events.push(event(mint, interval, f.forming.get(interval)!, false, slot));
    return events;
  }
}

function event(mint: string, interval: CandleInterval, c: Forming, closed: boolean, slot: number): StreamEvent {
  const usd = candleOfFold(c.fold, "usd");
  const sol = candleOfFold(c.fold, "sol");
  const data: LiveCandle = {
    ca: mint,
    interval,
    ...usd,
    sol: { open: sol.open, high: sol.high, low: sol.low, close: sol.close, volume: sol.volume },
    closed,
    partial: c.partial,
    slot,
  };
  return { kind: "candle", topic: candleTopic(mint), slot, data };
}
