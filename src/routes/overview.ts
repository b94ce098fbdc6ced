import { Hono } from "hono";

import type { AppContext } from "../env";
import { metadataPolicyFromEnv } from "../overview/offchain-profile";
import { fetchTokenOverview } from "../overview/overview-service";
import { priceCacheFor, priceCacheTtlMs } from "../pricing/price-cache";
import { createUpstream } from "../solana/upstream";
import { parseSingleMint } from "./params";

/**
 * GET /api/v1/overview?ca=<mint>: the token overview (SPEC.md "Token overview", docs/overview.md).
 * 400 for a missing or malformed `ca`, 404 when it is not a mint, 503/504 when the chain cannot be read.
 */
export const overviewRoutes = new Hono<AppContext>().get("/overview", async (c) => {
  const mint = parseSingleMint(c.req.query("ca"));
  const priceTtlMs = priceCacheTtlMs(c.env.PRICE_CACHE_TTL_MS);
  const priceCache = priceCacheFor(c.env.PRICE_CACHE_TTL_MS);
  const overview = await fetchTokenOverview(
    {
      upstream: createUpstream(c.env),
      price: { db: c.env.DB, cache: priceCache },
      priceTtlMs,
      metadataPolicy: metadataPolicyFromEnv(c.env),
      allowHolderScan: c.env.HOLDERS_FULL_SCAN === "true",
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
      deadline: c.get("deadline"),
    },
    mint,
  );
  return c.json(overview);
});
