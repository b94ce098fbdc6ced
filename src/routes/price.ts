import { Hono, type Context } from "hono";
import type { Address } from "@solana/kit";
import type { AppContext } from "../env";
import { parseAddress, parseMintList } from "./params";
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
function warmAnswer(cache: PriceCache, mints: Address[], scope: string, poolId: Address | undefined, isList: boolean): string | undefined {
  const now = Date.now();
  if (!isList) return cache.freshLocalJson(priceCacheKey(scope, mints[0] as Address, poolId), now);
  const items: string[] = [];
  for (const mint of mints) {
    const json = cache.freshLocalJson(priceCacheKey(scope, mint, poolId), now);
    if (json === undefined) return undefined;
    items.push(`${json.slice(0, -1)},"success":true}`);
  }
  return `[${items.join(",")}]`;
}

async function answer(c: Context<AppContext>, venue: VenueId | undefined) {
  const raw = c.req.query("ca");
  const mints = parseMintList(raw);
  const poolParam = c.req.query("poolId");
  const poolId = poolParam === undefined || poolParam === "" ? undefined : parseAddress(poolParam.trim(), "poolId");
  const cache = priceCacheFor(c.env.PRICE_CACHE_TTL_MS);
  const warm = warmAnswer(cache, mints, venue ?? "auto", poolId, raw!.includes(","));
  if (warm !== undefined) return c.body(warm, 200, { "content-type": "application/json" });
  const outcomes = await priceMints(
    {
      rpc: createUpstream(c.env),
      db: c.env.DB,
      cache,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
      deadline: c.get("deadline"),
    },
    mints,
    { venue, poolId },
  );
  const isList = raw!.includes(",");
  if (!isList) {
    const only = outcomes.get(mints[0] as Address)!;
    if (!only.ok) throw only.error;
    return c.json(only.record);
  }
  const items = mints.map((mint) => outcomes.get(mint)!);
  // Nothing to show but an outage: say so with the outage's status rather than a 200 of failures.
  const failures = items.filter((o): o is Extract<PriceOutcome, { ok: false }> => !o.ok);
  if (failures.length === items.length && failures.every((f) => f.error.status >= 500)) throw failures[0]!.error;
  return c.json(mints.map((mint, i) => listItem(mint, items[i]!)));
}

function listItem(mint: Address, outcome: PriceOutcome) {
  if (outcome.ok) return { ...outcome.record, success: true };
  return { ca: mint, success: false, error: { code: outcome.error.status, message: outcome.error.message } };
}

export const priceRoutes = new Hono<AppContext>().get("/price", (c) => answer(c, undefined));
for (const [path, venue] of Object.entries(venueAliases)) priceRoutes.get(`/${path}`, (c) => answer(c, venue));
