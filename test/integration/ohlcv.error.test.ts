/**
 * GET /api/v1/ohlcv refusals: `ca` and `interval` required; `interval`, `currency`, `fillEmpty` from their lists;
 * `limit` 1..1000 (N accepted, N+1 refused); `from`/`to` unix seconds with `from` ≤ `to`. A mint never traded is
 * 200 with no candles.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

let key = "";
beforeAll(async () => {
  key = await newApiKey();
});

const mint = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";

async function ohlcv(query: string): Promise<{ status: number; body: any }> {
  const res = await callWorker({ path: `/api/v1/ohlcv${query}` }, { key });
  return { status: res.status, body: await res.json() };
}
const badRequest = (message: string) => ({ status: 400, body: { status: "error", error: { code: 400, message } } });

describe("GET /api/v1/ohlcv: parameters", () => {
  it.each([
    ["no ca", "?interval=1m", "Missing required query parameter: ca"],
    ["a blank ca", "?ca=&interval=1m", "Missing required query parameter: ca"],
    ["no interval", `?ca=${mint}`, "Missing required query parameter: interval"],
    ["a malformed ca", "?ca=not-base58!&interval=1m", 'Invalid base58 address in ca: "not-base58!"'],
    ["a list in ca", `?ca=${mint},${mint}&interval=1m`, "ca takes one mint address on this endpoint"],
    ["an unknown interval", `?ca=${mint}&interval=2m`, "Invalid query parameter interval: must be one of 1s, 1m, 5m, 15m, 1h, 4h, 1d"],
    ["an interval in another case", `?ca=${mint}&interval=1H`, "Invalid query parameter interval: must be one of 1s, 1m, 5m, 15m, 1h, 4h, 1d"],
    ["an unknown currency", `?ca=${mint}&interval=1m&currency=eur`, "Invalid query parameter currency: must be one of usd, sol"],
    ["fillEmpty not a boolean word", `?ca=${mint}&interval=1m&fillEmpty=yes`, "Invalid query parameter fillEmpty: must be one of true, false"],
    ["from not an integer", `?ca=${mint}&interval=1m&from=yesterday`, "Invalid query parameter from: expected an integer"],
    ["to negative", `?ca=${mint}&interval=1m&to=-1`, "Invalid query parameter to: expected an integer"],
    ["from after to", `?ca=${mint}&interval=1m&from=1764000060&to=1764000000`, "Invalid query parameter from: must not be after to"],
  ])("%s → 400 naming it", async (_, query, message) => {
    expect(await ohlcv(query)).toEqual(badRequest(message));
  });

  it("limit: 0 and 1001 refused, 1 and 1000 accepted", async () => {
    expect(await ohlcv(`?ca=${mint}&interval=1m&limit=0`)).toEqual(badRequest("Invalid query parameter limit: must be at least 1"));
    expect(await ohlcv(`?ca=${mint}&interval=1m&limit=${limits.ohlcvMaxLimit + 1}`)).toEqual(badRequest("Invalid query parameter limit: must be at most 1000"));
    expect((await ohlcv(`?ca=${mint}&interval=1m&limit=1`)).status).toBe(200);
    expect((await ohlcv(`?ca=${mint}&interval=1d&limit=${limits.ohlcvMaxLimit}`)).status).toBe(200);
  });

  it("from equal to to is a range of one candle start, accepted", async () => {
    expect((await ohlcv(`?ca=${mint}&interval=1m&from=1764000000&to=1764000000`)).status).toBe(200);
  });

  it.each(["1m", "5m", "15m", "1h", "4h", "1d"])("a mint never traded → 200, no candles (%s)", async (interval) => {
    expect(await ohlcv(`?ca=${mint}&interval=${interval}&currency=sol&fillEmpty=true`)).toEqual({ status: 200, body: { ca: mint, interval, currency: "sol", candles: [] } });
  });

  it("currency defaults to usd", async () => {
    expect((await ohlcv(`?ca=${mint}&interval=1h`)).body).toEqual({ ca: mint, interval: "1h", currency: "usd", candles: [] });
  });
});
