/**
 * The localnet token world (see world.ts). `createWorld` is synchronous: PDAs are derived with a synchronous
 * implementation of kit's algorithm (core/keys.ts), so genesis and `produceSlot` never wait.
 */
import { TokenWorld, type WorldOptions } from "./world.js";

/** A `World` for the ledger whose manifest has the world's own shape (world/manifest.ts). */
export function createWorld(opts: WorldOptions): TokenWorld {
  return new TokenWorld(opts);
}

export { TokenWorld };
export type { WorldOptions };
