/**
 * What GET /api/v1/security and GET /api/v1/holders answer (docs/security.md explains every field). Raw amounts are
 * integer strings in the token's base units; percentages are of the current supply, with four fraction digits.
 * Every section carries its `source`: the accounts and slot it was read from, the trades it counted, and what it
 * cannot see.
 */
import { z } from "zod/mini";

const integerString = z.string().check(z.regex(/^\d+$/));
const decimalString = z.string().check(z.regex(/^\d+(\.\d+)?$/));
const percentString = z.string().check(z.regex(/^\d+\.\d{4}$/));

/** Where a figure comes from and what it cannot see. */
export const factSourceSchema = z.object({
  /** Accounts read for it (mint, metadata, pool, LP mint, curve, ...). */
  accounts: z.array(z.string()),
  /** Slot of the chain read (the answer's context slot); null when the figure comes from the trade index alone. */
  slot: z.nullable(z.number()),
  /** Trades of the trade index counted; null when the figure does not come from the index. */
  trades: z.nullable(z.number()),
  /** What the figure cannot see (trades before the index's retention, owners beyond a scan's budget, ...); null when nothing. */
  unseen: z.nullable(z.string()),
});
export type FactSource = z.infer<typeof factSourceSchema>;

/** A fact that can hurt a holder, in a sentence. */
export const riskFlagSchema = z.object({
  id: z.string(),
  message: z.string(),
});
export type RiskFlag = z.infer<typeof riskFlagSchema>;

export const authoritiesSchema = z.object({
  mintAuthority: z.nullable(z.string()),
  freezeAuthority: z.nullable(z.string()),
  /** The metadata's update authority (null: revoked, or no metadata); with `isMutable` false it can change nothing. */
  updateAuthority: z.nullable(z.string()),
  /** Metaplex `is_mutable`; for Token-2022 metadata, whether an update authority is set; null without metadata. */
  isMutable: z.nullable(z.boolean()),
  metadataSource: z.enum(["token-2022", "metaplex", "none"]),
  flags: z.array(riskFlagSchema),
  source: factSourceSchema,
});

export const extensionIds = [
  "transferFee",
  "transferHook",
  "permanentDelegate",
  "defaultAccountState",
  "nonTransferable",
  "pausable",
  "mintCloseAuthority",
  "confidentialTransfers",
] as const;
export type ExtensionId = (typeof extensionIds)[number];

export const extensionRiskSchema = z.object({
  id: z.enum(extensionIds),
  /** The extension's current parameters (addresses, basis points, raw amounts, epochs, states). */
  params: z.record(z.string(), z.union([z.string(), z.boolean(), z.null()])),
  message: z.string(),
  source: factSourceSchema,
});
export type ExtensionRisk = z.infer<typeof extensionRiskSchema>;

export const lpLockSchema = z.object({
  lpMint: z.string(),
  /** LP the pool accounts for (its own counter): what was minted and not withdrawn. */
  poolLpSupply: integerString,
  /** The LP mint's supply now: below `poolLpSupply` by what holders burnt with a Burn instruction. */
  lpMintSupply: integerString,
  /** Burnt with a Burn (poolLpSupply − lpMintSupply) plus held by burn addresses. */
  burned: integerString,
  burnedPercent: percentString,
  /** Held by known lockers (among the LP mint's largest accounts). */
  locked: integerString,
  lockedPercent: percentString,
  lockers: z.array(z.object({ owner: z.string(), locker: z.string(), amount: integerString })),
});

/**
 * What a pool's position `liquidity` sums: every position's liquidity (Meteora DAMM v2, whose positions all span the
 * whole price range); the liquidity of the positions in range at the current price (Raydium CLMM, Orca Whirlpool:
 * what traders meet at the price, the pool's own `liquidity`); every position's liquidity shares over its bins (Meteora
 * DLMM: shares are minted at the bin's value in the quote token).
 */
export const positionMeasures = ["position-liquidity", "in-range-liquidity", "bin-shares"] as const;
export type PositionMeasure = (typeof positionMeasures)[number];

export const positionLockSchema = z.object({
  measure: z.enum(positionMeasures),
  /** Positions of the pool (in range or not). */
  positions: z.number(),
  /** Their liquidity summed (unlocked + vested + permanently locked), in the pool's liquidity units. */
  liquidity: integerString,
  /** Liquidity of positions whose NFT is burnt or held by a burn address (DLMM: owned by a burn address). */
  burned: integerString,
  burnedPercent: percentString,
  /**
   * Liquidity locked in the positions themselves (DAMM v2 vested and permanent liquidity, Whirlpool positions with a
   * LockConfig, DLMM positions before their lock_release_point), plus the liquidity of positions whose NFT (DLMM: the position) is held by a known locker.
   */
  locked: integerString,
  lockedPercent: percentString,
  /** Of `locked`: locked in the positions themselves. */
  lockedInPlace: integerString,
  lockers: z.array(z.object({ owner: z.string(), locker: z.string(), amount: integerString })),
});

export const liquiditySchema = z.object({
  /** The pool that prices the token (the price endpoint's choice); null when no venue prices it. */
  pool: z.nullable(z.string()),
  dex: z.nullable(z.string()),
  liquidityUsd: z.nullable(decimalString),
  /** LP burnt and locked; null when the pool has no fungible LP to read (see `message`). */
  lp: z.nullable(lpLockSchema),
  /** Position liquidity burnt and locked (Meteora DAMM v2, Raydium CLMM, Orca Whirlpool, Meteora DLMM pools); null for other pools (see `message`). */
  positions: z.nullable(positionLockSchema),
  message: z.string(),
  source: factSourceSchema,
});

export const creatorSchema = z.object({
  /** The creator named by the launchpad account (pump.fun curve, Meteora DBC pool, Raydium LaunchLab pool); null when the token has none. */
  address: z.nullable(z.string()),
  launchpad: z.nullable(z.enum(["pumpfun", "meteora-dbc", "raydium-launchlab"])),
  /** What the creator's associated token account holds now. */
  holding: z.nullable(integerString),
  holdingPercent: z.nullable(percentString),
  /** Bought and sold by the creator's wallet, from the trade index. */
  bought: z.nullable(integerString),
  sold: z.nullable(integerString),
  /** sold / bought; null when nothing bought is seen. */
  soldPercentOfBought: z.nullable(percentString),
  message: z.string(),
  source: factSourceSchema,
});

const buyerGroupSchema = z.object({
  count: z.number(),
  wallets: z.array(z.string()),
  /** What they bought in the window, raw. */
  bought: integerString,
  boughtPercent: percentString,
  /** What their associated token accounts hold now, raw. */
  held: integerString,
  heldPercent: percentString,
});

export const launchSchema = z.object({
  /** The slot of the launchpad's create, as the trade index saw it; null when the index did not see it. */
  creationSlot: z.nullable(z.number()),
  /** Buys in slots creationSlot..creationSlot+windowSlots are snipers'. */
  windowSlots: z.number(),
  /** Wallets other than the creator that bought in the window. */
  snipers: buyerGroupSchema,
  /** Wallets other than the creator that bought in the creation slot itself; `detected` when there is at least one. */
  bundle: z.object({ ...buyerGroupSchema.shape, detected: z.boolean() }),
  message: z.string(),
  source: factSourceSchema,
});

export const holderLabels = ["holder", "creator", "pool", "curve", "burn", "locker"] as const;
export type HolderLabel = (typeof holderLabels)[number];

export const holderRowSchema = z.object({
  owner: z.string(),
  /** Sum of the owner's token accounts of the mint, raw. */
  amount: integerString,
  percent: percentString,
  label: z.enum(holderLabels),
  /** The venue of a pool or curve; the locker's name for a locker; null otherwise. */
  venue: z.nullable(z.string()),
});
export type HolderRow = z.infer<typeof holderRowSchema>;

export const holdersSectionSchema = z.object({
  /** Owners with a positive balance, labelled holder or creator; null when not every account could be read. */
  count: z.nullable(z.number()),
  top10: integerString,
  top10Percent: percentString,
  top20: integerString,
  top20Percent: percentString,
  /** Pools, curves, burn addresses and lockers among the largest owners: left out of count and top-N. */
  excluded: z.array(holderRowSchema),
  /** Whether the top-N figures are provably those over every token account. */
  exact: z.boolean(),
  /** True when the census could not read every token account (see `source.unseen`). */
  partial: z.boolean(),
  source: factSourceSchema,
});

export const securityReportSchema = z.object({
  ca: z.string(),
  /** Slot of the chain reads. */
  slot: z.number(),
  decimals: z.number(),
  supply: integerString,
  isToken2022: z.boolean(),
  authorities: authoritiesSchema,
  /** Token-2022 extensions that can hurt a holder, present on the mint (empty for SPL Token mints). */
  extensions: z.array(extensionRiskSchema),
  liquidity: liquiditySchema,
  creator: creatorSchema,
  launch: launchSchema,
  holders: holdersSectionSchema,
});
export type SecurityReport = z.infer<typeof securityReportSchema>;

export const holdersPageSchema = z.object({
  ca: z.string(),
  slot: z.number(),
  decimals: z.number(),
  supply: integerString,
  /** Owners with a positive balance labelled holder or creator; null when the census is partial. */
  count: z.nullable(z.number()),
  /** Owners of every label with a positive balance (the list's length), null when partial. */
  owners: z.nullable(z.number()),
  items: z.array(holderRowSchema),
  nextCursor: z.nullable(z.string()),
  partial: z.boolean(),
  /** Why the list is partial; null when it is complete. */
  reason: z.nullable(z.string()),
});
export type HoldersPage = z.infer<typeof holdersPageSchema>;
