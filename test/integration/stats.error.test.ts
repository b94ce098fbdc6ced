/**
 * GET /api/v1/stats refusals and the empty index: `ca` is required, at most limits.statsMaxMints mints (N accepted, N+1
 * refused by name), a list with no well-formed item is refused; before the cron's first ingest every window is empty
 * and `slot` / `updatedAt` are null.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";
import { getAddressDecoder } from "@solana/kit";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

async function stats(query: string, withKey = true): Promise<{ status: number; body: any }> {
  const res = await callWorker({ path: `/api/v1/stats${query}` }, withKey ? { key } : {});
  return { status: res.status, body: await res.json() };
}
const badRequest = (message: string) => ({ status: "error", error: { code: 400, message } });
/** A random well-formed address (no such account: its windows are empty). */
const newMint = () => getAddressDecoder().decode(crypto.getRandomValues(new Uint8Array(32)));
const mints = (n: number) => Array.from({ length: n }, newMint);

describe("GET /api/v1/stats: parameters", () => {
  it.each([
    ["no ca", "", "Missing required query parameter: ca"],
    ["an empty ca", "?ca=", "Missing required query parameter: ca"],
    ["only commas", "?ca=,,", "Missing required query parameter: ca"],
    ["one malformed mint", "?ca=not-base58!", 'Invalid base58 address in ca: "not-base58!"'],
    ["a list of malformed mints", "?ca=abc!,def!", 'Invalid base58 address in ca: "abc!"'],
  ])("%s → 400 naming the parameter", async (_, query, message) => {
    expect(await stats(query)).toEqual({ status: 400, body: badRequest(message) });
  });

  it(`a list of ${limits.statsMaxMints} mints is answered item by item; ${limits.statsMaxMints + 1} are refused`, async () => {
    const ok = await stats(`?ca=${mints(limits.statsMaxMints).join(",")}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toHaveLength(limits.statsMaxMints);
    const over = await stats(`?ca=${mints(limits.statsMaxMints + 1).join(",")}`);
    expect(over).toEqual({ status: 400, body: badRequest(`Too many mints in ca: ${limits.statsMaxMints + 1} (at most ${limits.statsMaxMints})`) });
  });

  it("no key → 401", async () => {
    expect((await stats(`?ca=${newMint()}`, false)).status).toBe(401);
  });

  it("before the first ingest: empty windows, slot and updatedAt null", async () => {
    const mint = newMint();
    const res = await stats(`?ca=${mint}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ca: mint, slot: null, updatedAt: null });
    for (const w of ["5m", "1h", "6h", "24h"]) expect(res.body[w]).toMatchObject({ buys: 0, sells: 0, buyers: 0, sellers: 0, buyVolumeUsd: 0, lastPriceUsd: null });
  });
});
