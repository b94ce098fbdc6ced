import { z } from "zod/mini";

/**
 * Where one publish of the chain tail sits in its output: block `slot`, `part` 0 (the block's trades, wallet changes
 * and new pairs) or 1 (its price records). The tail writes its cursor after a block's publishes; if it dies in between,
 * it publishes that block again on restart. A room remembers the last position it took and drops one at or before it,
 * so a client gets each event once. `epoch` names the tail's run of positions: it changes whenever the tail's cursor is
 * set afresh (first start, idle restart, a restarted cluster whose slots begin lower), which starts a new order.
 */
export const publishPositionSchema = z.object({
  epoch: z.string().check(z.minLength(1), z.maxLength(64)),
  slot: z.number().check(z.int(), z.nonnegative()),
  part: z.number().check(z.int(), z.nonnegative(), z.lte(1)),
  /**
   * `processed`: the tail's second output, what it reads at processed (price records of processed subscriptions at
   * part 0, corrections of dropped slots at part 1), ordered on its own; absent: the confirmed blocks' output.
   */
  stream: z.optional(z.literal("processed")),
});
export type PublishPosition = z.infer<typeof publishPositionSchema>;
/** The output a position belongs to. */
export type PublishStream = "confirmed" | "processed";
export const streamOfPosition = (position: PublishPosition): PublishStream => position.stream ?? "confirmed";

/** Whether a room whose last taken publish of the same output (`streamOfPosition`) was `last` should take `next`. */
export function isNewPosition(last: PublishPosition | null, next: PublishPosition): boolean {
  if (last === null || last.epoch !== next.epoch || streamOfPosition(last) !== streamOfPosition(next)) return true;
  return next.slot > last.slot || (next.slot === last.slot && next.part > last.part);
}

/** A fresh epoch: random, so two tails (or one restarted) never share one by accident. */
export function newEpoch(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
