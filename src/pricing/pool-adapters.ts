import type { Address } from "@solana/kit";
import type { DexName } from "./price-record";
import type { AccountBytes, DecimalsOf, PoolCandidate, PoolKind, PoolPrice } from "../venues/types";
import { VenueDecodeError } from "../venues/errors";
import {
  decodePumpBondingCurve,
  listPumpBondingCurveCandidates,
  priceFromPumpBondingCurve,
  requiredAccountsForPumpBondingCurve,
} from "../venues/pump-bonding-curve";
import {
  decodePumpSwapPool,
  listPumpSwapPoolCandidates,
  priceFromPumpSwapPool,
  requiredAccountsForPumpSwapPool,
} from "../venues/pumpswap-pool";
import { findAssociatedTokenAddress, TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS } from "../solana/well-known";

/** Looks an address up in the accounts read so far: undefined = not read yet, null = read and absent. */
export type AccountLookup = (address: Address) => AccountBytes | null | undefined;

export type Evaluation =
  | { readonly kind: "priced"; readonly price: PoolPrice; readonly related: Record<string, Address> }
  | { readonly kind: "needs"; readonly addresses: Address[]; readonly related: Record<string, Address> };

/** Everything the router knows about one pool kind: how to find it, what to read, how to price it. */
export interface PoolAdapter {
  readonly kind: PoolKind;
  readonly dex: DexName;
  /** Pools derivable from the mint alone. */
  candidates(mint: Address): Promise<PoolCandidate[]>;
  /** Related accounts derivable without the pool's bytes, read in the same call as the pool (saves a round trip). */
  speculate(candidate: PoolCandidate, mint: Address): Promise<Address[]>;
  /** Decodes the pool (throws VenueDecodeError on a foreign account) and prices it, or says what it still needs. */
  evaluate(pool: AccountBytes, mint: Address, lookup: AccountLookup, decimalsOf: DecimalsOf): Evaluation;
}

function adapter<S, R extends string>(spec: {
  kind: PoolKind;
  dex: DexName;
  candidates: (mint: Address) => Promise<PoolCandidate[]>;
  speculate?: (candidate: PoolCandidate, mint: Address) => Promise<Address[]>;
  decode: (account: AccountBytes) => S;
  required: (state: S) => Record<R, Address>;
  price: (state: S, mint: Address, related: Record<R, AccountBytes>, decimalsOf: DecimalsOf) => PoolPrice;
}): PoolAdapter {
  return {
    kind: spec.kind,
    dex: spec.dex,
    candidates: spec.candidates,
    speculate: spec.speculate ?? (async () => []),
    evaluate(pool, mint, lookup, decimalsOf) {
      const state = spec.decode(pool);
      const related = spec.required(state);
      const missing: Address[] = [];
      const accounts = {} as Record<R, AccountBytes>;
      for (const role of Object.keys(related) as R[]) {
        const found = lookup(related[role]);
        if (found === undefined) missing.push(related[role]);
        else if (found === null) throw new VenueDecodeError(spec.kind, "value", `related account ${role} missing`);
        else accounts[role] = found;
      }
      if (missing.length > 0) return { kind: "needs", addresses: missing, related };
      return { kind: "priced", price: spec.price(state, mint, accounts, decimalsOf), related };
    },
  };
}

export const poolAdapters: readonly PoolAdapter[] = [
  adapter({
    kind: "pump-bonding-curve",
    dex: "pumpfun",
    candidates: listPumpBondingCurveCandidates,
    decode: decodePumpBondingCurve,
    required: requiredAccountsForPumpBondingCurve,
    price: priceFromPumpBondingCurve,
  }),
  adapter({
    kind: "pumpswap",
    dex: "pumpswap",
    candidates: listPumpSwapPoolCandidates,
    // Vaults are ATAs of the pool; the base mint's token program is unknown before the mint is read, so both.
    speculate: async (c, mint) =>
      Promise.all([
        findAssociatedTokenAddress(c.pool, mint, TOKEN_PROGRAM_ADDRESS),
        findAssociatedTokenAddress(c.pool, mint, TOKEN_2022_PROGRAM_ADDRESS),
        ...(c.quoteMint ? [findAssociatedTokenAddress(c.pool, c.quoteMint, TOKEN_PROGRAM_ADDRESS)] : []),
      ]),
    decode: decodePumpSwapPool,
    required: requiredAccountsForPumpSwapPool,
    price: (state, _mint, related, decimalsOf) => priceFromPumpSwapPool(state, related, decimalsOf),
  }),
];

export const adapterByKind: ReadonlyMap<PoolKind, PoolAdapter> = new Map(poolAdapters.map((a) => [a.kind, a]));
