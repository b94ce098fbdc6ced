/**
 * What the trade index knows of a token's launch and of its creator's trading, from one D1 batch:
 *
 * - the creation slot: the slot of the launchpad's create instruction (a pump.fun curve, a Meteora DBC pool or a Raydium
 *   LaunchLab pool), as the index registered it (`pools.source = 'creation'`, migrations/0001);
 * - the trades of the sniper window (creation slot .. + `limits.security.sniperWindowSlots`);
 * - the creator wallet's trades of the mint;
 * - what bounds the index's view: its oldest kept trade (retention), blocks it failed to read in the window, and its
 *   frontier (the window may not be read yet).
 *
 * The wallet of a trade is the signer whose token balance moved (trades/trade.ts). Pure figures from rows are below
 * the reads so they can be checked alone.
 */
import type { Address } from "@solana/kit";
import { z } from "zod/mini";

import { limits } from "../limits";

/** Pool kinds a launchpad creates a token with (their create is the token's launch). */
const LAUNCHPAD_KINDS = ["pump-bonding-curve", "meteora-dbc", "raydium-launchlab"] as const;

const tradeRowSchema = z.object({ slot: z.number(), wallet: z.string(), side: z.enum(["buy", "sell"]), base_amount: z.string().check(z.regex(/^\d+$/)) });
export type LaunchTradeRow = { slot: number; wallet: string; side: "buy" | "sell"; amount: bigint };

export type LaunchIndexFacts = {
  creationSlot: number | null;
  /** Trades of the sniper window, oldest first (empty when the creation slot is unknown). */
  windowTrades: LaunchTradeRow[];
  /** The creator's trades of the mint (empty when the creator is unknown). */
  creatorTrades: LaunchTradeRow[];
  /** The oldest slot whose trades the index still keeps; null when it keeps none. */
  oldestSlot: number | null;
  /** Slots of the window the index could not read. */
  failedSlots: number;
  /** The slot up to which the index has read every block; null before its first run. */
  frontier: number | null;
};

const rowsOf = (results: unknown[]): LaunchTradeRow[] =>
  results.flatMap((raw) => {
    const row = tradeRowSchema.safeParse(raw);
    return row.success ? [{ slot: row.data.slot, wallet: row.data.wallet, side: row.data.side, amount: BigInt(row.data.base_amount) }] : [];
  });

const slotOf = (raw: unknown, key: string): number | null => {
  const value = (raw as Record<string, unknown> | null)?.[key];
  return typeof value === "number" ? value : null;
};

/** Reads the launch and creator facts of `mint` (two D1 round trips: the creation slot, then the rest in one batch). */
export async function readLaunchIndexFacts(db: D1Database, mint: Address, creator: Address | null): Promise<LaunchIndexFacts> {
  const kinds = JSON.stringify(LAUNCHPAD_KINDS);
  const [created, oldest, frontier] = await db.batch([
    db
      .prepare("SELECT min(first_slot) AS slot FROM pools WHERE base_mint = ?1 AND source = 'creation' AND kind IN (SELECT value FROM json_each(?2))")
      .bind(mint, kinds),
    db.prepare("SELECT slot FROM trades ORDER BY slot LIMIT 1"),
    db.prepare("SELECT slot FROM ingest_cursor WHERE name = 'trades-frontier'"),
  ]);
  const creationSlot = slotOf(created?.results[0] ?? null, "slot");
  const windowEnd = creationSlot === null ? null : creationSlot + limits.security.sniperWindowSlots;
  const statements: D1PreparedStatement[] = [];
  if (creationSlot !== null) {
    statements.push(
      db
        .prepare("SELECT slot, wallet, side, base_amount FROM trades WHERE mint = ?1 AND slot BETWEEN ?2 AND ?3 ORDER BY slot, tx_index, ordinal LIMIT ?4")
        .bind(mint, creationSlot, windowEnd, limits.security.maxLaunchTrades),
      db.prepare("SELECT count(*) AS n FROM ingest_failures WHERE slot BETWEEN ?1 AND ?2").bind(creationSlot, windowEnd),
    );
  }
  if (creator !== null) {
    statements.push(
      db
        .prepare("SELECT slot, wallet, side, base_amount FROM trades WHERE wallet = ?1 AND mint = ?2 ORDER BY slot DESC, tx_index DESC, ordinal DESC LIMIT ?3")
        .bind(creator, mint, limits.security.maxLaunchTrades),
    );
  }
  const more = statements.length > 0 ? await db.batch(statements) : [];
  const windowTrades = creationSlot !== null ? rowsOf(more[0]!.results) : [];
  const failedSlots = creationSlot !== null ? (slotOf(more[1]!.results[0] ?? null, "n") ?? 0) : 0;
  const creatorTrades = creator !== null ? rowsOf(more[creationSlot !== null ? 2 : 0]!.results) : [];
  return {
    creationSlot,
    windowTrades,
    creatorTrades,
    oldestSlot: slotOf(oldest?.results[0] ?? null, "slot"),
    failedSlots,
    frontier: slotOf(frontier?.results[0] ?? null, "slot"),
  };
}

/** Buyers of a group: wallet → what they bought, in first-buy order. */
export function buyersOf(rows: readonly LaunchTradeRow[], exclude: string | null): Map<string, bigint> {
  const buyers = new Map<string, bigint>();
  for (const row of rows) {
    if (row.side !== "buy" || row.wallet === exclude) continue;
    buyers.set(row.wallet, (buyers.get(row.wallet) ?? 0n) + row.amount);
  }
  return buyers;
}

/** Bought and sold by the creator (sums of its trades). */
export function creatorFlows(rows: readonly LaunchTradeRow[]): { bought: bigint; sold: bigint } {
  let bought = 0n;
  let sold = 0n;
  for (const row of rows) {
    if (row.side === "buy") bought += row.amount;
    else sold += row.amount;
  }
  return { bought, sold };
}
