/**
 * Venues written before they join the one list of pool kinds (pool-kinds.ts): their prices, swaps and pool events carry
 * their own kind word `K` in place of a `PoolKind`. Once `K` is a `PoolKind`, each of these types is the listed one
 * (`WithKind<PoolPrice, K>` is a `PoolPrice`, an `UnlistedPoolAdapter<K>` a `PoolAdapter`), so joining the list is one
 * line there and no change here.
 */
import type { Address } from "@solana/kit";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { definePoolAdapter, type AccountLookup } from "./pool-adapter";
import type { PoolKind } from "./pool-kind-registry";
import type { DecimalsOf, PoolCandidate, PoolLifecycle, PoolPrice, SwapReserves } from "./types";

/** `T` with its `kind` narrowed to the venue's own word. */
export type WithKind<T extends { readonly kind: unknown }, K extends string> = Omit<T, "kind"> & { readonly kind: K };

export type VenuePoolPrice<K extends string> = WithKind<PoolPrice, K>;
export type VenueSwapReserves<K extends string> = WithKind<SwapReserves, K>;
export type VenuePoolLifecycle<K extends string> = WithKind<PoolLifecycle, K>;
export type VenuePoolCandidate<K extends string> = WithKind<PoolCandidate, K>;

export type VenueEvaluation<K extends string> =
  | { readonly kind: "priced"; readonly price: VenuePoolPrice<K>; readonly related: Record<string, Address> }
  | { readonly kind: "needs"; readonly addresses: Address[]; readonly related: Record<string, Address> };

/** `PoolAdapter` of a kind not listed yet; its `dex` word is its kind word (as for every listed venue). */
export interface UnlistedPoolAdapter<K extends string> {
  readonly kind: K;
  readonly dex: K;
  candidates(mint: Address): Promise<VenuePoolCandidate<K>[]>;
  evaluate(pool: AccountBytes, mint: Address, lookup: AccountLookup, decimalsOf: DecimalsOf): VenueEvaluation<K>;
}

/** `definePoolAdapter` for a kind not listed yet: same decode → related → price sequence, same errors. */
export function defineUnlistedPoolAdapter<K extends string, S, R extends string>(spec: {
  kind: K;
  candidates: (mint: Address) => Promise<VenuePoolCandidate<K>[]>;
  decode: (account: AccountBytes) => S;
  required: (state: S) => Record<R, Address>;
  price: (state: S, mint: Address, related: Record<R, AccountBytes>, decimalsOf: DecimalsOf) => VenuePoolPrice<K>;
}): UnlistedPoolAdapter<K> {
  // The listed helper types its kind as PoolKind; the kind word is carried through unchanged, so the casts only
  // restate what `K` already is.
  const adapter = definePoolAdapter<PoolKind, S, R>({
    ...spec,
    kind: spec.kind as unknown as PoolKind,
    candidates: spec.candidates as unknown as (mint: Address) => Promise<PoolCandidate[]>,
    price: spec.price as unknown as (state: S, mint: Address, related: Record<R, AccountBytes>, decimalsOf: DecimalsOf) => PoolPrice,
  });
  return {
    kind: spec.kind,
    dex: spec.kind,
    candidates: spec.candidates,
    evaluate: adapter.evaluate as unknown as UnlistedPoolAdapter<K>["evaluate"],
  };
}

/** Raw 32-byte order of two addresses (Rust `Pubkey` Ord): negative when `a` sorts first. */
export function compareAddressBytes(a: ReadonlyUint8ArrayLike, b: ReadonlyUint8ArrayLike): number {
  for (let i = 0; i < 32; i++) {
    const diff = (a[i] as number) - (b[i] as number);
    if (diff !== 0) return diff;
  }
  return 0;
}
type ReadonlyUint8ArrayLike = { readonly [index: number]: number };
