/**
 * Reading and evaluating candidate pools: one batched account read, each pool decoded and priced by its adapter (or
 * told what it still needs), further reads only for what is still needed. Pools that exist but cannot be priced say why.
 */
import type { Address } from "@solana/kit";
import { ApiError } from "../errors/api-error";
import { noTimings } from "../http/server-timing";
import { limits } from "../limits";
import { readAccounts } from "../solana/account-reader";
import { WELL_KNOWN_DECIMALS } from "../solana/well-known";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { priceOfMint } from "../venues/pool-price";
import { decodeMint, type Mint } from "../solana/accounts/spl-token";
import type { AccountBytes } from "../solana/accounts/account-shape";
import type { PoolPrice } from "../venues/types";
import { dexOfPoolKind } from "../venues/pool-kinds";
import type { AccountLookup, PoolAdapter } from "../venues/pool-adapter";
import { SYSVAR_CLOCK_ADDRESS } from "../solana/accounts/clock-sysvar";
import { chainNowOf, notOpenYet, type ChainNow } from "./pool-activation";
import { STAKE_POOL_LSTS } from "../venues/stake-pool-price";
import { relatedOf, rememberRelated, type Candidate } from "./pool-candidates";
import type { PriceDeps } from "./price-query";

const readOptions = (deps: PriceDeps) => ({ requestId: deps.requestId, commitment: deps.commitment });

/**
 * One batched read of every mint, candidate pool and known related account (plus `extra` and the Clock sysvar: a pool
 * not yet open for swaps is passed over, pool-activation.ts), then evaluation; further
 * reads only for what evaluation says it still needs (a non-standard quote mint, vaults of a never-seen pool, DAMM v1's
 * vault LP mints) — at most `maxPriceReadPasses` in all. What is learned is remembered, so the next cold read is one.
 */
export async function readAndEvaluate(deps: PriceDeps, mints: Address[], candidatesByMint: Map<Address, Candidate[]>, adapters: readonly PoolAdapter[], extra: Address[]) {
  const addresses: Address[] = [SYSVAR_CLOCK_ADDRESS, ...extra];
  for (const [mint, list] of candidatesByMint) {
    addresses.push(mint);
    for (const c of list) addresses.push(c.pool, ...c.alsoRead, ...(relatedOf(c.pool) ?? []));
  }
  const timings = deps.timings ?? noTimings;
  const snapshot = await timings.time("upstream", () => readAccounts(deps.rpc, [...new Set(addresses)], readOptions(deps)));
  const accounts = new Map(snapshot.accounts);
  const lookup: AccountLookup = (a) => accounts.get(a);
  // The context slot each account was read at, for receipts (price-receipt.ts): later passes may read at a later slot.
  const readAt = new Map<Address, number>();
  const slotOf = (a: Address): number => readAt.get(a) ?? snapshot.slot;
  let slot = snapshot.slot;
  const now = chainNowOf(lookup(SYSVAR_CLOCK_ADDRESS), snapshot.slot, (deps.now ?? Date.now)());
  let evaluations = timings.timeSync("decode", () => evaluateAll(mints, candidatesByMint, lookup, adapters, now, deps.quoteHop === true));
  for (let pass = 1; pass < limits.maxPriceReadPasses; pass++) {
    const needed = [...new Set(evaluations.flatMap((e) => e.needs))].filter((a) => !accounts.has(a));
    if (needed.length === 0) break;
    const more = await timings.time("upstream", () => readAccounts(deps.rpc, needed, readOptions(deps)));
    for (const [a, acc] of more.accounts) {
      accounts.set(a, acc);
      readAt.set(a, more.slot);
    }
    slot = Math.min(slot, more.slot);
    evaluations = timings.timeSync("decode", () => evaluateAll(mints, candidatesByMint, lookup, adapters, now, deps.quoteHop === true));
  }
  return { evaluations, lookup, slot, slotOf };
}

export interface Priced {
  adapter: PoolAdapter;
  pool: Address;
  price: PoolPrice; // oriented: base = the requested mint
  /** decimals of `price.quoteMint`, for the quote side's USD depth (NaN inside a hop for a quote that is never used) */
  quoteDecimals: number;
}

export interface MintEvaluation {
  mint: Address;
  mintInfo?: Mint;
  mintError?: ApiError;
  priced: Priced[];
  needs: Address[];
  /** Why existing candidate pools could not be priced, for the 404 message. */
  refusals: string[];
}

function evaluateAll(mints: Address[], candidatesByMint: Map<Address, Candidate[]>, lookup: AccountLookup, adapters: readonly PoolAdapter[], now: ChainNow, hop: boolean): MintEvaluation[] {
  return mints.map((mint) => evaluateMint(mint, candidatesByMint.get(mint) ?? [], lookup, adapters, now, hop));
}

/**
 * `hop`: the mint is a quote token priced for another token's pool, so its own pools quoted in tokens other than SOL,
 * the dollar stables and the stake-pool LSTs are never used (one hop only): their quote's decimals are not read.
 */
function evaluateMint(mint: Address, candidates: Candidate[], lookup: AccountLookup, adapters: readonly PoolAdapter[], now: ChainNow, hop: boolean): MintEvaluation {
  const result: MintEvaluation = { mint, priced: [], needs: [], refusals: [] };
  const mintAccount = lookup(mint);
  if (!mintAccount) {
    result.mintError = new ApiError("NOT_FOUND", `Unknown mint ${mint}: no such account`);
    return result;
  }
  try {
    result.mintInfo = decodeMint(mintAccount);
  } catch {
    result.mintError = new ApiError("NOT_FOUND", `${mint} is not a token mint`);
    return result;
  }
  const decimalsOf = (m: Address): number => {
    if (m === mint) return result.mintInfo!.decimals;
    const known = WELL_KNOWN_DECIMALS.get(m);
    if (known !== undefined) return known;
    const acc = lookup(m);
    if (acc === undefined) throw new NeedAccount(m);
    if (acc === null) throw new AccountDecodeError("Mint", "value", `quote mint ${m} missing`);
    return decodeMint(acc).decimals;
  };

  for (const c of candidates) {
    const account = lookup(c.pool);
    if (!account) continue;
    const errors: AccountDecodeError[] = [];
    for (const adapter of c.adapter ? [c.adapter] : adapters) {
      try {
        const evaluation = adapter.evaluate(account, mint, lookup, decimalsOf);
        if (evaluation.kind === "needs") {
          rememberRelated(c.pool, Object.values(evaluation.related));
          result.needs.push(...evaluation.addresses);
        } else {
          const price = priceOfMint(evaluation.price, mint);
          // A pool quoted in a stake-pool LST is priced through the pool's rate: its account rides with the pool's
          // related accounts, so the next cold read of this pool reads it in the same batch.
          const stakeAccount = STAKE_POOL_LSTS.get(price.quoteMint)?.account;
          // So is the quote's mint when its decimals are not well known (USD1, a memecoin: the USD depth needs them).
          const quoteMintRead = WELL_KNOWN_DECIMALS.has(price.quoteMint) ? [] : [price.quoteMint];
          rememberRelated(c.pool, [...Object.values(evaluation.related), ...quoteMintRead, ...(stakeAccount ? [stakeAccount] : [])]);
          if (stakeAccount && lookup(stakeAccount) === undefined) result.needs.push(stakeAccount);
          const closed = notOpenYet(adapter.kind, c.pool, account, now, lookup);
          const unused = hop && quoteMintRead.length > 0 && !stakeAccount;
          if (closed) result.refusals.push(closed);
          else result.priced.push({ adapter, pool: c.pool, price, quoteDecimals: unused ? Number.NaN : decimalsOf(price.quoteMint) });
        }
        break;
      } catch (err) {
        if (err instanceof NeedAccount) {
          result.needs.push(err.address);
          break;
        }
        if (!(err instanceof AccountDecodeError)) throw err;
        // not this kind (or an unpriceable pool): try the next adapter / candidate
        errors.push(err);
      }
    }
    const refusal = refusalOf(c, account, errors, c.adapter ? [c.adapter] : adapters);
    if (refusal) result.refusals.push(refusal);
  }
  return result;
}

/**
 * Why an existing pool account was not priced, when no adapter took it: the error of the kind whose program owns it
 * (a wrong size, a vault of another mint, an empty reserve), or, for a named pool owned by none, whose it is.
 */
function refusalOf(c: Candidate, account: AccountBytes, errors: AccountDecodeError[], tried: readonly PoolAdapter[]): string | undefined {
  if (errors.length < tried.length) return undefined; // priced, or waiting for more accounts
  const telling = errors.find((e) => e.reason !== "owner");
  if (telling) return `pool ${c.pool}: ${telling.message}`;
  // A derived address owned by another program is only a PDA collision: not worth a line unless the caller named it.
  if (c.adapter) return undefined;
  return `pool ${c.pool} is owned by ${account.owner}, not by a program of ${[...new Set(tried.map((a) => dexOfPoolKind[a.kind]))].join(", ")}`;
}

class NeedAccount extends Error {
  constructor(readonly address: Address) {
    super(`need ${address}`);
  }
}
