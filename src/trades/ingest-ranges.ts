/**
 * The ranges handed out (`ingest_ranges`) and the cursors (`ingest_cursor`): `trades-dispatched` is the last slot handed
 * out, the frontier the last slot below which every range is done — what trend windows end at.
 */
export type RangeState = "pending" | "done";

export async function readCursor(db: D1Database, name: string): Promise<number | null> {
  const row = await db.prepare("SELECT slot FROM ingest_cursor WHERE name = ?").bind(name).first<{ slot: number }>();
  return row?.slot ?? null;
}

export function writeCursor(db: D1Database, name: string, slot: number): D1PreparedStatement {
  return db
    .prepare("INSERT INTO ingest_cursor (name, slot) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET slot = excluded.slot")
    .bind(name, slot);
}

export function insertRanges(db: D1Database, ranges: readonly { from: number; to: number }[], now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ingest_ranges (from_slot, to_slot, state, attempts, updated_at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), 'pending', 0, ?2 FROM json_each(?1) WHERE true
       ON CONFLICT(from_slot) DO NOTHING`,
    )
    .bind(JSON.stringify(ranges.map((r) => [r.from, r.to])), now);
}

/** `touchedAt` 0 makes a pending range stale at once (the next run takes it). */
export async function markRange(db: D1Database, from: number, state: RangeState, touchedAt = Date.now()): Promise<void> {
  await db
    .prepare("UPDATE ingest_ranges SET state = ?2, attempts = attempts + 1, updated_at = ?3 WHERE from_slot = ?1")
    .bind(from, state, touchedAt)
    .run();
}

/** Pending ranges not touched for `staleMs` (a lost message, a consumer that died): handed out again. */
export async function staleRanges(db: D1Database, staleMs: number, max: number): Promise<{ from: number; to: number; attempts: number }[]> {
  const { results } = await db
    .prepare("SELECT from_slot, to_slot, attempts FROM ingest_ranges WHERE state = 'pending' AND updated_at < ? ORDER BY from_slot LIMIT ?")
    .bind(Date.now() - staleMs, max)
    .all<{ from_slot: number; to_slot: number; attempts: number }>();
  return results.map((r) => ({ from: r.from_slot, to: r.to_slot, attempts: r.attempts }));
}

/**
 * The frontier: every block at or below it is stored. Done ranges below the first pending one are deleted (they are
 * needed only to compute this).
 */
export async function advanceFrontier(db: D1Database, dispatched: number): Promise<number> {
  const row = await db.prepare("SELECT min(from_slot) AS first FROM ingest_ranges WHERE state = 'pending'").first<{ first: number | null }>();
  const frontier = row?.first != null ? row.first - 1 : dispatched;
  await db.batch([db.prepare("DELETE FROM ingest_ranges WHERE state = 'done' AND to_slot <= ?").bind(frontier), writeCursor(db, "trades-frontier", frontier)]);
  return frontier;
}
