import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { chainRpc, upstreamCounts, world } from "../helpers/localnet";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { PUMP_FEE_CONFIG_ADDRESS, PUMP_FEE_PROGRAM_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS } from "../../src/venues/pump-fees";

/**
 * Upstream requests of a quote, per pool kind, once the pool's related accounts are known (a second quote of the same
 * pool): one batched read for the reserve kinds whose fees sit in accounts pricing reads already (or, PumpSwap's, in one fixed
 * account read with them), two where a quote reads accounts named by the pool (CPMM's amm config; CLMM's config and
 * its walk's tick arrays; DLMM's walk's bin arrays, the Clock having come with the pools).
 */
const WSOL = "So11111111111111111111111111111111111111112";
const expected: Record<string, number> = {
  pumpfun: 1,
  "raydium-amm-v4": 1,
  "meteora-damm-v1": 1,
  "meteora-damm-v2": 1,
  "meteora-dbc": 1,
  pumpswap: 1,
  "raydium-cpmm": 2,
  "raydium-clmm": 2,
  "meteora-dlmm": 2,
};

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = await world();
});

describe("upstream requests per quote", () => {
  for (const [kind, requests] of Object.entries(expected)) {
    it(`${kind}: ${requests}`, async () => {
      const pool = manifest.tokens.flatMap((t) => t.pools).find((p) => p.kind === kind && p.quoteMint === WSOL)!;
      const path = `/api/v1/quote?ca=${pool.baseMint}&side=buy&amount=0.01&unit=sol&poolId=${pool.address}`;
      // Given one quote of the pool (its related accounts are then known), When it is quoted again
      await getJson(path, { headers: { "x-api-key": key } });
      const res = await getJson(path, { headers: { "x-api-key": key } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // Then the upstream saw this many requests for it
      const counts = await upstreamCounts(res.headers.get("x-request-id")!);
      expect(counts.requests, JSON.stringify(counts)).toBe(requests);
    });
  }
});

describe("quote receipts (?receipt=true)", () => {
  const hex = async (data: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", data))].map((b) => b.toString(16).padStart(2, "0")).join("");
  type Account = { role: string; address: string; owner: string; sha256: string; dataLength: number; fields: Record<string, unknown> };
  type Answer = { slot: number; quotes: { pool: string; poolType: string }[]; receipt?: { slot: number; pools: { pool: string; swap: string; formula: { poolType: string; version: string }; accounts: Account[] }[]; solUsd: { accounts: Account[] } } };

  for (const [kind, requests] of Object.entries(expected)) {
    it(`${kind}: every account of the quote, at its slot, with no read of its own`, async () => {
      const pool = manifest.tokens.flatMap((t) => t.pools).find((p) => p.kind === kind && p.quoteMint === WSOL)!;
      const path = `/api/v1/quote?ca=${pool.baseMint}&side=buy&amount=0.01&unit=sol&poolId=${pool.address}`;
      // Given a quote of the pool whose related accounts are known, When it is asked with a receipt
      await getJson(path, { headers: { "x-api-key": key } });
      const res = await getJson<Answer>(`${path}&receipt=true`, { headers: { "x-api-key": key } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // Then the receipt costs no upstream request of its own
      expect((await upstreamCounts(res.headers.get("x-request-id")!)).requests).toBe(requests);
      const receipt = res.body.receipt!;
      expect(receipt.slot).toBe(res.body.slot);
      expect(receipt.pools.map((p) => p.pool)).toEqual(res.body.quotes.map((q) => q.pool));
      const [first] = receipt.pools;
      expect(first!.formula).toMatchObject({ poolType: res.body.quotes[0]!.poolType, version: expect.any(String) });
      // And every account it lists is, at its slot, what the chain holds (owner, length, SHA-256)
      const listed = [...first!.accounts, ...receipt.solUsd.accounts];
      const chain = await chainRpc<{ value: ({ data: [string, string]; owner: string } | null)[] }>("getMultipleAccounts", [
        listed.map((a) => a.address),
        { encoding: "base64", commitment: "confirmed", minContextSlot: receipt.slot },
      ]);
      const seen = await Promise.all(
        chain.value.map(async (v) => (v ? { owner: v.owner, sha256: await hex(Uint8Array.from(atob(v.data[0]), (c) => c.charCodeAt(0))) } : null)),
      );
      expect(seen).toEqual(listed.map((a) => ({ owner: a.owner, sha256: a.sha256 })));
      // A tick walk lists the arrays it read
      if (kind === "raydium-clmm") expect(first!.accounts.filter((a) => a.role === "swap").length, first!.swap).toBeGreaterThan(0);
      // The pump kinds list the fee config their fees came from, by role, with its schedules decoded, and say which tier applied
      if (kind === "pumpfun" || kind === "pumpswap") {
        const feeConfig = first!.accounts.find((a) => a.role === "feeConfig");
        expect(feeConfig?.address, JSON.stringify(first!.accounts.map((a) => a.role))).toBe(kind === "pumpfun" ? PUMP_FEE_CONFIG_ADDRESS : PUMPSWAP_FEE_CONFIG_ADDRESS);
        expect(feeConfig!.owner).toBe(PUMP_FEE_PROGRAM_ADDRESS);
        expect(String(feeConfig!.fields.feeTiers)).toMatch(/^0: \d+\/\d+\/\d+; /);
        expect(first!.swap).toMatch(/fee config, market-cap tier \d+ of \d+/);
      }
      // And without receipt=true there is none
      const plain = await getJson<Answer>(path, { headers: { "x-api-key": key } });
      expect(plain.body.receipt).toBeUndefined();
    });
  }
});
