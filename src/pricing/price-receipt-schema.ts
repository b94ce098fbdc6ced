/** The JSON of receipts (price-receipt.ts builds them): schemas only, so records can name them without the builder. */
import { z } from "zod/mini";

const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One account a price was computed from, as read. */
export const receiptAccountSchema = z.object({
  /** what the account is to the formula: `pool`, a related role of the pool kind (`baseVault`, `config`…), `mint`… */
  role: z.string(),
  address: z.string(),
  owner: z.string(),
  /** context slot of the `getMultipleAccounts` answer that returned it */
  slot: z.number(),
  dataLength: z.number(),
  /** SHA-256 of the raw account data (the base64 of `data`, decoded), lowercase hex */
  sha256: z.string(),
  /** the decoded fields the formula reads (u64/u128 as decimal strings, addresses base58) */
  fields: z.record(z.string(), fieldValue),
});
export type ReceiptAccount = z.infer<typeof receiptAccountSchema>;

export const receiptFormulaSchema = z.object({
  /** the formula's name, stable: docs/api.md gives each one's expression and the offsets of its fields */
  name: z.string(),
  poolType: z.string(),
  program: z.string(),
  /** the IDL / SDK version our decoder of the program's accounts follows */
  version: z.string(),
  expression: z.string(),
});

export const decimalsSchema = z.object({ mint: z.string(), decimals: z.number(), source: z.enum(["mint account", "well-known"]) });

/** How the pool's price became the token's, in USD and SOL. */
const receiptResultSchema = z.object({
  /** the pool's own price: its quote mint per its base mint, decimals applied */
  poolPrice: z.string(),
  baseMint: z.string(),
  quoteMint: z.string(),
  /** false when the token is the pool's quote side: its price is then 1 / poolPrice */
  tokenIsBase: z.boolean(),
  /** the token in the pool's other mint */
  priceInQuote: z.string(),
  /** USD per unit of that mint: SOL/USD for wSOL, 1 for USDC and USDT */
  quoteUsd: z.string(),
});

export const solUsdReceiptSchema = z.object({
  source: z.enum(["pyth", "pool"]),
  priceInUsd: z.string(),
  /** Pyth: the update's publish time (unix seconds); it must be at most `maxAgeSeconds` old at the read */
  publishTime: z.optional(z.number()),
  maxAgeSeconds: z.optional(z.number()),
  /** pool fallback: the SOL/USDC (or USDT) pool, its formula and its result */
  pool: z.optional(z.string()),
  formula: z.optional(receiptFormulaSchema),
  result: z.optional(receiptResultSchema),
  decimals: z.optional(z.array(decimalsSchema)),
  accounts: z.array(receiptAccountSchema),
});

export const priceReceiptSchema = z.object({
  /** the record's slot: the context slot of the read (the lowest, when a pool needed a second read) */
  slot: z.number(),
  pool: z.string(),
  formula: receiptFormulaSchema,
  decimals: z.array(decimalsSchema),
  result: receiptResultSchema,
  /** the raw circulating supply the market cap is of: the mint's supply less what its burn accounts hold */
  circulatingSupply: z.string(),
  accounts: z.array(receiptAccountSchema),
  solUsd: solUsdReceiptSchema,
});
export type PriceReceipt = z.infer<typeof priceReceiptSchema>;


export const poolReceiptSchema = z.object({
  pool: z.string(),
  formula: receiptFormulaSchema,
  decimals: z.array(decimalsSchema),
  accounts: z.array(receiptAccountSchema),
});
