/**
 * GET /api/v1/holders against localnet's own list of owners of its security tokens (`GET /__localnet/security?mint=`):
 * every owner with a positive balance, largest first, labelled (pool, curve, burn, locker, creator, holder), paged by
 * cursor with nothing lost or repeated; the count and the slot. Bad `limit` / `cursor` are 400s naming the parameter;
 * a deployment that does not scan says the list is partial, and why.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

import { limits } from "../../src/limits";
import { securityCaches } from "../../src/security/security-service";
import { holdersPageSchema, type HoldersPage } from "../../src/security/security-schema";
import type { SecurityTruth } from "../../localnet/src/world/security-tokens";
import { advance, chainRpc } from "../helpers/localnet";
import { newApiKey } from "../helpers/keys";
import { formatPercentIndependently, holderRowsOf } from "../helpers/security-truth";
import { callWorker } from "../helpers/worker";

let key: string;
let tokens: { role: string; mint: string }[];

async function truthOf(mint: string): Promise<SecurityTruth> {
  return (await (await fetch(`${env.LOCALNET_URL}/__localnet/security?mint=${mint}`)).json()) as SecurityTruth;
}

async function page(query: string, envOverrides?: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const res = await callWorker({ path: `/api/v1/holders?${query}` }, { key, env: envOverrides });
  return { status: res.status, body: await res.json() };
}

/** Every page of `mint`'s holders at `limit` a page. */
async function allPages(mint: string, limit: number): Promise<HoldersPage[]> {
  await securityCaches.forget(mint as never);
  const pages: HoldersPage[] = [];
  let cursor: string | null = null;
  do {
    const { status, body } = await page(`ca=${mint}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const parsed = holdersPageSchema.parse(body);
    pages.push(parsed);
    cursor = parsed.nextCursor;
  } while (cursor !== null && pages.length < 100);
  return pages;
}

beforeAll(async () => {
  key = await newApiKey();
  await advance(2);
  tokens = ((await (await fetch(`${env.LOCALNET_URL}/__localnet/security`)).json()) as { tokens: { role: string; mint: string }[] }).tokens;
});

const VENUE_OF_LABEL: Record<string, (row: { venue: string | null }) => void> = {
  pool: (r) => expect(["raydium-cpmm", "raydium-amm-v4", "pumpswap", "meteora-damm-v2"]).toContain(r.venue),
  curve: (r) => expect(["meteora-dbc", "raydium-launchlab"]).toContain(r.venue),
  creator: (r) => expect(r.venue).toBeNull(),
  locker: (r) => expect(["streamflow", "jupiter-lock"]).toContain(r.venue),
  burn: (r) => expect(r.venue).toBeNull(),
  holder: (r) => expect(r.venue).toBeNull(),
};

/** The pool venue of the tokens priced by Raydium CLMM, Orca Whirlpool and Meteora DLMM pools (localnet security-positions.ts). */
const POSITION_ROLE_VENUE: Record<string, string> = { "positions-clmm": "raydium-clmm", "positions-whirlpool": "orca-whirlpool", "positions-dlmm": "meteora-dlmm" };

describe("GET /api/v1/holders", () => {
  for (const role of ["extensions-a", "extensions-b", "lp", "lp-amm-v4", "lp-pumpswap", "positions-damm-v2", "positions-clmm", "positions-whirlpool", "positions-dlmm", "creator-dbc", "creator-launchlab"]) {
    it(`${role}: pages of 7 list every owner of the world, in order, labelled, with the count and the slot`, async () => {
      const mint = tokens.find((t) => t.role === role)!.mint;
      const truth = await truthOf(mint);
      const pages = await allPages(mint, 7);
      const rows = pages.flatMap((p) => p.items);
      expect(rows.map((r) => ({ owner: r.owner, amount: r.amount, label: r.label }))).toEqual(holderRowsOf(truth));
      for (const r of rows) {
        expect(r.percent).toBe(formatPercentIndependently(BigInt(r.amount), BigInt(truth.supply)));
        // the position venues' pools are labelled with their own venue exactly
        if (r.label === "pool" && POSITION_ROLE_VENUE[role]) expect(r.venue).toBe(POSITION_ROLE_VENUE[role]);
        else VENUE_OF_LABEL[r.label]?.(r);
      }
      expect(pages.slice(0, -1).every((p) => p.items.length === 7)).toBe(true);
      const counted = truth.holders.filter((h) => h.label === "holder" || h.label === "creator").length;
      const confirmed = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
      for (const p of pages) {
        expect(p).toMatchObject({ ca: mint, supply: truth.supply, decimals: truth.decimals, count: counted, owners: truth.holders.length, partial: false, reason: null });
        expect(p.slot).toBeLessThanOrEqual(confirmed);
        expect(p.slot).toBeGreaterThan(0);
      }
    });
  }

  it("without limit a page holds 50; limit 100 is accepted, 101 and 0 are 400s naming limit", async () => {
    const mint = tokens.find((t) => t.role === "lp")!.mint;
    const all = (await allPages(mint, 100))[0]!;
    expect(all.items.length).toBeLessThanOrEqual(limits.holdersMaxLimit);
    const first = await page(`ca=${mint}`);
    expect(first.status).toBe(200);
    expect((first.body as HoldersPage).items).toEqual(all.items.slice(0, Math.min(limits.holdersDefaultLimit, all.items.length)));
    for (const bad of [String(limits.holdersMaxLimit + 1), "0", "1.5", "ten"]) {
      const { status, body } = await page(`ca=${mint}&limit=${bad}`);
      expect(status, bad).toBe(400);
      expect((body as { status: string; error: { code: number; message: string } }).error.message).toMatch(/^Invalid query parameter limit/);
    }
  });

  it("a cursor it did not make is a 400 naming cursor; the last page's nextCursor is null", async () => {
    const mint = tokens.find((t) => t.role === "extensions-b")!.mint;
    for (const bad of ["nope!", "AAAA", btoa("12:not-an-address"), "x".repeat(300)]) {
      const { status, body } = await page(`ca=${mint}&cursor=${encodeURIComponent(bad)}`);
      expect(status, bad).toBe(400);
      expect(body).toEqual({ status: "error", error: { code: 400, message: "Invalid query parameter cursor: not a cursor of this endpoint" } });
    }
    const pages = await allPages(mint, 2);
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it("a missing or malformed ca is a 400; an address that is not a mint is a 404", async () => {
    expect((await page("limit=5")).status).toBe(400);
    expect(((await page("limit=5")).body as { error: { message: string } }).error.message).toBe("Missing required query parameter: ca");
    expect((await page("ca=not-base58!")).status).toBe(400);
    const wallet = (await truthOf(tokens[0]!.mint)).holders.find((h) => h.label === "holder")!.owner;
    expect((await page(`ca=${wallet}`)).status).toBe(404);
  });

  it("where the deployment does not scan, the list is the largest accounts' owners and says it is partial", async () => {
    // Given the lp token (29 owners: more than the 20 largest accounts)
    const mint = tokens.find((t) => t.role === "lp")!.mint;
    const truth = await truthOf(mint);
    await securityCaches.forget(mint as never);
    const { status, body } = await page(`ca=${mint}&limit=100`, { HOLDERS_FULL_SCAN: "false" });
    await securityCaches.forget(mint as never);
    expect(status).toBe(200);
    const p = holdersPageSchema.parse(body);
    expect(p).toMatchObject({ partial: true, count: null, owners: null });
    expect(p.reason).toMatch(/does not scan every token account/);
    // the 20 largest accounts are the world's 20 largest owners here (one account each)
    expect(p.items.map((r) => ({ owner: r.owner, amount: r.amount, label: r.label }))).toEqual(holderRowsOf(truth).slice(0, 20));
  });
});
