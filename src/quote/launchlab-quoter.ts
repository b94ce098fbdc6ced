/**
 * Raydium LaunchLab: a bonding curve selling the base token for the quote token, its curve set by the GlobalConfig's
 * `curve_type`, as raydium-sdk-V2 0.2.58-alpha @124c625 `src/raydium/launchpad/curve/*.ts` computes it (the program's
 * source is not public; its SDK is Raydium's own statement of its math), written here as our own code:
 * - constant product on virtual + real reserves: buy out = ⌊in·(vA − rA) / (vB + rB + in)⌋, sell out =
 *   ⌊in·(vB + rB) / (vA − rA + in)⌋; the quote a base amount costs ⌈(vB + rB)·out / (vA − rA − out)⌉;
 * - fixed price vB/vA: buy ⌊in·vA / vB⌋, sell ⌊in·vB / vA⌋, cost ⌈vB·out / vA⌉;
 * - linear price a·x/2^64 (a = `virtual_base`): a buy reaches x₁ = √(2·(rB + in)·2^64 / a) (integer part of the quotient,
 *   the root rounded to the nearest integer, halves up) and pays out x₁ − rA; a sell leaves
 *   ⌈a·(rA − in)² / 2^65⌉ of quote in the curve and pays out the rest of rB; cost ⌈a·(rA + out)² / 2^65⌉ − rB.
 * Fees come off the quote side at the sum of the GlobalConfig's `trade_fee_rate` (protocol), the PlatformConfig's
 * `fee_rate` (platform) and `creator_fee_rate` (creator), in millionths: one fee ⌈amount·rate / 1e6⌉ on a buy's input or
 * a sell's proceeds, split ⌊fee·platform/rate⌋ and ⌊fee·creator/rate⌋ with the rest to the protocol (a referral
 * `share_fee_rate` is the caller's choice, 0 here). A buy that would take more base than is left for sale takes what is
 * left, for the quote that costs plus its fee ⌈net·1e6 / (1e6 − rate)⌉. Swaps need status 0; a sell can return at most
 * the base sold so far.
 */
import { ratio, type Ratio } from "../math/fixed-point";
import {
  decodeRaydiumLaunchLabGlobalConfig,
  decodeRaydiumLaunchLabPlatformConfig,
  decodeRaydiumLaunchLabPool,
  LAUNCHLAB_FEE_RATE_DENOMINATOR,
  launchLabCurveType,
  type LaunchLabCurveType,
  type RaydiumLaunchLabPool,
} from "../venues/raydium-launchlab";
import { required, type FeeLine, type QuoterSpec, type SwapResult } from "./pool-quoter";
import { ceilDiv, Q64 } from "./swap-math";
import { isqrt } from "../math/integer-sqrt";

type Curve = Pick<RaydiumLaunchLabPool, "virtualBase" | "virtualQuote" | "realBase" | "realQuote">;


/** √n rounded to the nearest integer, halves up (the SDK's Decimal `sqrt().toFixed(0)`). */
function roundedSqrt(n: bigint): bigint {
  const root = isqrt(n);
  return n - root * root > root ? root + 1n : root;
}

/** Base out for `quoteIn` (fees already off) — the SDK's `buyExactIn`. */
export function launchLabBuyOut(curve: LaunchLabCurveType, c: Curve, quoteIn: bigint): bigint {
  if (curve === "constant-product") return (quoteIn * (c.virtualBase - c.realBase)) / (c.virtualQuote + c.realQuote + quoteIn);
  if (curve === "fixed-price") return (quoteIn * c.virtualBase) / c.virtualQuote;
  return roundedSqrt((2n * (c.realQuote + quoteIn) * Q64) / c.virtualBase) - c.realBase;
}

/** Quote (before fees) that buys exactly `baseOut` — the SDK's `buyExactOut`. */
export function launchLabBuyCost(curve: LaunchLabCurveType, c: Curve, baseOut: bigint): bigint {
  if (curve === "constant-product") return ceilDiv((c.virtualQuote + c.realQuote) * baseOut, c.virtualBase - c.realBase - baseOut);
  if (curve === "fixed-price") return ceilDiv(c.virtualQuote * baseOut, c.virtualBase);
  const x = c.realBase + baseOut;
  return ceilDiv(c.virtualBase * x * x, 2n * Q64) - c.realQuote;
}

/** Quote out (before fees) for `baseIn` sold back — the SDK's `sellExactIn`. */
export function launchLabSellOut(curve: LaunchLabCurveType, c: Curve, baseIn: bigint): bigint {
  if (curve === "constant-product") return (baseIn * (c.virtualQuote + c.realQuote)) / (c.virtualBase - c.realBase + baseIn);
  if (curve === "fixed-price") return (baseIn * c.virtualQuote) / c.virtualBase;
  const x = c.realBase - baseIn;
  return c.realQuote - ceilDiv(c.virtualBase * x * x, 2n * Q64);
}

/** Quote atoms per base atom on the curve (the price decoders' `launchLabRawPrice`, without its refusals). */
function curvePrice(curve: LaunchLabCurveType, c: Curve): Ratio {
  if (curve === "constant-product") return ratio(c.virtualQuote + c.realQuote, c.virtualBase - c.realBase);
  if (curve === "fixed-price") return ratio(c.virtualQuote, c.virtualBase);
  return ratio(c.virtualBase * c.realBase, Q64);
}

export const raydiumLaunchLabQuoter: QuoterSpec = {
  kind: "raydium-launchlab",
  async extraAccounts(_pool, account, context) {
    const state = decodeRaydiumLaunchLabPool(account);
    return [state.globalConfig, state.platformConfig].filter((a) => context.lookup(a) === undefined);
  },
  build(pool, account, context) {
    const state = decodeRaydiumLaunchLabPool(account);
    const global = decodeRaydiumLaunchLabGlobalConfig(required(context, state.globalConfig, "global config"));
    const platform = decodeRaydiumLaunchLabPlatformConfig(required(context, state.platformConfig, "platform config"));
    const curve = launchLabCurveType(global.curveType);
    const { baseMint, quoteMint } = state;
    const rates = { protocol: global.tradeFeeRate, platform: platform.feeRate, creator: platform.creatorFeeRate };
    const rate = rates.protocol + rates.platform + rates.creator;
    const denominator = LAUNCHLAB_FEE_RATE_DENOMINATOR;
    const spotOf = (c: Curve): Ratio => {
      const p = curvePrice(curve, c);
      return p.num > 0n ? p : ratio(0n);
    };
    const split = (fee: bigint): FeeLine[] => {
      const platformFee = rate === 0n ? 0n : (fee * rates.platform) / rate;
      const creatorFee = rate === 0n ? 0n : (fee * rates.creator) / rate;
      return [
        { kind: "protocol", mint: quoteMint, amount: fee - platformFee - creatorFee },
        { kind: "partner", mint: quoteMint, amount: platformFee },
        { kind: "creator", mint: quoteMint, amount: creatorFee },
      ];
    };
    return {
      kind: "raydium-launchlab",
      pool,
      mints: [baseMint, quoteMint],
      spot: spotOf(state),
      reach: `the pool, its global config (curve type ${curve}, protocol fee) and its platform config (platform and creator fees)`,
      roles: { globalConfig: state.globalConfig, platformConfig: state.platformConfig },
      exactIn(inputMint, amountIn): SwapResult {
        if (state.status !== 0) return { ok: false, reason: state.status === 1 ? "the curve's fund raising is done: it awaits migration" : "the curve has migrated" };
        if (rate > denominator) return { ok: false, reason: `the fee rates add up to more than 100% (${rate} millionths)` };
        if (inputMint === quoteMint) {
          const forSale = state.totalBaseSell - state.realBase;
          let fee = ceilDiv(amountIn * rate, denominator);
          let base = launchLabBuyOut(curve, state, amountIn - fee);
          let paid = amountIn;
          if (base > forSale) {
            // the buy that ends the sale takes what is left, for what that costs (fee included)
            base = forSale;
            const net = launchLabBuyCost(curve, state, base);
            paid = rate === 0n ? net : ceilDiv(net * denominator, denominator - rate);
            fee = paid - net;
          }
          if (base <= 0n) return { ok: false, reason: forSale > 0n ? "the amount is too small to trade" : "every token for sale is sold" };
          const after = { ...state, realBase: state.realBase + base, realQuote: state.realQuote + paid - fee };
          return { ok: true, swap: { amountIn: paid, amountOut: base, fees: split(fee), priceAfter: spotOf(after) } };
        }
        if (amountIn > state.realBase) return { ok: false, reason: "a sell returns at most the tokens sold on the curve", depth: state.realBase };
        const gross = launchLabSellOut(curve, state, amountIn);
        if (gross > state.realQuote) return { ok: false, reason: "the curve's quote raised cannot pay this sell" };
        const fee = ceilDiv(gross * rate, denominator);
        if (gross - fee <= 0n) return { ok: false, reason: "the amount is too small to trade" };
        const after = { ...state, realBase: state.realBase - amountIn, realQuote: state.realQuote - gross };
        return { ok: true, swap: { amountIn, amountOut: gross - fee, fees: split(fee), priceAfter: spotOf(after) } };
      },
    };
  },
};
