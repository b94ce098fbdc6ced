/**
 * The pool kinds, declared one by one by the venue files themselves: each `venues/<kind>.ts` adds its kind to
 * `PoolKindRegistry` (a TypeScript declaration merge, no runtime code), so the files below the venue list — the
 * venue's own decoders and readers, the shared types — can name `PoolKind` without importing the list (that would be a
 * circle). venue-list.ts then checks that every declared kind is listed, and everything else derives from the list.
 *
 * A venue file declares its kind with:
 *
 *     declare module "./pool-kind-registry" {
 *       interface PoolKindRegistry { "raydium-cpmm": true }
 *     }
 *
 * Pool kinds are stored in the pool registry (D1) and the candidate cache: append, never rename.
 */

export interface PoolKindRegistry {}

/** Every pool kind a venue file declares. */
export type PoolKind = keyof PoolKindRegistry & string;
