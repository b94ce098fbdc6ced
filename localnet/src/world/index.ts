/**
 * The localnet token world (see world.ts). `createWorld` is synchronous: PDAs are derived with a synchronous
 * implementation of kit's algorithm (core/keys.ts), so genesis and `produceSlot` never wait.
 */
import type { World } from "../chain/types.js";
import { TokenWorld, type WorldOptions } from "./world.js";

export function createWorld(opts: WorldOptions): World {
  return new TokenWorld(opts);
}

export { TokenWorld };
export type { WorldOptions };
