import { Hono, type Context } from "hono";
import type { Address } from "@solana/kit";
import type { AppContext } from "../env";
import { parseAddress, parseMintList, type CaItem } from "./params";
import type { ApiError } from "../errors/api-error";
import { priceMints, type PriceOutcome } from "../pricing/price-service";
import { priceCacheFor, priceCacheKey, type PriceCache } from "../pricing/price-cache";
import type { VenueId } from "../pricing/price-record";
import { createUpstream } from "../solana/upstream";

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
function warmAnswer(cache: PriceCache, items: CaItem[], scope: string, poolId: Address | undefined, isList: boolean): string | undefined {
  const now = Date.now();
  if (!isList) return cache.freshLocalJson(priceCacheKey(scope, items[0]!.mint!, poolId), now);
  const parts: string[] = [];
  for (const item of items) {
    if (item.error) {
      parts.push(JSON.stringify(failedItem(item.ca, item.error)));
      continue;
    }
    const json = cache.freshLocalJson(priceCacheKey(scope, item.mint, poolId), now);
    if (json === undefined) return undefined;
    parts.push(`${json.slice(0, -1)},"success":true}`);
  }
  return `[${parts.join(",")}]`;
}

async function answer(c: Context<AppContext>, venue: VenueId | undefined) {
  const raw = c.req.query("ca");
  const items = parseMintList(raw);
  const isList = raw!.includes(",");
  const poolParam = c.req.query("poolId");
  const poolId = poolParam === undefined || poolParam === "" ? undefined : parseAddress(poolParam.trim(), "poolId");
  const cache = priceCacheFor(c.env.PRICE_CACHE_TTL_MS);
  const warm = warmAnswer(cache, items, venue ?? "auto", poolId, isList);
  if (warm !== undefined) return c.body(warm, 200, { "content-type": "application/json" });
  const mints = items.flatMap((item) => (item.mint ? [item.mint] : []));
  const outcomes = await priceMints(
    {
      rpc: createUpstream(c.env),
      db: c.env.DB,
      cache,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
      deadline: c.get("deadline"),
      timings: c.get("timings"),
    },
    mints,
    { venue, poolId },
  );
  if (!isList) {
    const only = outcomes.get(mints[0] as Address)!;
    if (!only.ok) throw only.error;
    return c.json(only.record);
  }
  const priced = mints.map((mint) => outcomes.get(mint)!);
  // Nothing to show but an outage: say so with the outage's status rather than a 200 of failures.
  const failures = priced.filter((o): o is Extract<PriceOutcome, { ok: false }> => !o.ok);
  if (mints.length === items.length && failures.length === priced.length && failures.every((f) => f.error.status >= 500)) throw failures[0]!.error;
  return c.json(items.map((item) => listItem(item, item.mint ? outcomes.get(item.mint)! : undefined)));
}

function listItem(item: CaItem, outcome: PriceOutcome | undefined) {
  if (outcome?.ok) return { ...outcome.record, success: true };
  return failedItem(item.ca, outcome?.error ?? item.error!);
}

function failedItem(ca: string, error: ApiError) {
  return { ca, success: false, error: { code: error.status, message: error.message } };
}

export const priceRoutes = new Hono<AppContext>().get("/price", (c) => answer(c, undefined));
for (const [path, venue] of Object.entries(venueAliases)) priceRoutes.get(`/${path}`, (c) => answer(c, venue));
