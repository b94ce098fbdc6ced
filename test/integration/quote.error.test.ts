import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { world } from "../helpers/localnet";
import type { WorldManifest, WorldPool, WorldToken } from "../../localnet/src/world/manifest";

/** GET /api/v1/quote refuses bad input with a 400 naming the parameter, an unknown mint with 404, a size past the depth read with 422. */
type ErrorBody = { status: string; error: { code: number; message: string } };
const WSOL = "So11111111111111111111111111111111111111112";

let key = "";
let manifest: WorldManifest;
let token: WorldToken;
let pool: WorldPool;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
  token = manifest.tokens.find((t) => t.pools.some((p) => p.kind === "raydium-cpmm" && p.quoteMint === WSOL))!;
  pool = token.pools.find((p) => p.kind === "raydium-cpmm")!;
});
const ask = (query: string) => getJson<ErrorBody>(`/api/v1/quote?${query}`, { headers: { "x-api-key": key } });

describe("bad input: 400 naming the parameter", () => {
  const cases: [string, (mint: string) => string, RegExp][] = [
    ["zero amount", (m) => `ca=${m}&side=buy&amount=0&unit=sol`, /amount: must be greater than zero/],
    ["negative amount", (m) => `ca=${m}&side=buy&amount=-1&unit=sol`, /Invalid amount "-1": must be positive/],
    ["non-numeric amount", (m) => `ca=${m}&side=buy&amount=abc&unit=sol`, /Invalid amount "abc"/],
    ["an exponent", (m) => `ca=${m}&side=buy&amount=1e3&unit=sol`, /Invalid amount "1e3"/],
    ["beyond u64", (m) => `ca=${m}&side=buy&amount=18446744074&unit=sol`, /amount.*beyond the largest amount/],
    ["more decimals than SOL", (m) => `ca=${m}&side=buy&amount=0.0000000001&unit=sol`, /10 decimal places; SOL has 9/],
    ["unknown side", (m) => `ca=${m}&side=hold&amount=1&unit=sol`, /query parameter side: must be one of buy, sell/],
    ["unknown unit", (m) => `ca=${m}&side=buy&amount=1&unit=eur`, /query parameter unit: must be one of token, sol, usd/],
    ["missing amount", (m) => `ca=${m}&side=buy&unit=sol`, /Missing required query parameter: amount/],
    ["slippage over 100 %", (m) => `ca=${m}&side=buy&amount=1&unit=sol&slippageBps=10001`, /slippageBps: must be at most 10000/],
    ["malformed ca", () => `ca=not-base58!&side=buy&amount=1&unit=sol`, /Invalid base58 address in ca/],
  ];
  for (const [name, query, message] of cases) {
    it(name, async () => {
      const res = await ask(query(token.mint));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    });
  }

  it("more decimals than the token has", async () => {
    // Given a token of `decimals` places, When the amount has one more
    const res = await ask(`ca=${token.mint}&side=sell&amount=1.${"1".repeat(token.decimals + 1)}&unit=token`);
    // Then the amount is refused with the token's own precision
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`has ${token.decimals + 1} decimal places; the token (${token.mint}) has ${token.decimals}`);
  });

  it("a poolId that is not a pool of the mint", async () => {
    const other = manifest.tokens.find((t) => t.mint !== token.mint && t.pools.some((p) => p.kind === "raydium-cpmm"))!;
    const foreign = other.pools.find((p) => p.kind === "raydium-cpmm")!.address;
    const res = await ask(`ca=${token.mint}&side=buy&amount=1&unit=sol&poolId=${foreign}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.message).toContain(`Invalid poolId: ${foreign} is not a pool of ${token.mint}`);
  });
});

describe("no pool, no depth", () => {
  it("an unknown mint: 404 with the reason", async () => {
    const res = await ask("ca=11111111111111111111111111111112&side=buy&amount=1&unit=sol");
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain("no such account");
  });

  it("a size beyond the tick arrays read: 422 with the depth read", async () => {
    const clmm = manifest.tokens.flatMap((t) => t.pools).find((p) => p.kind === "raydium-clmm" && p.quoteMint === WSOL)!;
    const res = await ask(`ca=${clmm.baseMint}&side=buy&amount=10000000&unit=sol&poolId=${clmm.address}`);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.message).toMatch(/the swap goes past the 10 tick arrays read \(depth read: \d+ atoms of So1/);
  });

  it("a valid quote names its slot, fees and minimum received at the slippage asked", async () => {
    const res = await getJson<{ slot: number; quotes: { amountOut: { raw: string }; minimumReceived: { raw: string }; fees: { kind: string }[] }[] }>(
      `/api/v1/quote?ca=${token.mint}&side=buy&amount=0.5&unit=sol&poolId=${pool.address}&slippageBps=250`,
      { headers: { "x-api-key": key } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [quote] = res.body.quotes;
    expect(BigInt(quote!.minimumReceived.raw)).toBe((BigInt(quote!.amountOut.raw) * 9750n) / 10000n);
    expect(quote!.fees.map((f) => f.kind)).toEqual(expect.arrayContaining(["lp", "protocol", "fund"]));
  });
});
