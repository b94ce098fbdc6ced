/**
 * One block → the stream events the rooms want (stream-events.ts), from what the trade index reads of it (`readBlock`:
 * priced trades, pool events) and the raw block (fee payers, balances). Pure: prices come in from the caller.
 */
import type { Address } from "@solana/kit";
import type { PriceRecord } from "../pricing/price-record";
import type { JsonBlock } from "../trades/block-reading";
import type { JsonTransaction } from "../trades/json-transaction";
import type { StoredBlock } from "../trades/trade-store";
import { tradeItemOf } from "../trades/trade-queries";
import { dexOfPoolKind } from "../venues/pool-kinds";
import { WSOL_MINT } from "../solana/well-known";
import { GAP_TOPIC, topicOf, type StreamCommitment, type StreamCorrectionEvent, type StreamEvent, type StreamGap, type StreamKind } from "./stream-events";
import { walletChangesOfBlock } from "./wallet-changes";

export const NEWPAIR_TOPIC = topicOf("newpair");
export const tradeTopic = (mintOrWallet: string) => topicOf("trade", mintOrWallet);
export const priceTopic = (mint: string) => topicOf("price", mint);
/** The topic of a mint's price events at processed (and their corrections). */
export const processedPriceTopic = (mint: string) => topicOf("price", mint, "processed");
export const walletTopic = (wallet: string) => topicOf("wallet", wallet);

/** The addresses of the topics of one kind (`trade:`, `price:`, `wallet:`) among `topics`. */
export function addressesOf(topics: Iterable<string>, kind: StreamKind): Set<string> {
  const prefix = topicOf(kind, "");
  const out = new Set<string>();
  for (const t of topics) if (t.startsWith(prefix)) out.add(t.slice(prefix.length));
  return out;
}

/** A transaction's fee payer: its first account key. */
function feePayerOf(tx: JsonTransaction | undefined): string {
  const key = tx?.transaction?.message?.accountKeys?.[0];
  return typeof key === "string" ? key : "";
}

/**
 * The block's events for the topics in `wanted`, prices aside (`priceEvents`): trades (under their base mint and their
 * wallet), then new pairs, then wallet changes, each in transaction order.
 */
export function blockEvents(block: StoredBlock, raw: JsonBlock, wanted: ReadonlySet<string>): StreamEvent[] {
  const { slot, blockTime } = block;
  const events: StreamEvent[] = [];
  for (const trade of block.trades) {
    const topics = [tradeTopic(trade.baseMint), tradeTopic(trade.wallet)].filter((t, i, all) => wanted.has(t) && all.indexOf(t) === i);
    if (topics.length === 0) continue;
    const data = tradeItemOf(trade);
    for (const topic of topics) events.push({ kind: "trade", topic, slot, data });
  }
  if (wanted.has(NEWPAIR_TOPIC)) {
    for (const e of block.events) {
      const first = block.trades.find((t) => t.pool === e.pool);
      events.push({
        kind: "newpair",
        topic: NEWPAIR_TOPIC,
        slot,
        data: {
          type: e.type,
          mint: e.baseMint,
          quoteMint: e.quoteMint,
          pool: e.pool,
          kind: dexOfPoolKind[e.kind],
          creator: feePayerOf(raw.transactions[e.txIndex]),
          initialPrice: first ? first.priceQuote : null,
          signature: e.signature,
          slot,
          blockTime,
        },
      });
    }
  }
  const wallets = addressesOf(wanted, "wallet");
  for (const data of walletChangesOfBlock(raw.transactions, wallets, { slot, blockTime })) {
    events.push({ kind: "wallet", topic: walletTopic(data.wallet), slot, data });
  }
  return events;
}

/** The subscribed mints (`price:<mint>` in `wanted`) that the block traded, on any pool (as base or quote), once each. */
export function mintsToPrice(block: StoredBlock, wanted: ReadonlySet<string>): Address[] {
  const out = new Set<Address>();
  for (const t of block.trades) {
    if (wanted.has(priceTopic(t.baseMint))) out.add(t.baseMint as Address);
    if (wanted.has(priceTopic(t.quoteMint))) out.add(t.quoteMint as Address);
  }
  return [...out];
}

/** The price events of one slot: one per mint priced. */
export function priceEvents(slot: number, records: readonly PriceRecord[]): StreamEvent[] {
  return records.map((data) => ({ kind: "price", topic: priceTopic(data.ca), slot, data }));
}

/**
 * Price events of processed subscriptions, each record marked with the commitment it was read at (`processed`, or
 * `confirmed` for a snapshot or the record after a correction).
 */
export function processedPriceEvents(records: readonly PriceRecord[], commitment: StreamCommitment): StreamEvent[] {
  return records.map((record) => ({ kind: "price", topic: processedPriceTopic(record.ca), slot: record.slot, data: { ...record, commitment } }));
}

/** The correction of a processed slot the cluster dropped, for one mint whose price events at that slot were sent. */
export function correctionEvent(mint: string, slot: number): StreamCorrectionEvent {
  const message = `Slot ${slot} was dropped (it never reached confirmed): the processed price events of ${mint} at slot ${slot} are retracted; its confirmed record follows`;
  return { kind: "correction", topic: processedPriceTopic(mint), slot, data: { ca: mint, slot, reason: "dropped", message } };
}

/**
 * What a processed price event says that a later read may change: the token's price in its pool's own quote (in SOL
 * for a SOL-quoted pool, in USD for a USD-stable one, both otherwise) and the pool. A SOL/USD move alone is not a
 * change of the token's market (confirmed price events, too, come when the token trades).
 */
export function marketOf(record: PriceRecord): string {
  const quoted = record.quoteMint === WSOL_MINT ? record.priceInSol : record.quotePriceSource === "fixed-usd" ? record.priceInUsd : `${record.priceInSol}|${record.priceInUsd}`;
  return `${record.pool}|${quoted}`;
}

/** The events of `events` a room with `topics` receives, in order (a gap goes to every room). */
export function eventsForRoom(events: readonly StreamEvent[], topics: ReadonlySet<string>): StreamEvent[] {
  return events.filter((e) => e.topic === GAP_TOPIC || topics.has(e.topic));
}

/** The event telling every subscription that slots `fromSlot..toSlot` were not streamed, and where to read them. */
export function gapEvent(fromSlot: number, toSlot: number, reason: StreamGap["reason"]): Extract<StreamEvent, { kind: "gap" }> {
  const why = reason === "fell-behind" ? "the live source fell behind the chain" : "a block could not be read";
  const message = `Events of slots ${fromSlot}..${toSlot} were not streamed (${why}); read them from /api/v1/trades`;
  return { kind: "gap", topic: GAP_TOPIC, slot: toSlot, data: { fromSlot, toSlot, reason, message } };
}
