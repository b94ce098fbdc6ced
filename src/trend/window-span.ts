/**
 * Where the index's rolling windows (trend, stats) end and which stored rows make them up. A window of N minutes ends
 * at the index's end: the last block of the frontier (every slot up to it stored) and that block's time T. It holds
 * the N − 1 whole minutes before T's minute, read from the buckets (minute buckets for the ragged parts, hour buckets
 * for whole hours), and the live minute of T up to T itself, read from the stored trades of slots up to the frontier
 * (its bucket may already hold blocks after the frontier that parallel consumers stored). Block times never go back,
 * so every block after the frontier has a time ≥ T: the whole minutes before T's minute are complete.
 */

/** The index's end: the frontier and the last block at or before it that has a time. */
export interface IndexEnd {
  /** the frontier slot (every slot up to it is stored) */
  slot: number;
  /** unix seconds of the last block with a time at or before the frontier */
  time: number;
}

export interface SpanParts {
  /** inclusive ranges of minute buckets (the ragged ends) */
  minutes: [number, number][];
  /** inclusive range of hour buckets, or none */
  hours: [number, number] | null;
}

/** The buckets that make up minutes `startMinute`..`endMinute` (inclusive): whole hours from hour buckets. */
export function spanParts(startMinute: number, endMinute: number): SpanParts {
  if (startMinute > endMinute) return { minutes: [], hours: null };
  const firstHour = Math.ceil(startMinute / 60);
  const lastHour = Math.floor((endMinute + 1) / 60) - 1;
  if (firstHour > lastHour) return { minutes: [[startMinute, endMinute]], hours: null };
  const minutes: [number, number][] = [];
  if (startMinute < firstHour * 60) minutes.push([startMinute, firstHour * 60 - 1]);
  if ((lastHour + 1) * 60 <= endMinute) minutes.push([(lastHour + 1) * 60, endMinute]);
  return { minutes, hours: [firstHour, lastHour] };
}

export interface WindowSpan {
  /** first minute of the window (unix minute) */
  startMinute: number;
  /** T's minute: counted from the stored trades, not its bucket */
  liveMinute: number;
  /** the whole minutes before the live one */
  whole: SpanParts;
  /** the end, unix seconds (T) */
  endTime: number;
}

/** The window of `minutes` minutes (the live one included) ending at `endTime`. */
export function windowSpan(endTime: number, minutes: number): WindowSpan {
  const liveMinute = Math.floor(endTime / 60);
  const startMinute = liveMinute - minutes + 1;
  return { startMinute, liveMinute, whole: spanParts(startMinute, liveMinute - 1), endTime };
}

/** The binds of a span's bucket parts, in the order of `bucketParts(...)`: an absent part binds an empty range (0..-1). */
export function spanBinds(parts: SpanParts): number[] {
  return [...(parts.minutes[0] ?? [0, -1]), ...(parts.minutes[1] ?? [0, -1]), ...(parts.hours ?? [0, -1])];
}

/**
 * The index's end at `frontier`, or null before a block with a time is stored, with the first slot of the live
 * minute (the trades the live minute is read from: slots `liveFromSlot`..`slot`, found through the block-time index).
 */
export async function readIndexEnd(db: D1Database, frontier: number): Promise<(IndexEnd & { liveFromSlot: number }) | null> {
  const last = await db
    .prepare("SELECT block_time FROM ingested_blocks WHERE slot <= ? AND block_time IS NOT NULL ORDER BY slot DESC LIMIT 1")
    .bind(frontier)
    .first<{ block_time: number }>();
  if (!last) return null;
  const minuteStart = Math.floor(last.block_time / 60) * 60;
  const first = await db
    .prepare("SELECT min(slot) AS slot FROM ingested_blocks WHERE block_time >= ? AND slot <= ?")
    .bind(minuteStart, frontier)
    .first<{ slot: number | null }>();
  return { slot: frontier, time: last.block_time, liveFromSlot: first?.slot ?? frontier };
}

/** The order key of a stored trade row in SQL (the buckets' first_key/last_key: trades/trade-buckets.ts orderKey). */
export const tradeOrderKeySql = "(slot * 1048576 + min(tx_index, 16383) * 64 + min(ordinal, 63))";
