/**
 * Exact quotes: the mint's candidate pools (as pricing finds them, or the one named), read once with the accounts a quote
 * needs besides (fee configs, tick arrays), each pool's swap computed with its program's integer math, and the best.
 * Nothing is cached: a quote is of the state at the slot it names.
 */
import type { Address } from "@solana/kit";
import { ApiError } from "../errors/api-error";
import { isUpstreamError, upstreamApiError } from "../errors/upstream-api-error";
import { limits } from "../limits";
import { compare, div, fromPow10, mul, ratio, type Ratio } from "../math/fixed-point";
import { gatherCandidates } from "../pricing/pool-candidates";
import { quoteUsd } from "../pricing/pool-choice";
import { readAndEvaluate, type Priced } from "../pricing/pool-evaluation";
import type { PriceDeps } from "../pricing/price-query";
import { solUsdFromOracle, solUsdFromPools, type SolUsd } from "../pricing/sol-usd";
import { readAccounts } from "../solana/account-reader";
import { AccountDecodeError } from "../solana/accounts/decode-error";
import { decodeMint, type Mint } from "../solana/accounts/spl-token";
import { parseToken2022MintExtensions, transferFeeAtEpoch } from "../solana/accounts/token-2022-extensions";
import { PYTH_SOL_USD_PRICE_ACCOUNT, TOKEN_2022_PROGRAM_ADDRESS, WELL_KNOWN_DECIMALS } from "../solana/well-known";
import type { PoolKind } from "../venues/pool-kinds";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { amountInAtoms, unitInQuoteAtoms, type DecimalAmount, type QuoteSide, type QuoteUnit } from "./quote-amount";
import { QuoteRefusal, type FeeLine, type Lookup, type PoolQuoter, type QuoteContext, type SwapResult } from "./pool-quoter";
import { quoterByKind } from "./quoters";
import { PUMP_FEE_CONFIG_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS } from "../venues/pump-fees";
import { PUMPSWAP_GLOBAL_CONFIG_ADDRESS } from "./reserve-quoters";
import { U64_MAX, ceilDiv } from "./swap-math";

export interface QuoteRequest {
  readonly mint: Address;
  readonly side: QuoteSide;
  readonly amount: DecimalAmount;
  readonly unit: QuoteUnit;
  readonly poolId?: Address;
  readonly slippageBps: number;
}

export interface TokenAmount {
  readonly mint: Address;
  readonly raw: bigint;
  readonly decimals: number;
}

export interface PoolQuote {
  readonly pool: Address;
  readonly kind: PoolKind;
  readonly exactOutput: boolean;
  readonly amountIn: TokenAmount;
  readonly amountOut: TokenAmount;
  readonly minimumReceived: TokenAmount;
  readonly fees: readonly (FeeLine & { decimals: number })[];
  /** quote per token in human units (the token asked about as base) */
  readonly spotPrice: Ratio;
  readonly executionPrice: Ratio;
  readonly priceAfter: Ratio;
  /** how much worse than spot the trade's own price is, fees included, in percent */
  readonly priceImpactPct: Ratio;
  readonly reach: string;
  /** the output's value in USD, to rank pools of different quote mints (exact output: the input's) */
  readonly rankUsd: Ratio | undefined;
}

export interface PoolRefusal {
  readonly pool: Address;
  readonly kind: PoolKind;
  readonly reason: string;
  readonly depth?: TokenAmount;
}

export interface QuoteAnswer {
  readonly mint: Address;
  readonly slot: number;
  readonly solUsd: Ratio;
  readonly quotes: PoolQuote[];
  readonly refused: PoolRefusal[];
  readonly best: PoolQuote;
  /** What the quotes were computed from, for receipts (quote-receipt.ts): the accounts read and where SOL/USD came from. */
  readonly read: QuoteRead;
}

/** The accounts a quote read (both reads), the slot each was read at, the pools priced and the SOL/USD source. */
export interface QuoteRead {
  readonly lookup: Lookup;
  readonly slotOf: (address: Address) => number;
  readonly priced: readonly Priced[];
  readonly mintInfo: Mint;
  readonly solUsd: SolUsd;
  readonly contextOf: (p: Priced) => QuoteContext;
}

/** Solana mainnet's epoch length in slots (no warm-up): a Token-2022 transfer fee changes at epoch boundaries. */
const SLOTS_PER_EPOCH = 432_000n;
const BPS = 10_000n;

/** Quotes `request` on every candidate pool of the mint (or the named one) and picks the best. */
export async function quoteMint(deps: PriceDeps, request: QuoteRequest): Promise<QuoteAnswer> {
  try {
    return await quoteUnguarded(deps, request);
  } catch (err) {
    if (isUpstreamError(err)) throw upstreamApiError(err);
    throw err;
  }
}

async function quoteUnguarded(deps: PriceDeps, request: QuoteRequest): Promise<QuoteAnswer> {
  const now = deps.now ?? Date.now;
  const { mint } = request;
  const gathered = await gatherCandidates(deps, [mint], { poolId: request.poolId }, now);
  // The pump programs' fee configs are fixed accounts: read with the pools when one may be of that kind, not a read later
  const candidates = [...gathered.candidatesByMint.values()].flat();
  const mayBe = (kind: PoolKind) => candidates.some((c) => c.adapter === undefined || c.adapter.kind === kind);
  const extra: Address[] = [PYTH_SOL_USD_PRICE_ACCOUNT];
  if (mayBe("pumpswap")) extra.push(PUMPSWAP_GLOBAL_CONFIG_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS);
  if (mayBe("pump-bonding-curve")) extra.push(PUMP_FEE_CONFIG_ADDRESS);
  const read = await readAndEvaluate(deps, [mint], gathered.candidatesByMint, gathered.adapters, extra);
  const evaluation = read.evaluations[0]!;
  if (evaluation.mintError) throw evaluation.mintError;
  const mintInfo = evaluation.mintInfo!;
  if (evaluation.priced.length === 0) {
    const why = [...evaluation.refusals];
    if (evaluation.needs.length > 0) why.push(`related accounts still unread (${evaluation.needs.slice(0, 2).join(", ")})`);
    if (request.poolId) {
      throw new ApiError("BAD_REQUEST", `Invalid poolId: ${request.poolId} is not a pool of ${mint} that can be read${why.length > 0 ? ` (${why.slice(0, 3).join("; ")})` : ": no such account"}`);
    }
    throw new ApiError("NOT_FOUND", `No quote for ${mint}: ${why.length > 0 ? why.slice(0, 5).join("; ") : "no pool found"}`);
  }
  const tokenAtoms = request.unit === "token" ? amountInAtoms(request.amount, mintInfo.decimals, `the token (${mint})`) : undefined;
  const solUsd = solUsdFromOracle(read.lookup(PYTH_SOL_USD_PRICE_ACCOUNT), now()) ?? (await solUsdFromPools(deps, now()));
  if (!solUsd) throw new ApiError("UPSTREAM_UNAVAILABLE", "SOL/USD price is unavailable: oracle stale and no SOL/USDC pool");
  const solUsdPrice = solUsd.price;

  // Second read: what quotes need besides what pricing read (fee configs, tick arrays, quote mints for transfer fees).
  const accounts = new Map<Address, AccountBytes | null>();
  const lookup: Lookup = (a) => (accounts.has(a) ? accounts.get(a) : read.lookup(a));
  const readAt = new Map<Address, number>(); // the second read's slots, for receipts
  const slotOf = (a: Address) => readAt.get(a) ?? read.slotOf(a);
  let slot = read.slot;
  const refused: PoolRefusal[] = [];
  const pools = evaluation.priced;
  const inputOf = (p: Priced) => (request.side === "buy" ? p.price.quoteMint : mint);
  const contextOf = (p: Priced) => ({ mint, inputMint: inputOf(p), lookup, slot });
  for (let pass = 0; pass < 2; pass++) {
    const wanted = new Set<Address>();
    for (const p of pools) {
      const account = lookup(p.pool);
      if (!account) continue;
      try {
        for (const a of await quoterByKind[p.adapter.kind].extraAccounts(p.pool, account, contextOf(p))) wanted.add(a);
      } catch {
        // the build below says why
      }
      if (lookup(p.price.quoteMint) === undefined && !WELL_KNOWN_DECIMALS.has(p.price.quoteMint)) wanted.add(p.price.quoteMint);
    }
    if (wanted.size === 0) break;
    const more = await readAccounts(deps.rpc, [...wanted], { requestId: deps.requestId });
    for (const [a, acc] of more.accounts) {
      accounts.set(a, acc);
      readAt.set(a, more.slot);
    }
    slot = Math.min(slot, more.slot);
  }

  const epoch = BigInt(slot) / SLOTS_PER_EPOCH;
  const transferFee = transferFeeOf(lookup, epoch);
  const decimalsOf = (m: Address): number => (m === mint ? mintInfo.decimals : (WELL_KNOWN_DECIMALS.get(m) ?? decimalsFromAccount(lookup(m))));

  const quotes: PoolQuote[] = [];
  for (const p of pools) {
    const label = { pool: p.pool, kind: p.adapter.kind };
    let quoter: PoolQuoter;
    try {
      quoter = quoterByKind[p.adapter.kind].build(p.pool, lookup(p.pool)!, { ...contextOf(p), slot });
    } catch (err) {
      if (!(err instanceof QuoteRefusal || err instanceof AccountDecodeError)) throw err;
      refused.push({ ...label, reason: err.message });
      continue;
    }
    try {
      quotes.push(...quoteOnePool(p, quoter));
    } catch (err) {
      if (!(err instanceof QuoteRefusal)) throw err;
      refused.push({ ...label, reason: err.message });
    }
  }
  function quoteOnePool(p: Priced, quoter: PoolQuoter): PoolQuote[] {
    const label = { pool: p.pool, kind: p.adapter.kind };
    const quoteMintOfPool = p.price.quoteMint;
    const inputMint = inputOf(p);
    const outputMint = request.side === "buy" ? mint : quoteMintOfPool;
    const exactOutput = (request.side === "buy") === (request.unit === "token");
    const size =
      request.unit === "token" ? tokenAtoms! : unitInQuoteAtoms(request.amount, request.unit, quoteMintOfPool, solUsdPrice);
    if (size === undefined) {
      refused.push({ ...label, reason: `the pool is quoted in ${quoteMintOfPool}: give a ${request.unit.toUpperCase()} size on a SOL-, USDC- or USDT-quoted pool, or the amount in tokens` });
      return [];
    }
    if (size === 0n || size > U64_MAX) {
      refused.push({ ...label, reason: size === 0n ? "the amount is less than one atom of the pool's quote token" : "the amount is beyond u64 in the pool's quote token" });
      return [];
    }
    const swapOf = (userIn: bigint) => userSwap(quoter, inputMint, outputMint, userIn, transferFee);
    const outcome = exactOutput ? searchExactOutput(swapOf, size) : swapOf(size);
    if (!outcome.ok) {
      const depth = outcome.depth === undefined ? undefined : { mint: inputMint, raw: outcome.depth, decimals: decimalsOf(inputMint) };
      refused.push({ ...label, reason: outcome.reason, ...(depth ? { depth } : {}) });
      return [];
    }
    const { userIn, userOut, swap, fees } = outcome;
    const inDecimals = decimalsOf(inputMint);
    const outDecimals = decimalsOf(outputMint);
    const quoteDecimals = decimalsOf(quoteMintOfPool);
    // human quote per token from a raw price of mints[1] per mints[0]
    const human = (raw: Ratio) => {
      const perToken = quoter.mints[0] === mint ? raw : { num: raw.den, den: raw.num };
      return mul(perToken, fromPow10(mintInfo.decimals - quoteDecimals));
    };
    const [tokenRaw, quoteRaw] = request.side === "buy" ? [userOut, userIn] : [userIn, userOut];
    const executionPrice = mul(ratio(quoteRaw, tokenRaw), fromPow10(mintInfo.decimals - quoteDecimals));
    const spotPrice = human(quoter.spot);
    const worse = request.side === "buy" ? div(executionPrice, spotPrice) : div(spotPrice, executionPrice);
    const priceImpactPct = mul(ratio(worse.num - worse.den, worse.den), ratio(100n));
    const rankMint = exactOutput ? inputMint : outputMint;
    const rankRaw = exactOutput ? userIn : userOut;
    const usdPer = rankMint === mint ? undefined : quoteUsd(rankMint, solUsdPrice);
    return [{
      pool: p.pool,
      kind: p.adapter.kind,
      exactOutput,
      amountIn: { mint: inputMint, raw: userIn, decimals: inDecimals },
      amountOut: { mint: outputMint, raw: userOut, decimals: outDecimals },
      minimumReceived: { mint: outputMint, raw: (userOut * (BPS - BigInt(request.slippageBps))) / BPS, decimals: outDecimals },
      fees: fees.filter((f) => f.amount > 0n).map((f) => ({ ...f, decimals: decimalsOf(f.mint) })),
      spotPrice,
      executionPrice,
      priceAfter: human(swap.priceAfter),
      priceImpactPct,
      reach: quoter.reach,
      rankUsd: rankMint === mint ? ratio(rankRaw) : usdPer ? mul(ratio(rankRaw, 10n ** BigInt(decimalsOf(rankMint))), usdPer) : undefined,
    }];
  }

  const best = pickBestQuote(quotes);
  if (!best) {
    const depths = refused.filter((r) => r.depth !== undefined);
    const reasons = refused.map((r) => `pool ${r.pool} (${r.kind}): ${r.reason}${r.depth ? ` (depth read: ${r.depth.raw} atoms of ${r.depth.mint})` : ""}`);
    if (depths.length > 0) throw new ApiError("UNPROCESSABLE", `No pool of ${mint} fills this size: ${reasons.slice(0, 5).join("; ")}`);
    throw new ApiError(request.poolId ? "UNPROCESSABLE" : "NOT_FOUND", `No quote for ${mint}: ${reasons.slice(0, 5).join("; ") || "no pool found"}`);
  }
  return { mint, slot, solUsd: solUsd.price, quotes, refused, best, read: { lookup, slotOf, priced: pools, mintInfo, solUsd, contextOf: (p) => ({ ...contextOf(p), slot }) } };
}

/** Most out for an exact input, least in for an exact output — valued in USD across quote mints, in tokens within the asked mint. */
function pickBestQuote(quotes: PoolQuote[]): PoolQuote | undefined {
  let best: PoolQuote | undefined;
  for (const q of quotes) {
    if (!q.rankUsd) continue;
    if (!best) {
      best = q;
      continue;
    }
    const order = compare(q.rankUsd, best.rankUsd!);
    if (q.exactOutput ? order < 0 : order > 0) best = q;
  }
  return best ?? quotes[0];
}

type UserSwap = { ok: true; userIn: bigint; userOut: bigint; swap: Extract<SwapResult, { ok: true }>["swap"]; fees: FeeLine[] } | Extract<SwapResult, { ok: false }>;

/** The swap as the user sees it: the input's transfer fee comes off before the pool, the output's after it. */
function userSwap(quoter: PoolQuoter, inputMint: Address, outputMint: Address, userIn: bigint, transferFee: (mint: Address, amount: bigint) => bigint): UserSwap {
  const feeIn = transferFee(inputMint, userIn);
  const result = quoter.exactIn(inputMint, userIn - feeIn);
  if (!result.ok) return result;
  const { swap } = result;
  const feeOut = transferFee(outputMint, swap.amountOut);
  const fees: FeeLine[] = [...swap.fees];
  if (feeIn > 0n) fees.push({ kind: "transfer", mint: inputMint, amount: feeIn });
  if (feeOut > 0n) fees.push({ kind: "transfer", mint: outputMint, amount: feeOut });
  // a budget buy may use less than it was given; what it used is what the user pays
  const paid = swap.amountIn < userIn - feeIn ? swap.amountIn + feeIn : userIn;
  return { ok: true, userIn: paid, userOut: swap.amountOut - feeOut, swap, fees };
}

/**
 * An exact output as the least input whose exact-input swap gives at least `target`: doubling from one atom until one
 * does (or the state read refuses the size: then its depth is tried), then halving; each step is the program's own swap.
 * The input found is what a trader sends as an exact-input swap (a budget buy may use less of it: `amountIn` says so
 * only for exact inputs).
 */
function searchExactOutput(swapOf: (userIn: bigint) => UserSwap, target: bigint): UserSwap {
  let low = 0n; // gives less than target, or is refused as too small
  let high = 1n;
  let found: Extract<UserSwap, { ok: true }> | undefined;
  for (let steps = 0; !found; steps++) {
    if (steps >= limits.maxQuoteSearchSteps) return { ok: false, reason: "no input size found that gives that much" };
    const attempt = swapOf(high);
    if (attempt.ok && attempt.userOut >= target) found = attempt;
    else if (!attempt.ok && attempt.depth !== undefined) {
      // past what the state read can take: the most it takes either suffices or says how much it gives
      const most = attempt.depth > low ? swapOf(attempt.depth) : undefined;
      if (!most?.ok || most.userOut < target) {
        return { ok: false, reason: most?.ok ? `the state read gives at most ${most.userOut} atoms out` : attempt.reason, depth: attempt.depth };
      }
      high = attempt.depth;
      found = most;
    } else {
      low = high;
      if (high === U64_MAX) return { ok: false, reason: "no input up to 2^64 − 1 gives that much" };
      high = high * 2n > U64_MAX ? U64_MAX : high * 2n;
    }
  }
  for (let steps = 0; steps < limits.maxQuoteSearchSteps && high - low > 1n; steps++) {
    const middle = low + (high - low) / 2n;
    const attempt = swapOf(middle);
    if (attempt.ok && attempt.userOut >= target) {
      high = middle;
      found = attempt;
    } else low = middle;
  }
  return { ...found, userIn: high };
}

/** The Token-2022 transfer fee a transfer of `amount` of `mint` pays (epoch schedule applied), 0 for other mints. */
function transferFeeOf(lookup: Lookup, epoch: bigint): (mint: Address, amount: bigint) => bigint {
  const memo = new Map<Address, ((amount: bigint) => bigint) | null>();
  return (mint, amount) => {
    if (!memo.has(mint)) {
      const account = lookup(mint);
      let fee: ((amount: bigint) => bigint) | null = null;
      if (account && account.owner === TOKEN_2022_PROGRAM_ADDRESS) {
        const config = parseToken2022MintExtensions(account.data).transferFeeConfig;
        if (config) {
          const { transferFeeBasisPoints: bps, maximumFee } = transferFeeAtEpoch(config, epoch);
          // spl-token-2022 calculate_fee: ⌈amount · bps / 10 000⌉, at most maximum_fee
          fee = bps === 0 ? null : (x) => (x === 0n ? 0n : minBig(ceilDiv(x * BigInt(bps), BPS), maximumFee));
        }
      }
      memo.set(mint, fee);
    }
    const fee = memo.get(mint);
    return fee ? fee(amount) : 0n;
  };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

function decimalsFromAccount(account: AccountBytes | null | undefined): number {
  if (!account) throw new QuoteRefusal("a mint of the pool was not read");
  return decodeMint(account).decimals;
}

