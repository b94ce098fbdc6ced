import { Hono, type Context } from "hono";
import type { Address } from "@solana/kit";
import { z } from "zod/mini";
import type { AppContext } from "../app-context";
import { parseAddress, parseMintList, type CaItem } from "./params";
import { errorResponse, named, restErrors, validQuery, type Operation } from "./openapi/operation";
import { limits } from "../limits";
import type { PriceOutcome, PriceService } from "../pricing/price-service";
import { failedItemJson, listJson, pricedItemJson, priceRecordJson, priceRecordSchema, type VenueId } from "../pricing/price-record";
import { readWindowStats, type MintStats, type StatsWindowName } from "../stats/window-stats";

const changeSchema = z.nullable(z.number());
/** What `changes=true` appends to a record. */
const priceChangesSchema = z.object({ change5m: changeSchema, change1h: changeSchema, change6h: changeSchema, change24h: changeSchema });
type PriceChanges = z.infer<typeof priceChangesSchema>;
/** A price record as this route answers it: the service's record, with its changes when asked. */
const answeredRecordSchema = z.extend(priceRecordSchema, { ...z.partial(priceChangesSchema).shape });

/**
 * GET /api/v1/price (auto-routed) and /api/v1/venue-a … venue-d (one venue), with friendly aliases.
 * One mint → a price record; a comma list → an array in request order, each item with `success`.
 */
const venueAliases: Record<string, VenueId> = {
  "venue-a": "venue-a",
  pumpfun: "venue-a",
  "venue-b": "venue-b",
  raydium: "venue-b",
  "venue-c": "venue-c",
  meteora: "venue-c",
  "venue-d": "venue-d",
  pumpswap: "venue-d",
};

/**
 * The warm path: every mint fresh in this isolate's cache → the answer is assembled from cached JSON text, with no
 * upstream client, no promises and no re-serialisation. Anything else goes through the price service.
 */
function warmAnswer(prices: PriceService, items: CaItem[], query: { venue?: VenueId; poolId?: Address; receipt?: boolean }, isList: boolean): string | undefined {
  const now = Date.now();
  if (!isList) return prices.freshJson(query, items[0]!.mint!, now);
  const parts: string[] = [];
  for (const item of items) {
    if (item.error) {
      parts.push(failedItemJson(item.ca, item.error));
      continue;
    }
    const json = prices.freshJson(query, item.mint, now);
    if (json === undefined) return undefined;
    parts.push(pricedItemJson(json));
  }
  return listJson(parts);
}

async function answer(c: Context<AppContext>, query: PriceQuery, venue: VenueId | undefined) {
  const raw = query.ca;
  const items = parseMintList(raw);
  const isList = raw.includes(",");
  const poolParam = query.poolId;
  const poolId = poolParam === undefined || poolParam === "" ? undefined : parseAddress(poolParam.trim(), "poolId");
  const receipt = query.receipt === "true";
  const changes = query.changes === "true";
  const { prices } = c.get("services");
  // The warm path answers cached JSON as it is; changes are appended to records, so they take the path below.
  if (!changes) {
    const warm = warmAnswer(prices, items, { venue, poolId, receipt }, isList);
    if (warm !== undefined) return c.body(warm, 200, { "content-type": "application/json" });
  }
  const mints = items.flatMap((item) => (item.mint ? [item.mint] : []));
  // Changes come from the trade index (D1), read beside the prices, never through the price cache.
  const windows = changes ? readWindowStats(c.env.DB, [...new Set(mints)]) : undefined;
  windows?.catch(() => undefined); // awaited below unless pricing fails first
  const outcomes = await prices.price(
    mints,
    { waitUntil: (p) => c.executionCtx.waitUntil(p), requestId: c.get("requestId"), deadline: c.get("deadline"), timings: c.get("timings") },
    { venue, poolId, receipt },
  );
  const stats = await windows;
  const withChanges = (mint: Address, recordJson: string) => (stats ? appendChanges(recordJson, changesOf(stats.get(mint))) : recordJson);
  const json = { "content-type": "application/json" };
  if (!isList) {
    const only = outcomes.get(mints[0] as Address)!;
    if (!only.ok) throw only.error;
    return c.body(withChanges(only.record.ca as Address, priceRecordJson(only.record)), 200, json);
  }
  const priced = mints.map((mint) => outcomes.get(mint)!);
  // Nothing to show but an outage: say so with the outage's status rather than a 200 of failures.
  const failures = priced.filter((o): o is Extract<PriceOutcome, { ok: false }> => !o.ok);
  if (mints.length === items.length && failures.length === priced.length && failures.every((f) => f.error.status >= 500)) throw failures[0]!.error;
  return c.body(listJson(items.map((item) => listItemJson(item, item.mint ? outcomes.get(item.mint)! : undefined, withChanges))), 200, json);
}

function listItemJson(item: CaItem, outcome: PriceOutcome | undefined, withChanges: (mint: Address, recordJson: string) => string): string {
  if (outcome?.ok) return pricedItemJson(withChanges(item.mint!, priceRecordJson(outcome.record)));
  return failedItemJson(item.ca, outcome?.error ?? item.error!);
}

/** The `changeN` fields of a record: each stats window's change between its first and last priced trade (stats/window-stats.ts). */
function changesOf(stats: MintStats | undefined): PriceChanges {
  const change = (name: StatsWindowName) => stats?.[name].priceChangePercent ?? null;
  return { change5m: change("5m"), change1h: change("1h"), change6h: change("6h"), change24h: change("24h") };
}

/** A record's JSON with its changes appended inside the object (a record is never empty), as list items get `success`. */
function appendChanges(recordJson: string, changes: PriceChanges): string {
  return `${recordJson.slice(0, -1)},${JSON.stringify(changes).slice(1)}`;
}

// ---- The routes, described once: validation, types and their part of GET /openapi.json. ----

/** Presence is checked here; what `ca` and `poolId` hold (base58, list size) is params.ts's, with its messages. */
const priceQuery = z.object({
  ca: z.string().register(z.globalRegistry, {
    description: `One mint address, or a comma-separated list of at most ${limits.maxMintsPerPriceRequest} (spaces ignored, duplicates answered in place): a list gives an array in request order.`,
    examples: ["DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"],
  }),
  poolId: z.optional(
    z.string().register(z.globalRegistry, {
      description: "Price from this pool only (it must trade the mint); priced whatever its depth, `belowLiquidityFloor: true` under the $100 floor.",
      examples: ["Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW"],
    }),
  ),
  receipt: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, {
      description:
        "`true` adds `receipt`: the slot, every account the price was computed from (address, owner, SHA-256 of its data, the decoded fields used), the formula and the program version it follows, and the SOL/USD source with its accounts — enough to recompute the price with `getMultipleAccounts` (see the guide, Receipts).",
      examples: ["true"],
    }),
  ),
  changes: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, {
      description:
        "`true` adds `change5m`, `change1h`, `change6h` and `change24h`: the USD price change in percent over each window, from the trade index (as GET /api/v1/stats computes it; null when the window holds no priced trade).",
      examples: ["true"],
    }),
  ),
});
type PriceQuery = z.output<typeof priceQuery>;

const listItemSchema = named(
  "PriceListItem",
  z.union([
    z.extend(answeredRecordSchema, { success: z.literal(true) }),
    z.object({ ca: z.string(), success: z.literal(false), error: z.object({ code: z.number(), message: z.string() }) }),
  ]),
);
const priceAnswerSchema = named("PriceAnswer", z.union([named("PriceRecord", answeredRecordSchema), z.array(listItemSchema)]));

const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const bonkRecord = {
  ca: bonk,
  dex: "raydium-clmm",
  priceInSol: "0.000000161540244",
  priceInUsd: "0.0000233711523684",
  marketCap: "2069384471.62135",
  pool: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW",
  poolType: "raydium-clmm",
  liquidityUsd: "1938234.72611309",
  quoteMint: "So11111111111111111111111111111111111111112",
  quotePriceSource: "sol-usd:pyth",
  slot: 381204117,
  updatedAt: 1764000000000,
};
const pumpRecord = {
  ca: "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump",
  dex: "pumpfun",
  priceInSol: "0.0000000281932617",
  priceInUsd: "0.00000407891224071",
  marketCap: "4078.91224071",
  pool: "5xEqqY2gZsB7Zr5ExUQkX7KHd1qVrrAQWjiG9uYgm9M6",
  poolType: "pump-bonding-curve",
  liquidityUsd: "1201.93471522",
  quoteMint: "So11111111111111111111111111111111111111112",
  quotePriceSource: "sol-usd:pyth",
  slot: 381204117,
  updatedAt: 1764000000000,
  curveProgress: "8.41",
  graduated: false,
};

const priceResponses = {
  200: {
    description: "One mint: its price record. A comma list: an array in request order, each item with `success` (a failed item carries its own `error`).",
    schema: priceAnswerSchema,
    examples: {
      one: { summary: "One mint", value: bonkRecord },
      list: {
        summary: "A list: priced, malformed and unknown items in place",
        value: [
          { ...pumpRecord, success: true },
          { ca: "not-base58!", success: false, error: { code: 400, message: 'Invalid base58 address in ca: "not-base58!"' } },
          { ca: "11111111111111111111111111111112", success: false, error: { code: 404, message: "Unknown mint 11111111111111111111111111111112: no such account" } },
        ],
      },
    },
  },
  400: errorResponse("BAD_REQUEST", "`ca` missing, malformed (no well-formed item in a list) or too long a list; `poolId` malformed", {
    missingCa: "Missing required query parameter: ca",
    badCa: 'Invalid base58 address in ca: "not-base58!"',
    tooMany: `Too many mints in ca: ${limits.maxMintsPerPriceRequest + 1} (at most ${limits.maxMintsPerPriceRequest})`,
    badPoolId: 'Invalid base58 address in poolId: "zzz"',
  }),
  ...restErrors,
  404: errorResponse("NOT_FOUND", "A mint with no account, an account that is not a mint, or a mint no venue (or the named pool) prices; the message says why", {
    noAccount: "Unknown mint 11111111111111111111111111111112: no such account",
    notMint: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW is not a token mint",
    noPool: `No price for ${pumpRecord.ca} on venues: raydium-amm-v4, raydium-cpmm, raydium-clmm: no pool found`,
  }),
};

const venueNames: Record<VenueId, string> = {
  "venue-a": "pump.fun bonding curves",
  "venue-b": "Raydium AMM v4, CPMM and CLMM pools",
  "venue-c": "Meteora DLMM, DAMM v1, DAMM v2 pools and DBC launchpad curves",
  "venue-d": "PumpSwap pools",
};

function priceOperation(path: string, venue: VenueId | undefined): Operation {
  const word = path.slice(1);
  const alias = venue !== undefined && word !== venue;
  return {
    method: "get",
    path: `/api/v1${path}`,
    operationId: venue ? `price_${word.replace("-", "_")}` : "price",
    summary: venue ? (alias ? `Price from ${venueNames[venue]} (alias of /api/v1/${venue})` : `Price from ${venueNames[venue]} only`) : "Price, automatically routed to the deepest pool of any venue",
    tags: ["price"],
    authenticated: true,
    query: priceQuery,
    responses: priceResponses,
  };
}

const validPriceQuery = validQuery(priceQuery);
export const priceRoutes = new Hono<AppContext>();
export const priceOperations: Operation[] = [];
const routes: [path: string, venue: VenueId | undefined][] = [["/price", undefined], ...Object.entries(venueAliases).map(([word, venue]) => [`/${word}`, venue] as [string, VenueId])];
for (const [path, venue] of routes) {
  const operation = priceOperation(path, venue);
  priceOperations.push(operation);
  priceRoutes.get(operation.path, validPriceQuery, (c) => answer(c, c.req.valid("query"), venue));
}
