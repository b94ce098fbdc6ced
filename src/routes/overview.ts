import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { tokenOverviewSchema } from "../overview/overview-schema";
import { errorResponse, named, restErrors, unknownMintError, validQuery, type Operation } from "./openapi/operation";
import { fetchTokenOverview } from "../overview/overview-service";
import { parseSingleMint } from "./params";
import { fetchSecurityReport } from "../security/security-service";
import { securityReportSchema } from "../security/security-schema";
import { securityDepsOf } from "./security-deps";

/**
 * GET /api/v1/overview?ca=<mint>: the token overview (SPEC.md "Token overview", docs/overview.md).
 * 400 for a missing or malformed `ca`, 404 when it is not a mint, 503/504 when the chain cannot be read.
 */
const overviewQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "One mint address (a comma list is refused here).", examples: ["DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"] }),
  risk: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, { description: "`true` adds `risk`: the token's security report, as GET /api/v1/security answers it.", examples: ["true"] }),
  ),
  receipt: z.optional(
    z.enum(["true", "false"]).register(z.globalRegistry, {
      description: "`true` adds `priceReceipt`: the receipt of the price fields (`dex`, `priceInSol`, `priceInUsd`, `marketCap`) as the price routes give it with `receipt=true`, or null when no venue prices the token (see the guide, Receipts).",
      examples: ["true"],
    }),
  ),
});

/** The overview, and with `risk=true` the security report beside it. */
const overviewAnswerSchema = z.object({ ...tokenOverviewSchema.shape, risk: z.optional(securityReportSchema) });

const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const overviewExample = {
  ca: bonk,
  name: "Bonk",
  symbol: "Bonk",
  image: "https://arweave.net/hQiPZOsRZXGXBJd_82PhVdlM_hACsT_q6wqwf5cSY7I",
  description: null,
  socials: { twitter: "https://twitter.com/bonk_inu", website: "https://bonkcoin.com" },
  decimals: "5",
  supply: "8880813609815562849",
  circulatingSupply: "8880813609815562849",
  mintAuthority: null,
  freezeAuthority: null,
  updateAuthority: "9AhKqLR67hwapvG8SA2JFXaCshXc9nALJjpKaHZrsbkw",
  creators: [],
  isToken2022: false,
  top10HoldersBalance: "12871920345123.40817",
  top10HoldersPercent: "14.4937",
  top20HoldersBalance: "17520934871290.11230",
  top20HoldersPercent: "19.7287",
  dex: "raydium-clmm",
  priceInSol: "0.000000161540244",
  priceInUsd: "0.0000233711523684",
  marketCap: "2069384471.62135",
  holders: [
    { owner: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", balance: "4102987733102.38301", percent: "4.6200", label: "holder", venue: null },
    { owner: "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv", balance: "1398261440011.00000", percent: "1.5744", label: "liquidity", venue: "raydium-clmm" },
  ],
  holdersExact: false,
  transferFee: null,
};

const overviewOperation: Operation = {
  method: "get",
  path: "/api/v1/overview",
  operationId: "overview",
  summary: "Token profile: metadata, authorities, top holders, price",
  description:
    "The token overview plus `holders`, `holdersExact`, `circulatingSupply` and `transferFee` ([guide](/guide/overview.md)); with `risk=true`, " +
    "`risk`: the security report ([guide](/guide/security.md)).",
  tags: ["overview"],
  authenticated: true,
  query: overviewQuery,
  responses: {
    200: { description: "The token overview", schema: named("TokenOverview", overviewAnswerSchema), examples: { bonk: { summary: "A Raydium-priced token", value: overviewExample } } },
    400: errorResponse("BAD_REQUEST", "`ca` missing, malformed, or a list; `risk` other than true or false", {
      missingCa: "Missing required query parameter: ca",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      list: "ca takes one mint address on this endpoint",
      badRisk: 'Invalid query parameter risk: expected one of "true"|"false"',
    }),
    ...restErrors,
    404: unknownMintError({ notMint: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW is not a token mint" }),
  },
};

export const overviewRoutes = new Hono<AppContext>().get(overviewOperation.path, validQuery(overviewQuery), async (c) => {
  const query = c.req.valid("query");
  const mint = parseSingleMint(query.ca);
  const { config, upstream, prices, overviewCaches } = c.get("services");
  // The report runs beside the overview (its reads share nothing with it but the price service's cache).
  const risk = query.risk === "true" ? fetchSecurityReport(securityDepsOf(c), mint) : undefined;
  risk?.catch(() => undefined);
  const overview = await fetchTokenOverview(
    {
      upstream,
      caches: overviewCaches,
      prices,
      priceTtlMs: config.priceCacheTtlMs,
      metadataPolicy: config.metadataPolicy,
      allowHolderScan: config.holdersFullScan,
      waitUntil: (p) => c.executionCtx.waitUntil(p),
      requestId: c.get("requestId"),
      deadline: c.get("deadline"),
      receipt: query.receipt === "true",
    },
    mint,
  );
  return c.json(risk ? { ...overview, risk: await risk } : overview);
});
export const overviewOperations = [overviewOperation];
