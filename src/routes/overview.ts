import { Hono } from "hono";

import type { AppContext } from "../env";
import { limits } from "../limits";
import { isLoopbackUpstream } from "../overview/holder-reads";
import { metadataPolicyFromEnv } from "../overview/offchain-profile";
import { fetchTokenOverview } from "../overview/overview-service";
import { PriceCache } from "../pricing/price-cache";
import { createUpstream } from "../solana/upstream";
import { parseSingleMint } from "./params";

/** The price TTL of this deployment (PRICE_CACHE_TTL_MS), same default as the price routes: 1 s. */
function priceCacheTtlMs(raw: string | undefined): number {
  const parsed = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(parsed) && parsed >= 0 ? parsed : 1000;
}

/**
 * GET /api/v1/overview?ca=<mint>: the token overview (SPEC.md "Token overview", docs/overview.md).
 * 400 for a missing or malformed `ca`, 404 when it is not a mint, 503/504 when the chain cannot be read.
 */
export const overviewRoutes = new Hono<AppContext>().get("/overview", async (c) => {
  const mint = parseSingleMint(c.req.query("ca"));
  const priceTtlMs = priceCacheTtlMs(c.env.PRICE_CACHE_TTL_MS);
  const overview = await fetchTokenOverview(
    {
      upstream: createUpstream(c.env),
      price: { db: c.env.DB, cache: new PriceCache(priceTtlMs, limits.maxStaleMs) },
      priceTtlMs,
      metadataPolicy: metadataPolicyFromEnv(c.env),
      allowHolderScan: isLoopbackUpstream(c.env.UPSTREAM_RPC_URL),
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
    },
    mint,
  );
  return c.json(overview);
});
