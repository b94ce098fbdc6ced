import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { chainRpc, world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import type { PriceRecord } from "../../src/pricing/price-record";
import { limits } from "../../src/limits";

/**
 * A pool the caller names with `poolId` (issue 9): priced whatever its depth, and every refusal says why. The mainnet
 * DAMM v1 mSOL/SOL pool HcjZvfeS is loaded into the test localnet from test/fixtures (test/global-setup.ts); it keeps its
 * tokens in the wSOL dynamic vault that the world's own DAMM v1 pools share, which once made it answer 404.
 */
const MSOL = "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So";
const WSOL = "So11111111111111111111111111111111111111112";
const MAINNET_MSOL_POOL = "HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur";

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});
const auth = () => ({ headers: { "x-api-key": key } });
type ErrorBody = { status: string; error: { code: number; message: string } };

describe("a mainnet DAMM v1 SOL pool loaded into localnet", () => {
  it("is priced on venue-c by poolId (was 404: the world overwrote the shared wSOL vault)", async () => {
    // Given the pool's account set and the world's wSOL vault, adopted at genesis
    const vault = await chainRpc<{ value: { data: [string, string] } }>("getAccountInfo", ["FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT", { encoding: "base64" }]);
    const lpMintBytes = Buffer.from(vault.value.data[0], "base64").subarray(115, 147);
    // When mSOL is priced on the named pool
    const res = await getJson<PriceRecord>(`/api/v1/venue-c?ca=${MSOL}&poolId=${MAINNET_MSOL_POOL}`, auth());
    // Then it is the mainnet pool's price: mSOL trades near its stake-pool value (1.19–1.21 SOL at capture)
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ca: MSOL, dex: "meteora-damm-v1", pool: MAINNET_MSOL_POOL });
    expect(Number(res.body.priceInSol)).toBeGreaterThan(1.19);
    expect(Number(res.body.priceInSol)).toBeLessThan(1.21);
    expect(res.body.belowLiquidityFloor).toBeUndefined();
    // and the vault still names mainnet's LP mint FZN7QZ8Z… (the SDK's non-PDA exception), not one of the world's
    expect(lpMintBytes.equals(Buffer.from(await addressBytes("FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j")))).toBe(true);
  });

  it("the world's own DAMM v1 SOL pools still price through the adopted vault", async () => {
    for (const token of manifest.tokens.filter((t) => t.pools.some((p) => p.kind === "meteora-damm-v1" && p.quoteMint === WSOL))) {
      if (token.tags.some((t) => t.startsWith("broken-metadata:404"))) continue; // metadata only; its price is tested elsewhere
      const pool = token.pools.find((p) => p.kind === "meteora-damm-v1")!;
      const res = await getJson<PriceRecord>(`/api/v1/venue-c?ca=${token.mint}&poolId=${pool.address}`, auth());
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(pool.related.aVaultLpMint === "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j" || pool.related.bVaultLpMint === "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j").toBe(true);
    }
  });

  it("SOL on the mSOL pool is refused with the reason: SOL's own price comes from its dollar markets", async () => {
    const res = await getJson<ErrorBody>(`/api/v1/venue-c?ca=${WSOL}&poolId=${MAINNET_MSOL_POOL}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain(`pool ${MAINNET_MSOL_POOL} (meteora-damm-v1) quotes ${WSOL} in ${MSOL}: SOL is priced only against USDC and USDT`);
  });
});

describe("refusals say why", () => {
  it("a named pool that does not exist", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("graduated"))!;
    const missing = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const res = await getJson<ErrorBody>(`/api/v1/price?ca=${token.mint}&poolId=${missing}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe(`No price for ${token.mint} on pool ${missing}: no such account`);
  });

  it("a named pool of another venue names its owner", async () => {
    const token = manifest.tokens.find((t) => t.venues.includes("pumpswap") && !t.tags.includes("complete"))!;
    const pool = token.pools.find((p) => p.kind === "pumpswap")!;
    const res = await getJson<ErrorBody>(`/api/v1/venue-c?ca=${token.mint}&poolId=${pool.address}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain(`pool ${pool.address} is owned by pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA, not by a program of meteora-dlmm`);
  });

  it("a named pool that does not trade the mint says so", async () => {
    const [a, b] = manifest.tokens.filter((t) => t.venues.includes("pumpswap") && !t.tags.includes("complete"));
    const pool = b!.pools.find((p) => p.kind === "pumpswap")!;
    const res = await getJson<ErrorBody>(`/api/v1/venue-d?ca=${a!.mint}&poolId=${pool.address}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain(`pool ${pool.address}: pumpswap: mismatch: pool does not trade ${a!.mint}`);
  });
});

describe("the liquidity floor guards automatic routing only", () => {
  it("a dust pool is passed over automatically, priced and flagged when named", async () => {
    // Given a token with a real DAMM v1 pool and a ~$70 DAMM v2 pool
    const token = manifest.tokens.find((t) => t.tags.includes("dust-pool"))!;
    const dust = token.pools.find((p) => p.kind === "meteora-damm-v2")!;
    // When priced automatically, the deep pool wins
    const auto = await getJson<PriceRecord>(`/api/v1/price?ca=${token.mint}`, auth());
    expect(auto.status).toBe(200);
    expect(auto.body.pool).not.toBe(dust.address);
    expect(auto.body.belowLiquidityFloor).toBeUndefined();
    // When named, the dust pool is priced and the record says it is under the floor
    const named = await getJson<PriceRecord>(`/api/v1/venue-c?ca=${token.mint}&poolId=${dust.address}`, auth());
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body).toMatchObject({ pool: dust.address, dex: "meteora-damm-v2", belowLiquidityFloor: true });
    expect(Number(named.body.liquidityUsd)).toBeLessThan(limits.minPoolLiquidityUsd);
    expect(Number(named.body.liquidityUsd)).toBeGreaterThan(0);
  });

  it("with only a dust pool on a venue, the 404 names it and the floor", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("dust-pool"))!;
    const dust = token.pools.find((p) => p.kind === "meteora-damm-v2")!;
    const res = await getJson<ErrorBody>(`/api/v1/venue-c?ca=${token.mint}`, auth());
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(
      new RegExp(`^No price for ${token.mint} on venues: [a-z0-9, -]+: pool ${dust.address} \\(meteora-damm-v2\\) holds \\$[0-9.]+ of liquidity, below the \\$${limits.minPoolLiquidityUsd} floor of automatic routing \\(name it with poolId to price it anyway\\)$`),
    );
  });
});

async function addressBytes(a: string): Promise<Uint8Array> {
  const { getAddressEncoder, address } = await import("@solana/kit");
  return new Uint8Array(getAddressEncoder().encode(address(a)));
}
