/**
 * Every token of the world with a tradable pool is priced by its first ask, as a service just started meets the chain
 * (npm start): the trade index has caught up with the recent blocks (pools that traded are registered); pools created at
 * genesis that never traded — of every kind that cannot be derived from a mint — are found only by the first-ask scan.
 * A file of its own: a worker isolate's scans are budgeted per minute (limits.poolScan), and this file spends it alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { ensureFreshOracle } from "../helpers/independent-price";
import { advance, readableWorld } from "../helpers/localnet";
import { ingestUntil } from "../helpers/trade-index";
import type { WorldToken } from "../../localnet/src/world/manifest";

const WSOL = "So11111111111111111111111111111111111111112";

interface PriceRecord {
  ca: string;
  dex: string;
  pool: string;
}

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});
const auth = () => ({ headers: { "x-api-key": key } });

async function registryRows(mint: string): Promise<{ address: string }[]> {
  const { results } = await env.DB.prepare("SELECT address FROM pools WHERE base_mint = ?1 OR quote_mint = ?1").bind(mint).all<{ address: string }>();
  return results;
}

/** Quotes priced today (pools quoted in another token wait for that token's own price). */
const PRICED_QUOTES = new Set([WSOL, "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

describe("every world token with a tradable pool is priced on its first ask", () => {
  it("after the trade index caught up (as under npm start): every token, quiet never-traded pools and new venues included", async () => {
    // Given the service as npm start leaves it: the trade index has read the chain's recent blocks (pools that traded
    // are registered); quiet pools created at genesis never traded, so only a scan finds them
    await advance(20);
    await ingestUntil();
    const manifest = await readableWorld();
    const tradable = (t: WorldToken) =>
      t.pools.filter((p) => (PRICED_QUOTES.has(p.quoteMint) || PRICED_QUOTES.has(p.baseMint)) && !(p.kind === "pumpfun" && t.tags.includes("graduated")));
    const tokens = manifest.tokens.filter((t) => !PRICED_QUOTES.has(t.mint) && !t.tags.includes("complete") && !t.tags.includes("opens-later") && tradable(t).length > 0);
    const registered = async (t: WorldToken) => (await registryRows(t.mint)).length > 0;
    // (tokens that only a scan can find first: a scan's budget is per minute, and every never-seen mint spends one)
    const scanFirst: WorldToken[] = [];
    const rest: WorldToken[] = [];
    for (const t of tokens) (!(await registered(t)) && t.pools.every((p) => !p.derivable || p.quoteMint !== WSOL) ? scanFirst : rest).push(t);
    expect(tokens.filter((t) => t.tags.includes("quiet")).length, "quiet pools of every non-derivable kind").toBe(3);
    expect(new Set(tokens.flatMap((t) => t.pools.map((p) => p.kind)))).toEqual(
      new Set(["pumpfun", "pumpswap", "raydium-amm-v4", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2", "meteora-dbc", "raydium-launchlab", "orca-whirlpool"]),
    );
    await ensureFreshOracle();

    // When each is asked once
    const refused: string[] = [];
    for (const token of [...scanFirst, ...rest]) {
      const res = await getJson<PriceRecord>(`/api/v1/price?ca=${token.mint}`, auth());
      // Then it is priced, from one of its own pools
      if (res.status !== 200 || !token.pools.some((p) => p.address === res.body.pool)) refused.push(`${token.symbol} [${token.tags.join(",")}] → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});

