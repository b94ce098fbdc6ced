import type { Address } from "@solana/kit";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import type { PoolKind } from "./pool-kind-registry";
import type { AccountBytes } from "../solana/accounts/account-shape";
import type { DecimalsOf, PoolCandidate, PoolPrice } from "./types";

/** Looks an address up in the accounts read so far: undefined = not read yet, null = read and absent. */
export type AccountLookup = (address: Address) => AccountBytes | null | undefined;

export type Evaluation =
  | { readonly kind: "priced"; readonly price: PoolPrice; readonly related: Record<string, Address> }
  | { readonly kind: "needs"; readonly addresses: Address[]; readonly related: Record<string, Address> };

/** Everything the router knows about one pool kind: how to find it, what to read, how to price it. */
export interface PoolAdapter<K extends PoolKind = PoolKind> {
  readonly kind: K;
  /** Pools derivable from the mint alone. */
  candidates(mint: Address): Promise<PoolCandidate[]>;
  /** Decodes the pool (throws AccountDecodeError on a foreign account) and prices it, or says what it still needs. */
  evaluate(pool: AccountBytes, mint: Address, lookup: AccountLookup, decimalsOf: DecimalsOf): Evaluation;
}

/** For kinds keyed by something other than the mints (a market, a partner config): only the registry finds them. */
export const registryOnlyCandidates = async (): Promise<PoolCandidate[]> => [];

/**
 * The adapter of a kind whose related accounts are known from the pool alone: decode, list the related accounts,
 * say which are still unread, price once all are read. A related account read and absent fails the pool.
 */
export function definePoolAdapter<const K extends PoolKind, S, R extends string>(spec: {
  kind: K;
  candidates: (mint: Address) => Promise<PoolCandidate[]>;
  decode: (account: AccountBytes) => S;
  required: (state: S) => Record<R, Address>;
  price: (state: S, mint: Address, related: Record<R, AccountBytes>, decimalsOf: DecimalsOf) => PoolPrice;
}): PoolAdapter<K> {
  return {
    kind: spec.kind,
    candidates: spec.candidates,
    evaluate(pool, mint, lookup, decimalsOf) {
      const state = spec.decode(pool);
      const related = spec.required(state);
      const missing: Address[] = [];
      const accounts = {} as Record<R, AccountBytes>;
      for (const role of Object.keys(related) as R[]) {
        const found = lookup(related[role]);
        if (found === undefined) missing.push(related[role]);
        else if (found === null) throw new AccountDecodeError(spec.kind, "value", `related account ${role} missing`);
        else accounts[role] = found;
      }
      if (missing.length > 0) return { kind: "needs", addresses: missing, related };
      return { kind: "priced", price: spec.price(state, mint, accounts, decimalsOf), related };
    },
  };
}
