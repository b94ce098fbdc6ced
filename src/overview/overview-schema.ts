/**
 * The token overview as GET /api/v1/overview returns it: the spec's table (SPEC.md "Token overview") plus three
 * additions the spec leaves room for — `holders` (who the top-N figures count and who they leave out),
 * `holdersExact` (whether those figures are provably exact) and `transferFee` (Token-2022). Integers and decimals are strings so no precision is lost in JSON.
 */
import { z } from "zod/mini";
import { priceReceiptSchema } from "../pricing/price-receipt-schema";

import { dexNames } from "../venues/pool-kinds";

const integerString = z.string().check(z.regex(/^\d+$/));
const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/));
/** Percentages always carry exactly {@link PERCENT_DECIMALS} fraction digits. */
const percentString = z.string().check(z.regex(/^\d+\.\d{4}$/));

/** Fraction digits of every `*Percent` value. */
export const PERCENT_DECIMALS = 4;

/** Why an owner's balance is (not) counted in the top-N holder figures. */
export const holderLabels = ["holder", "liquidity", "burn"] as const;
export type HolderLabel = (typeof holderLabels)[number];

export const holderEntrySchema = z.object({
  /** Wallet (or program account) that owns the token accounts. */
  owner: z.string(),
  /** Sum of its token accounts among the largest ones, in human units. */
  balance: decimalString,
  /** Share of the current supply. */
  percent: percentString,
  label: z.enum(holderLabels),
  /** The venue whose pool, curve or authority this is; null for holders and burn addresses. */
  venue: z.nullable(z.string()),
});
export type HolderEntry = z.infer<typeof holderEntrySchema>;

export const creatorSchema = z.object({
  address: z.string(),
  verified: z.boolean(),
  /** Royalty share in percent, 0..100. */
  share: integerString,
});
export type OverviewCreator = z.infer<typeof creatorSchema>;

export const socialsSchema = z.object({
  twitter: z.optional(z.string()),
  website: z.optional(z.string()),
  telegram: z.optional(z.string()),
});
export type OverviewSocials = z.infer<typeof socialsSchema>;

/** Token-2022 TransferFeeConfig: the newer schedule and the epoch from which it applies. */
export const transferFeeSchema = z.object({
  basisPoints: integerString,
  /** Cap per transfer, raw base units. */
  maximumFee: integerString,
  fromEpoch: integerString,
});
export type OverviewTransferFee = z.infer<typeof transferFeeSchema>;

export const tokenOverviewSchema = z.object({
  ca: z.string(),
  /** Empty when the mint has no metadata account. */
  name: z.string(),
  symbol: z.string(),
  image: z.nullable(z.string()),
  description: z.nullable(z.string()),
  socials: socialsSchema,
  decimals: integerString,
  supply: integerString,
  /** Raw: `supply` less what the incinerator's associated token accounts for the mint hold (the market cap's supply). */
  circulatingSupply: integerString,
  mintAuthority: z.nullable(z.string()),
  freezeAuthority: z.nullable(z.string()),
  /** Null when the mint has no metadata, or its Token-2022 metadata was made immutable. */
  updateAuthority: z.nullable(z.string()),
  creators: z.array(creatorSchema),
  isToken2022: z.boolean(),
  top10HoldersBalance: decimalString,
  top10HoldersPercent: percentString,
  top20HoldersBalance: decimalString,
  top20HoldersPercent: percentString,
  /** Null (with the three price fields) when no venue prices the token. */
  dex: z.nullable(z.enum(dexNames)),
  priceInSol: z.nullable(decimalString),
  priceInUsd: z.nullable(decimalString),
  marketCap: z.nullable(decimalString),
  /** Only with `receipt=true`: the receipt of the price fields (null when no venue prices the token), as the price routes give it. */
  priceReceipt: z.optional(z.nullable(priceReceiptSchema)),
  holders: z.array(holderEntrySchema),
  /** True when the top-N figures provably equal those over every token account of the mint (docs/overview.md). */
  holdersExact: z.boolean(),
  transferFee: z.nullable(transferFeeSchema),
});
export type TokenOverview = z.infer<typeof tokenOverviewSchema>;
