/** The JSON of a quote: the schema (OpenAPI, examples checked against it) and the one serializer. */
import { z } from "zod/mini";
import { toDecimalString } from "../math/fixed-point";
import { dexOfPoolKind } from "../venues/pool-kinds";
import type { QuoteAnswer, QuoteRequest, TokenAmount } from "./quote-service";
import { quoteReceiptSchema } from "./quote-receipt";

const significantDigits = 15;

const tokenAmountSchema = z.object({
  mint: z.string(),
  /** raw integer atoms, as a decimal string */
  raw: z.string(),
  /** raw / 10^decimals, exact */
  decimal: z.string(),
});

const feeSchema = z.object({
  kind: z.enum(["lp", "protocol", "fund", "creator", "partner", "transfer"]),
  mint: z.string(),
  raw: z.string(),
  decimal: z.string(),
});

export const poolQuoteSchema = z.object({
  pool: z.string(),
  poolType: z.string(),
  dex: z.string(),
  /** true when the size was of the output (a buy in tokens, a sell in SOL/USD): the least input that gives it */
  exactOutput: z.boolean(),
  amountIn: tokenAmountSchema,
  amountOut: tokenAmountSchema,
  minimumReceived: tokenAmountSchema,
  fees: z.array(feeSchema),
  spotPrice: z.string(),
  executionPrice: z.string(),
  priceAfter: z.string(),
  priceImpactPct: z.string(),
  walk: z.string(),
});

export const quoteAnswerSchema = z.object({
  ca: z.string(),
  side: z.enum(["buy", "sell"]),
  amount: z.string(),
  unit: z.enum(["token", "sol", "usd"]),
  slippageBps: z.number(),
  slot: z.number(),
  solUsd: z.string(),
  best: z.string(),
  quotes: z.array(poolQuoteSchema),
  refused: z.array(z.object({ pool: z.string(), poolType: z.string(), reason: z.string(), depth: z.optional(tokenAmountSchema) })),
  /** Only with `receipt=true`: what each quote was computed from (quote-receipt.ts, docs/api.md Receipts). */
  receipt: z.optional(quoteReceiptSchema),
});
export type QuoteAnswerJson = z.infer<typeof quoteAnswerSchema>;

/** raw / 10^decimals as an exact decimal string. */
export function atomsToDecimal(raw: bigint, decimals: number): string {
  const text = raw.toString().padStart(decimals + 1, "0");
  if (decimals === 0) return text;
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

const amountJson = (a: TokenAmount) => ({ mint: a.mint, raw: a.raw.toString(), decimal: atomsToDecimal(a.raw, a.decimals) });

export function quoteAnswerJson(request: QuoteRequest, answer: QuoteAnswer): QuoteAnswerJson {
  return {
    ca: answer.mint,
    side: request.side,
    amount: request.amount.text,
    unit: request.unit,
    slippageBps: request.slippageBps,
    slot: answer.slot,
    solUsd: toDecimalString(answer.solUsd, significantDigits),
    best: answer.best.pool,
    quotes: answer.quotes.map((q) => ({
      pool: q.pool,
      poolType: q.kind,
      dex: dexOfPoolKind[q.kind],
      exactOutput: q.exactOutput,
      amountIn: amountJson(q.amountIn),
      amountOut: amountJson(q.amountOut),
      minimumReceived: amountJson(q.minimumReceived),
      fees: q.fees.map((f) => ({ kind: f.kind, mint: f.mint, raw: f.amount.toString(), decimal: atomsToDecimal(f.amount, f.decimals) })),
      spotPrice: toDecimalString(q.spotPrice, significantDigits),
      executionPrice: toDecimalString(q.executionPrice, significantDigits),
      priceAfter: toDecimalString(q.priceAfter, significantDigits),
      priceImpactPct: toDecimalString(q.priceImpactPct, 6),
      walk: q.reach,
    })),
    refused: answer.refused.map((r) => ({ pool: r.pool, poolType: r.kind, reason: r.reason, ...(r.depth ? { depth: amountJson(r.depth) } : {}) })),
  };
}
