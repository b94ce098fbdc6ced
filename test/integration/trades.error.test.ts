/**
 * GET /api/v1/trades refusals: exactly one of `ca` and `wallet`, each a base58 address; `limit` 1..100 (N accepted,
 * N+1 refused); a `cursor` this endpoint did not make. An address never traded is an empty page, not a 404.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

const bonk = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const wallet = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

async function trades(query: string): Promise<{ status: number; body: any }> {
  const res = await callWorker({ path: `/api/v1/trades${query}` }, { key });
  return { status: res.status, body: await res.json() };
}
const badRequest = (message: string) => ({ status: 400, body: { status: "error", error: { code: 400, message } } });
const emptyPage = { status: 200, body: { items: [], nextCursor: null } };

describe("GET /api/v1/trades: ca or wallet", () => {
  it.each([
    ["neither", ""],
    ["a blank ca", "?ca="],
    ["a blank wallet", "?wallet=%20"],
    ["only a limit", "?limit=5"],
  ])("%s → 400 naming both", async (_, query) => {
    expect(await trades(query)).toEqual(badRequest("Missing required query parameter: ca or wallet"));
  });

  it("both → 400", async () => {
    expect(await trades(`?ca=${bonk}&wallet=${wallet}`)).toEqual(badRequest("Give either ca or wallet, not both"));
  });

  it.each([
    ["ca", "not-base58!"],
    ["ca", "abc"],
    ["wallet", "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"],
    ["wallet", "1".repeat(60)],
  ])("a malformed %s → 400 naming it", async (param, value) => {
    expect(await trades(`?${param}=${encodeURIComponent(value)}`)).toEqual(badRequest(`Invalid base58 address in ${param}: ${JSON.stringify(value)}`));
  });

  it("a mint or a wallet never traded → 200, an empty page", async () => {
    expect(await trades(`?ca=${bonk}`)).toEqual(emptyPage);
    expect(await trades(`?wallet=${wallet}`)).toEqual(emptyPage);
  });
});

describe("GET /api/v1/trades: limit and cursor", () => {
  it("limit: 0 and 101 refused, 1 and 100 accepted", async () => {
    expect(await trades(`?ca=${bonk}&limit=0`)).toEqual(badRequest("Invalid query parameter limit: must be at least 1"));
    expect(await trades(`?ca=${bonk}&limit=${limits.tradesMaxLimit + 1}`)).toEqual(badRequest("Invalid query parameter limit: must be at most 100"));
    expect(await trades(`?ca=${bonk}&limit=1`)).toEqual(emptyPage);
    expect(await trades(`?ca=${bonk}&limit=${limits.tradesMaxLimit}`)).toEqual(emptyPage);
  });

  it.each(["", "1.5", "x", "-3"])("limit=%j → 400 naming limit", async (limit) => {
    const res = await trades(`?wallet=${wallet}&limit=${encodeURIComponent(limit)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^Invalid query parameter limit: /);
  });

  it.each(["", "garbage!", "MTo yOjM", btoa("1:2:3"), btoa("-1:0:0").replace(/=+$/, ""), "A".repeat(200)])("cursor=%j → 400 naming cursor", async (cursor) => {
    expect(await trades(`?ca=${bonk}&cursor=${encodeURIComponent(cursor)}`)).toEqual(badRequest("Invalid query parameter cursor: not a cursor of this endpoint"));
  });

  it("a well-formed cursor past the end → an empty page", async () => {
    const cursor = btoa("5:0:0").replace(/=+$/, "");
    expect(await trades(`?ca=${bonk}&cursor=${cursor}`)).toEqual(emptyPage);
  });
});
