/**
 * GET /api/v1/overview against localnet, checked field by field against the chain itself. The expectations are built
 * here, independently of src/: raw accounts fetched with plain JSON-RPC and read at their documented offsets
 * (VENUES.md §1, §15, §16), the Metaplex account found by getProgramAccounts (not by PDA derivation), the off-chain
 * JSON fetched directly, and holder figures computed from EVERY token account of the mint.
 *
 * Other test files advance the shared chain, so each check runs between two identical slot readings (and retries
 * with the overview's caches forgotten when the chain moved meanwhile).
 */
import { getAddressDecoder, type Address } from "@solana/kit";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

import { servicesOf } from "../../src/services";
import { tokenOverviewSchema, type TokenOverview } from "../../src/overview/overview-schema";
import type { WorldManifest, WorldToken } from "../../localnet/src/world/manifest";
import { getJson } from "../helpers/http";
import { advance, incineratorBalance } from "../helpers/localnet";
import { newApiKey } from "../helpers/keys";
import { relErr } from "../helpers/numbers";

const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const TOKEN_2022 = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const METAPLEX = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s";
/** Vault owners that are not holders (VENUES.md §13): accounts owned by these programs, these authorities, burn keys. */
const VENUE_PROGRAMS = new Set([
  "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", // pump.fun
  "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA", // PumpSwap
  "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", // Raydium AMM v4
  "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C", // Raydium CPMM
  "CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK", // Raydium CLMM
  "LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj", // Raydium LaunchLab
  "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo", // Meteora DLMM
  "Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB", // Meteora DAMM v1
  "24Uqj9JCLxUeoC3hGfh5W3s9FM9uCHDS2SG3LYwBpyTi", // Meteora dynamic vault (DAMM v1's shared vaults)
  "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG", // Meteora DAMM v2
  "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN", // Meteora DBC
  "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc", // Orca Whirlpool
]);
const VENUE_AUTHORITIES = new Set([
  "5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1",
  "GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL",
  "WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh",
  "HLnpSz9h2S4hiLQ43rnSD9XkcUThA7B8hQMKmDaiTLcC",
  "FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM",
]);
const BURN = new Set(["1nc1nerator11111111111111111111111111111111", "11111111111111111111111111111111"]);
const VENUES = ["pumpfun", "pumpswap", "raydium-amm-v4", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2", "meteora-dbc"];

// ---------- plain JSON-RPC and byte reads, written for this test ----------

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(env.LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const key = (data: Uint8Array, at: number) => getAddressDecoder().decode(data.subarray(at, at + 32));
const u16 = (data: Uint8Array, at: number) => data[at]! | (data[at + 1]! << 8);
const u32 = (data: Uint8Array, at: number) => new DataView(data.buffer, data.byteOffset).getUint32(at, true);
const u64 = (data: Uint8Array, at: number) => new DataView(data.buffer, data.byteOffset).getBigUint64(at, true);
const isZeroKey = (data: Uint8Array, at: number) => data.subarray(at, at + 32).every((b) => b === 0);
/** Borsh string at `at`: [text without NUL padding, next offset]. */
function borshString(data: Uint8Array, at: number): [string, number] {
  const length = u32(data, at);
  const text = new TextDecoder().decode(data.subarray(at + 4, at + 4 + length)).replace(/\0/g, "").trimEnd();
  return [text, at + 4 + length];
}

async function accountInfo(address: string): Promise<{ owner: string; data: Uint8Array } | null> {
  const { value } = await rpc<{ value: { owner: string; data: [string, string] } | null }>("getAccountInfo", [address, { encoding: "base64", commitment: "confirmed" }]);
  return value ? { owner: value.owner, data: bytes(value.data[0]) } : null;
}
async function processedSlot(): Promise<number> {
  return rpc<number>("getSlot", [{ commitment: "processed" }]);
}

// ---------- what localnet holds, as the overview should report it ----------

type Expected = Omit<TokenOverview, "image" | "description" | "socials" | "dex" | "priceInSol" | "priceInUsd" | "marketCap" | "holders" | "holdersExact">;

/** Identity, authorities and Token-2022 facts from the mint and its metadata, read at raw offsets. */
async function expectedIdentity(token: WorldToken): Promise<Omit<Expected, "top10HoldersBalance" | "top10HoldersPercent" | "top20HoldersBalance" | "top20HoldersPercent">> {
  const mint = (await accountInfo(token.mint))!;
  const d = mint.data;
  const base = {
    ca: token.mint,
    decimals: String(d[44]),
    supply: u64(d, 36).toString(),
    // Circulating: supply less what the incinerator holds, found by a scan of its token accounts (not by ATA derivation).
    circulatingSupply: (u64(d, 36) - (await incineratorBalance(token.mint))).toString(),
    mintAuthority: u32(d, 0) === 1 ? key(d, 4) : null,
    freezeAuthority: u32(d, 46) === 1 ? key(d, 50) : null,
    isToken2022: mint.owner === TOKEN_2022,
  };
  // Token-2022 TLV from 166: type u16, length u16, value (VENUES.md §16).
  const tlv = new Map<number, Uint8Array>();
  if (base.isToken2022 && d.length > 166) {
    for (let at = 166; at + 4 <= d.length; ) {
      const type = u16(d, at);
      const length = u16(d, at + 2);
      if (type === 0) break;
      tlv.set(type, d.subarray(at + 4, at + 4 + length));
      at += 4 + length;
    }
  }
  const fee = tlv.get(1);
  const transferFee = fee ? { basisPoints: String(u16(fee, 106)), maximumFee: u64(fee, 98).toString(), fromEpoch: u64(fee, 90).toString() } : null;
  const pointer = tlv.get(18);
  const own = tlv.get(19);
  if (pointer && own && key(pointer, 32) === token.mint) {
    const [name, afterName] = borshString(own, 64);
    const [symbol] = borshString(own, afterName);
    return { ...base, name, symbol, updateAuthority: isZeroKey(own, 0) ? null : key(own, 0), creators: [], transferFee };
  }
  // The Metaplex account found by what it says (mint @33), not by deriving its address.
  const found = await rpc<{ pubkey: string; account: { data: [string, string] } }[]>("getProgramAccounts", [
    METAPLEX,
    { encoding: "base64", commitment: "confirmed", filters: [{ memcmp: { offset: 33, bytes: token.mint } }] },
  ]);
  expect(found.length, `metadata accounts of ${token.symbol}`).toBeLessThanOrEqual(1);
  if (found.length === 0) return { ...base, name: "", symbol: "", updateAuthority: null, creators: [], transferFee };
  const m = bytes(found[0]!.account.data[0]);
  const [name, afterName] = borshString(m, 65);
  const [symbol, afterSymbol] = borshString(m, afterName);
  const [, afterUri] = borshString(m, afterSymbol);
  const creators: Expected["creators"] = [];
  let at = afterUri + 2; // seller_fee_basis_points u16
  if (m[at] === 1) {
    const count = u32(m, at + 1);
    at += 5;
    for (let i = 0; i < count; i++, at += 34) creators.push({ address: key(m, at), verified: m[at + 32] === 1, share: String(m[at + 33]) });
  }
  return { ...base, name, symbol, updateAuthority: key(m, 1), creators, transferFee };
}

function formatAmount(raw: bigint, decimals: number): string {
  if (decimals === 0) return raw.toString();
  const s = raw.toString().padStart(decimals + 1, "0");
  const fraction = s.slice(-decimals).replace(/0+$/, "");
  return fraction ? `${s.slice(0, -decimals)}.${fraction}` : s.slice(0, -decimals);
}
function formatPercent(part: bigint, whole: bigint): string {
  if (whole === 0n) return "0.0000";
  const scaled = (part * 1_000_000n * 2n + whole) / (2n * whole); // percent × 10^4, half up
  const s = scaled.toString().padStart(5, "0");
  return `${s.slice(0, -4)}.${s.slice(-4)}`;
}

/** Top-10/20 from every token account: aggregate by owner, drop venue/burn owners, rank. */
async function expectedHolders(token: WorldToken, supply: bigint, decimals: number) {
  const filters: unknown[] = [{ memcmp: { offset: 0, bytes: token.mint } }];
  if (token.tokenProgram === TOKEN) filters.push({ dataSize: 165 });
  const all = await rpc<{ account: { data: [string, string] } }[]>("getProgramAccounts", [token.tokenProgram, { encoding: "base64", commitment: "confirmed", filters }]);
  const byOwner = new Map<string, bigint>();
  for (const { account } of all) {
    const d = bytes(account.data[0]);
    byOwner.set(key(d, 32), (byOwner.get(key(d, 32)) ?? 0n) + u64(d, 64));
  }
  const owners = [...byOwner.keys()];
  const ownerPrograms = new Map<string, string | null>();
  for (let i = 0; i < owners.length; i += 100) {
    const page = owners.slice(i, i + 100);
    const { value } = await rpc<{ value: ({ owner: string } | null)[] }>("getMultipleAccounts", [page, { encoding: "base64", commitment: "confirmed", dataSlice: { offset: 0, length: 0 } }]);
    page.forEach((o, j) => ownerPrograms.set(o, value[j]?.owner ?? null));
  }
  const isHolder = (o: string) => !BURN.has(o) && !VENUE_AUTHORITIES.has(o) && !VENUE_PROGRAMS.has(ownerPrograms.get(o) ?? "");
  const ranked = [...byOwner].filter(([o, amount]) => amount > 0n && isHolder(o)).map(([, amount]) => amount).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  const sum = (n: number) => ranked.slice(0, n).reduce((s, a) => s + a, 0n);
  const nonHolders = [...byOwner].filter(([o, amount]) => amount > 0n && !isHolder(o)).map(([o]) => o);
  return {
    top10HoldersBalance: formatAmount(sum(10), decimals),
    top10HoldersPercent: formatPercent(sum(10), supply),
    top20HoldersBalance: formatAmount(sum(20), decimals),
    top20HoldersPercent: formatPercent(sum(20), supply),
    nonHolders,
    /** owners with a balance that count as holders (not token accounts: a wallet may hold several, or an empty one) */
    holderCount: ranked.length,
  };
}

/** image / description / socials straight from the token's JSON (URLs in their WHATWG-normalised form). */
async function expectedOffchain(token: WorldToken) {
  const doc = (await (await fetch(token.metadataUri!)).json()) as Record<string, unknown>;
  const bags = [doc, doc.extensions, (doc.properties as Record<string, unknown> | undefined)?.links, doc.links] as (Record<string, string> | undefined)[];
  const socials: Record<string, string> = {};
  for (const kind of ["twitter", "website", "telegram"]) {
    const value = bags.map((bag) => bag?.[kind]).find((v) => typeof v === "string");
    if (value) socials[kind] = new URL(value).href;
  }
  return { image: new URL(doc.image as string).href, description: doc.description as string, socials };
}

// ---------- the checks ----------

let apiKey = "";
let manifest: WorldManifest;
beforeAll(async () => {
  apiKey = await newApiKey();
  manifest = (await (await fetch(`${env.LOCALNET_URL}/__localnet/world`)).json()) as WorldManifest;
  // The manifest is the newest (processed) state: a token launched in that slot is not at `confirmed` yet, where the
  // overview reads. Two more slots confirm everything the manifest lists.
  await advance(2);
});

async function overview(mint: string): Promise<TokenOverview> {
  const res = await getJson<TokenOverview>(`/api/v1/overview?ca=${mint}`, { headers: { "x-api-key": apiKey } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const parsed = tokenOverviewSchema.safeParse(res.body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return res.body;
}

/** Overview and chain read at one unchanged slot; retried (caches forgotten) when another test moved the chain. */
async function checkToken(token: WorldToken): Promise<TokenOverview> {
  for (let attempt = 0; ; attempt++) {
    const before = await processedSlot();
    const got = await overview(token.mint);
    const identity = await expectedIdentity(token);
    const holders = await expectedHolders(token, BigInt(identity.supply), Number(identity.decimals));
    const price = await getJson<Record<string, unknown>>(`/api/v1/price?ca=${token.mint}`, { headers: { "x-api-key": apiKey } });
    if ((await processedSlot()) !== before && attempt < 5) {
      await servicesOf(env).overviewCaches.forget(token.mint as Address);
      continue;
    }
    const { nonHolders, holderCount, ...figures } = holders;
    expect(got, token.symbol).toMatchObject({ ...identity, ...figures, holdersExact: true });
    // Liquidity and burn owners are listed with their labels, never as holders.
    for (const owner of nonHolders) {
      expect(got.holders.find((h) => h.owner === owner)?.label, `${token.symbol} ${owner}`).toMatch(/^(liquidity|burn)$/);
    }
    expect(got.holders.filter((h) => h.label === "holder").length).toBe(Math.min(20, holderCount));
    // Market data is the price service's record for the same mint, or null throughout when nothing prices it.
    if (price.status === 200) {
      expect(got).toMatchObject({ dex: price.body.dex, priceInSol: price.body.priceInSol, priceInUsd: price.body.priceInUsd, marketCap: price.body.marketCap });
    } else {
      expect(price.status).toBe(404);
      expect(got).toMatchObject({ dex: null, priceInSol: null, priceInUsd: null, marketCap: null });
    }
    return got;
  }
}

describe("GET /api/v1/overview?receipt=true", () => {
  it("adds the receipt of its price fields, the price routes' own; a token nothing prices gets null; without it, none", async () => {
    // Given a priced token (a PumpSwap pool quoted in SOL)
    const token = manifest.tokens.find((t) => t.venues.includes("pumpswap") && !t.tags.some((tag) => tag.startsWith("broken-metadata")))!;
    const headers = { headers: { "x-api-key": apiKey } };
    // When its overview is asked with a receipt
    const res = await getJson<TokenOverview & { priceReceipt?: any }>(`/api/v1/overview?ca=${token.mint}&receipt=true`, headers);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tokenOverviewSchema.safeParse(res.body).success).toBe(true);
    const receipt = res.body.priceReceipt;
    // Then the receipt describes the overview's price: its pool, its formula, and a price in USD equal to the overview's
    expect(receipt).toMatchObject({ formula: { poolType: expect.any(String) }, result: { priceInQuote: expect.any(String) } });
    expect(receipt.accounts.map((a: { role: string }) => a.role)).toEqual(expect.arrayContaining(["pool", "mint"]));
    expect(relErr(Number(receipt.result.priceInQuote) * Number(receipt.result.quoteUsd), Number(res.body.priceInUsd))).toBeLessThanOrEqual(1e-12);
    // And the price route gives the same receipt for the same slot
    const price = await getJson<{ slot: number; receipt: { slot: number; pool: string } }>(`/api/v1/price?ca=${token.mint}&receipt=true`, headers);
    expect(price.body.receipt).toEqual(receipt);
    // A plain overview has no receipt field
    const plain = await getJson<Record<string, unknown>>(`/api/v1/overview?ca=${token.mint}`, headers);
    expect(plain.body).not.toHaveProperty("priceReceipt");
    // And a token nothing prices: null
    const unpriced = manifest.tokens.find((t) => t.pools.length === 0 && !t.tags.some((tag) => tag.startsWith("broken-metadata")));
    if (unpriced) {
      const none = await getJson<Record<string, unknown>>(`/api/v1/overview?ca=${unpriced.mint}&receipt=true`, headers);
      expect(none.body).toMatchObject({ priceInUsd: null, priceReceipt: null });
    }
  });
});

describe("GET /api/v1/overview: every field matches the chain", () => {
  it.each(VENUES)("tokens trading on %s", async (venue) => {
    const tokens = manifest.tokens.filter((t) => t.venues[0] === venue && !t.tags.some((tag) => tag.startsWith("broken-metadata")));
    expect(tokens.length, `world tokens on ${venue}`).toBeGreaterThan(0);
    for (const token of tokens) {
      const got = await checkToken(token);
      expect(got).toMatchObject(await expectedOffchain(token));
    }
  });

  it("a Token-2022 pump coin carries its own metadata (pointer → mint) and no Metaplex account", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("token-2022") && t.venues.includes("pumpfun"))!;
    const got = await checkToken(token);
    expect(got.isToken2022).toBe(true);
    expect(got.name).toBe(token.name);
    expect(got.symbol).toBe(token.symbol);
  });

  it("a Token-2022 mint with a transfer fee reports it", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("transfer-fee"))!;
    const got = await checkToken(token);
    expect(got.isToken2022).toBe(true);
    expect(got.transferFee).not.toBeNull();
  });

  it("a graduated pump.fun token: the empty curve and the PumpSwap pool are liquidity, priced on pumpswap", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("graduated") && t.venues.includes("pumpswap"))!;
    const got = await checkToken(token);
    const pool = token.pools.find((p) => p.kind === "pumpswap")!;
    expect(got.holders.find((h) => h.owner === pool.address)).toMatchObject({ label: "liquidity", venue: "pumpswap" });
    expect(got.dex).toBe("pumpswap");
    expect(got.name).toBe(token.name);
  });

  it("incinerated supply is listed as burn, not counted among holders", async () => {
    const token = manifest.tokens.find((t) => t.tags.includes("incinerated"))!;
    const got = await checkToken(token);
    expect(got.holders.find((h) => h.owner === "1nc1nerator11111111111111111111111111111111")).toMatchObject({ label: "burn", venue: null });
    // And circulating supply leaves it out (the manifest says how much was sent there)
    expect(BigInt(got.circulatingSupply)).toBe(BigInt(got.supply) - BigInt(token.details!.incinerated as string));
  });
});
