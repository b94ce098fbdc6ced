import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { ApiError } from "../errors/api-error";
import { limits } from "../limits";
import { decodeHoldersCursor, encodeHoldersCursor, fetchHoldersPage } from "../security/security-service";
import { holdersPageSchema } from "../security/security-schema";
import { errorResponse, named, restErrors, unknownMintError, validQuery, type Operation } from "./openapi/operation";
import { integerParam } from "./openapi/query-params";
import { parseSingleMint } from "./params";
import { securityDepsOf } from "./security-deps";

/**
 * GET /api/v1/holders?ca=<mint>&limit=&cursor=: the owners of a mint, largest first, labelled (holder, creator, pool,
 * curve, burn, locker), a page at a time (`nextCursor` → `cursor`), with the holder count and the slot read
 * (docs/security.md). A bad `limit` or `cursor` is a 400 naming the parameter.
 */
const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const holdersQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "One mint address.", examples: [bonk] }),
  limit: z.optional(integerParam(1, limits.holdersMaxLimit, `Owners per page; ${limits.holdersDefaultLimit} when not given.`, "50")),
  cursor: z.optional(z.string().register(z.globalRegistry, { description: "`nextCursor` of the previous page (opaque); the page continues after it.", examples: [encodeHoldersCursor({ amount: "4102987733102", owner: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" })] })),
});

const example = {
  ca: bonk,
  slot: 381204117,
  decimals: 5,
  supply: "8880813609815562849",
  count: null,
  owners: null,
  items: [
    { owner: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", amount: "410298773310238301", percent: "4.6200", label: "holder", venue: null },
    { owner: "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv", amount: "139826144001100000", percent: "1.5744", label: "pool", venue: "raydium-clmm" },
  ],
  nextCursor: encodeHoldersCursor({ amount: "139826144001100000", owner: "3ucNos4NbumPLZNWztqGHNFFgkHeRMBQAVemeeomsUxv" }),
  partial: true,
  reason: "this deployment does not scan every token account of a mint: only the 20 largest accounts were read",
};

const holdersOperation: Operation = {
  method: "get",
  path: "/api/v1/holders",
  operationId: "holders",
  summary: "Holders of a mint by owner, largest first, labelled, paged",
  description:
    "Token accounts summed per owner; pools, curves, burn addresses, lockers and the launchpad's creator labelled. `count` counts holders and " +
    "the creator (null when the list is partial: see `reason`). See the [guide](/guide/security.md).",
  tags: ["security"],
  authenticated: true,
  query: holdersQuery,
  responses: {
    200: { description: "A page of owners, largest first, and `nextCursor` (null on the last page)", schema: named("HoldersPage", holdersPageSchema), examples: { page: { summary: "A partial census", value: example } } },
    400: errorResponse("BAD_REQUEST", "`ca` missing or malformed; `limit` not an integer in range; a `cursor` this service did not make", {
      missingCa: "Missing required query parameter: ca",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      badLimit: `Invalid query parameter limit: must be at most ${limits.holdersMaxLimit}`,
      badCursor: "Invalid query parameter cursor: not a cursor of this endpoint",
    }),
    ...restErrors,
    404: unknownMintError(),
  },
};

export const holdersRoutes = new Hono<AppContext>().get(holdersOperation.path, validQuery(holdersQuery), async (c) => {
  const query = c.req.valid("query");
  const mint = parseSingleMint(query.ca);
  const after = query.cursor === undefined ? undefined : decodeHoldersCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) throw new ApiError("BAD_REQUEST", "Invalid query parameter cursor: not a cursor of this endpoint");
  const page = await fetchHoldersPage(securityDepsOf(c), mint, query.limit ?? limits.holdersDefaultLimit, after);
  return c.json(page);
});
export const holdersOperations = [holdersOperation];
