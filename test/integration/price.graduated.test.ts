/**
 * `graduated` is the token's, not the route's: present only for tokens launched on the pump.fun bonding curve (true
 * once the curve is complete), absent for every other token — the same on /price and on every venue route.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { WorldManifest, WorldToken } from "../../localnet/src/world/manifest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { world } from "../helpers/localnet";

const WSOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});

/** `graduated` of the record a route gives (the key's presence matters: "absent" is an answer). */
async function graduatedOn(route: string, mint: string): Promise<{ present: boolean; value: unknown }> {
  const { status, body } = await getJson<Record<string, unknown>>(`/api/v1/${route}?ca=${mint}`, { headers: { "x-api-key": key } });
  expect(status, `${route} ${mint}`).toBe(200);
  return { present: "graduated" in body, value: body.graduated };
}
const token = (pred: (t: WorldToken) => boolean, what: string) => {
  const found = manifest.tokens.find(pred);
  if (!found) throw new Error(`the world has no ${what}`);
  return found;
};

describe("graduated", () => {
  it("a graduated pump.fun token: true on /price and on each venue it trades on", async () => {
    // Given a pump.fun launch that graduated to PumpSwap and also trades on Meteora DLMM
    const t = token((x) => x.tags.includes("graduated") && x.tags.includes("pumpfun") && x.venues.includes("meteora-dlmm"), "graduated pump token on DLMM");
    // Then every route says so
    for (const route of ["price", "pumpswap", "meteora"]) expect(await graduatedOn(route, t.mint), route).toEqual({ present: true, value: true });
  });

  it("a pump.fun token still on its curve: false on /price and on its venue", async () => {
    const t = token((x) => x.tags.includes("mid") && x.venues.includes("pumpfun"), "pump token mid-curve");
    for (const route of ["price", "pumpfun"]) expect(await graduatedOn(route, t.mint), route).toEqual({ present: true, value: false });
  });

  it("absent for tokens no launchpad curve launched: SOL, USDC, a Raydium token", async () => {
    const raydium = token((x) => x.venues.includes("raydium-cpmm") && !x.tags.includes("pumpfun"), "Raydium CPMM token");
    expect((await graduatedOn("price", WSOL)).present).toBe(false);
    expect((await graduatedOn("price", USDC)).present).toBe(false);
    for (const route of ["price", "raydium"]) expect((await graduatedOn(route, raydium.mint)).present, route).toBe(false);
  });
});
