import { Hono } from "hono";
import { z } from "zod/mini";

import type { AppContext } from "../app-context";
import { fetchSecurityReport } from "../security/security-service";
import { securityReportSchema } from "../security/security-schema";
import { errorResponse, named, restErrors, unknownMintError, validQuery, type Operation } from "./openapi/operation";
import { parseSingleMint } from "./params";
import { securityDepsOf } from "./security-deps";

/**
 * GET /api/v1/security?ca=<mint>: what a buyer checks first — authorities, harmful Token-2022 extensions, LP burnt or
 * locked, the creator, the launch's snipers and bundle, the holders (docs/security.md). 400 for a missing or malformed
 * `ca`, 404 when it is not a mint, 503/504 when the chain cannot be read.
 */
const securityQuery = z.object({
  ca: z.string().register(z.globalRegistry, { description: "One mint address.", examples: ["DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263"] }),
});

const mint = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
const creator = "7Vbmv1jt4vyuqBZcpYPpnVhrqVe5e6ZPb6JxDcffRHUM";
const source = (accounts: string[], slot: number | null, trades: number | null, unseen: string | null) => ({ accounts, slot, trades, unseen });
const example = {
  ca: mint,
  slot: 381204117,
  decimals: 6,
  supply: "1000000000000000",
  isToken2022: false,
  authorities: {
    mintAuthority: null,
    freezeAuthority: null,
    updateAuthority: null,
    isMutable: false,
    metadataSource: "metaplex",
    flags: [],
    source: source([mint, "4nKu6vLtqtGjqAL9D7wj5bq5bqKnN3fkDHZ4JVuAFYzZ"], 381204117, null, null),
  },
  extensions: [],
  liquidity: {
    pool: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW",
    dex: "pumpfun",
    liquidityUsd: "41250.12",
    lp: null,
    positions: null,
    message: "The token trades on its bonding curve: there is no LP, and nobody can withdraw the curve's reserves before it migrates.",
    source: source(["Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW"], null, null, null),
  },
  creator: {
    address: creator,
    launchpad: "pumpfun",
    holding: "23910000000000",
    holdingPercent: "2.3910",
    bought: "66439628394781",
    sold: "26575851357912",
    soldPercentOfBought: "40.0000",
    message: `The pump.fun bonding curve names ${creator} as the creator; it holds 2.3910% of the supply and has sold 40.0000% of what it bought.`,
    source: source(["Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW"], 381204117, 2, "trades before slot 381190000 (the trade index's retention); tokens moved by transfers rather than trades"),
  },
  launch: {
    creationSlot: 381203990,
    windowSlots: 3,
    snipers: { count: 3, wallets: ["G7xAMbMNYxwttdcjRxJQK1mXA8wyBv9GQvfjTF8CR9Sv", "EjdPRWmGcusyna9QaCJRWHUvpgmrP9Xs3A3EJWAPWzNS", "AoJ1DNHEeMT2VNAKn1m6icBdgAeSwnBnaBpwhTPr49iH"], bought: "71918349157414", boughtPercent: "7.1918", held: "56804830105911", heldPercent: "5.6805" },
    bundle: { count: 1, wallets: ["G7xAMbMNYxwttdcjRxJQK1mXA8wyBv9GQvfjTF8CR9Sv"], bought: "30227038103006", boughtPercent: "3.0227", held: "15113519051503", heldPercent: "1.5114", detected: true },
    message: "3 wallet(s) bought 7.1918% of the supply within 3 slot(s) of the creation (slot 381203990) and still hold 5.6805%; 1 other signer(s) bought 3.0227% in the creation slot itself (a bundle).",
    source: source([], 381204117, 5, "buyers' tokens held outside their associated token accounts when the holder census is partial"),
  },
  holders: {
    count: null,
    top10: "301244000000000",
    top10Percent: "30.1244",
    top20: "402113000000000",
    top20Percent: "40.2113",
    excluded: [{ owner: "Ef9TQKvhNkwWMW9DCfPqh3vkVJwK1tjzGZpmA6V4wTzW", amount: "512000000000000", percent: "51.2000", label: "curve", venue: "pumpfun" }],
    exact: true,
    partial: true,
    source: source([], 381204117, null, "this deployment does not scan every token account of a mint: only the 20 largest accounts were read"),
  },
};

const securityOperation: Operation = {
  method: "get",
  path: "/api/v1/security",
  operationId: "security",
  summary: "Token safety: authorities, extensions, LP locks, creator, snipers, holders",
  description:
    "Every fact with its `source` (accounts and slot, or trades counted) and what it cannot see (`unseen`). " +
    "The same object is the overview's `risk` with `risk=true`. See the [guide](/guide/security.md).",
  tags: ["security"],
  authenticated: true,
  query: securityQuery,
  responses: {
    200: { description: "The security report", schema: named("SecurityReport", securityReportSchema), examples: { sniped: { summary: "A sniped pump.fun coin", value: example } } },
    400: errorResponse("BAD_REQUEST", "`ca` missing, malformed, or a list", {
      missingCa: "Missing required query parameter: ca",
      badCa: 'Invalid base58 address in ca: "not-base58!"',
      list: "ca takes one mint address on this endpoint",
    }),
    ...restErrors,
    404: unknownMintError(),
  },
};

export const securityRoutes = new Hono<AppContext>().get(securityOperation.path, validQuery(securityQuery), async (c) => {
  const report = await fetchSecurityReport(securityDepsOf(c), parseSingleMint(c.req.valid("query").ca));
  return c.json(report);
});
export const securityOperations = [securityOperation];
