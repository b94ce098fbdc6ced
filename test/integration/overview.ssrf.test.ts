/**
 * The overview's metadata step against hostile URIs. Localnet cannot give a token an arbitrary URI, so this drives
 * `fetchTokenOverview` directly: a scripted upstream serves a mint and its Metaplex account carrying the hostile URI,
 * the REAL guarded fetch runs with a recording `fetchImpl`, and the price comes from a seeded price cache (the price
 * path is not under test here). Every case must end in a schema-valid overview with empty metadata and no fetch of
 * a forbidden target.
 */
import { env } from "cloudflare:workers";
import { getAddressDecoder, getBase64Decoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { limits } from "../../src/limits";
import { fetchMetadataJson, type FetchLike } from "../../src/metadata/guarded-fetch";
import { OverviewCaches, fetchTokenOverview } from "../../src/overview/overview-service";
import { PriceService } from "../../src/pricing/price-service";
import { tokenOverviewSchema } from "../../src/overview/overview-schema";
import type { MetadataUriPolicy } from "../../src/metadata/uri-policy";
import { findMetaplexMetadataAddress } from "../../src/solana/accounts/metaplex-metadata";
import { PriceCache, priceCacheKey } from "../../src/pricing/price-cache";
import { rawAnswerFromText, type ExpectedAnswer, type JsonRpcResponse, type RawAnswer, type Upstream } from "../../src/solana/upstream";

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const METAPLEX_PROGRAM = "metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s";
const UPDATE_AUTHORITY = "TSLvdd1pWpHVjahSpsvCXUbgwsL3JAcvokwaKt1eokM";
const policy = { ipfsGateway: "https://ipfs.io/ipfs/", arweaveGateway: "https://arweave.net/", allowedDevHosts: [] };
const base64 = getBase64Decoder();

let nextMintSeed = 1;
/** A fresh mint address per case, so no case sees another's cached profile. */
function freshMint(): Address {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, nextMintSeed++ * 2654435761);
  bytes[31] = 7;
  return getAddressDecoder().decode(bytes);
}

/** 82-byte SPL mint: no authorities, supply 1e15, decimals 6, initialized. */
function mintBytes(): Uint8Array {
  const data = new Uint8Array(82);
  new DataView(data.buffer).setBigUint64(36, 1_000_000_000_000_000n, true);
  data[44] = 6;
  data[45] = 1;
  return data;
}

/** Metaplex MetadataV1 (VENUES.md §15) with the given uri, written field by field. */
function metaplexBytes(mint: Address, uri: string): Uint8Array {
  const parts: number[] = [4];
  const key = (a: string) => parts.push(...Array.from(getAddressEncoderBytes(a)));
  const str = (s: string) => {
    const b = new TextEncoder().encode(s);
    parts.push(b.length & 255, (b.length >> 8) & 255, 0, 0, ...b);
  };
  key(UPDATE_AUTHORITY);
  key(mint);
  str("Hostile");
  str("HOST");
  str(uri);
  parts.push(0, 0, /* creators */ 0, /* primary sale */ 0, /* mutable */ 1, /* edition nonce */ 0, /* token standard */ 0);
  return Uint8Array.from(parts);
}
function getAddressEncoderBytes(a: string): Uint8Array {
  // Inverse of the decoder without importing the encoder under test elsewhere: base58 → 32 bytes.
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = 0n;
  for (const c of a) n = n * 58n + BigInt(alphabet.indexOf(c));
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(n & 255n);
    n >>= 8n;
  }
  return out;
}

/** Upstream that answers getMultipleAccounts from `accounts` and getTokenLargestAccounts with no accounts. */
function scriptedUpstream(accounts: Map<string, { owner: string; data: Uint8Array }>): Pick<Upstream, "call" | "callRaw"> {
  const answer = (call: { id: number; method: string; params: unknown[] }): JsonRpcResponse => {
    const context = { slot: 1 };
    if (call.method === "getTokenLargestAccounts") return { jsonrpc: "2.0", id: call.id, result: { context, value: [] } };
    const addresses = call.params[0] as string[];
    const value = addresses.map((a) => {
      const acc = accounts.get(a);
      return acc ? { owner: acc.owner, lamports: 1_000_000, data: [base64.decode(acc.data), "base64"], executable: false, rentEpoch: 0, space: acc.data.length } : null;
    });
    return { jsonrpc: "2.0", id: call.id, result: { context, value } };
  };
  return {
    async call<T>(method: string, params?: readonly unknown[]) {
      return { result: answer({ id: 0, method, params: [...(params ?? [])] }).result as T };
    },
    async callRaw(body: string, expected: ExpectedAnswer): Promise<RawAnswer> {
      const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
      const json = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
      return rawAnswerFromText(JSON.stringify(json), expected, "http://upstream.test");
    },
  };
}

/** Runs one overview whose on-chain URI is `uri`, with every outbound metadata fetch answered by `respond`. */
async function overviewWithUri(
  uri: string,
  respond: (url: string, init: RequestInit) => Response | Promise<Response> = () => new Response("{}"),
  metadataPolicy: MetadataUriPolicy = policy,
) {
  const mint = freshMint();
  const accounts = new Map([
    [mint as string, { owner: TOKEN_PROGRAM, data: mintBytes() }],
    [(await findMetaplexMetadataAddress(mint)) as string, { owner: METAPLEX_PROGRAM, data: metaplexBytes(mint, uri) }],
  ]);
  const fetched: string[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    fetched.push(url);
    return respond(url, init);
  };
  const cache = new PriceCache(60_000, limits.maxStaleMs);
  cache.put(priceCacheKey("auto", mint, undefined), seededPrice(mint), () => undefined);
  const pending: Promise<unknown>[] = [];
  const upstream = scriptedUpstream(accounts);
  const overview = await fetchTokenOverview(
    {
      upstream,
      caches: new OverviewCaches(),
      prices: new PriceService({ rpc: upstream, db: env.DB, cache }),
      priceTtlMs: 1000,
      metadataPolicy,
      metadataFetch: { fetchImpl, timeoutMs: 1000 },
      allowHolderScan: false,
      waitUntil: (p) => pending.push(p),
    },
    mint,
  );
  await Promise.all(pending);
  return { overview, fetched };
}

function seededPrice(mint: Address) {
  return {
    ca: mint,
    dex: "pumpfun" as const,
    priceInSol: "0.000000028",
    priceInUsd: "0.0000042",
    marketCap: "4200",
    pool: mint,
    poolType: "pump-bonding-curve",
    liquidityUsd: "1000",
    quoteMint: "So11111111111111111111111111111111111111112",
    quotePriceSource: "sol-usd:pyth",
    slot: 1,
    updatedAt: Date.now(),
  };
}

function expectEmptyMetadata(overview: unknown) {
  const parsed = tokenOverviewSchema.safeParse(overview);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  expect(overview).toMatchObject({ name: "Hostile", symbol: "HOST", image: null, description: null, socials: {}, updateAuthority: UPDATE_AUTHORITY });
}

/** Targets no request may ever reach (what the hostile URIs and redirects point at). */
const FORBIDDEN_HOST = /(^|\/\/|@)(127\.|10\.|168\.63\.129\.16|.*\.svc\/|172\.16\.|192\.168\.|169\.254\.|100\.64\.|0\.0\.0\.0|localhost|\[|metadata\.google|.*\.nip\.io|.*\.sslip\.io|printer\.local|intranet)/;

const HOSTILE_URIS = [
  "http://127.0.0.1/meta.json",
  "https://127.0.0.1/meta.json",
  "https://localhost/meta.json",
  "https://10.0.0.1/token.json",
  "https://172.16.5.4/token.json",
  "https://192.168.1.1/token.json",
  "https://169.254.169.254/latest/meta-data/",
  "https://100.64.0.1/token.json",
  "https://0.0.0.0/token.json",
  "https://0/token.json",
  "https://2130706433/token.json",
  "https://017700000001/token.json",
  "https://0177.0.0.1/token.json",
  "https://0x7f.0.0.1/token.json",
  "https://0x7f000001/token.json",
  "https://127.1/token.json",
  "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/token.json",
  "https://127\u30020\u30020\u30021/token.json",
  "https://255.255.255.255/token.json",
  "https://224.0.0.1/token.json",
  "https://198.18.0.1/token.json",
  "https://[::1]/token.json",
  "https://[::]/token.json",
  "https://[::ffff:127.0.0.1]/token.json",
  "https://[::ffff:7f00:1]/token.json",
  "https://[::127.0.0.1]/token.json",
  "https://[fd00::1]/token.json",
  "https://[fe80::1]/token.json",
  "https://[64:ff9b::a9fe:a9fe]/token.json",
  "https://user:pass@cdn.tokenmeta.com/token.json",
  "https://cdn.tokenmeta.com@127.0.0.1/token.json",
  "https://cdn.tokenmeta.com\\@127.0.0.1/token.json",
  "https://cdn.tokenmeta.com/to\tken.json",
  "//127.0.0.1/token.json",
  "file:///etc/passwd",
  'data:application/json,{"image":"https://x.com/i.png"}',
  "javascript:alert(1)",
  "ftp://cdn.tokenmeta.com/token.json",
  "gopher://127.0.0.1:6379/_INFO",
  "ws://cdn.tokenmeta.com/token",
  "blob:https://cdn.tokenmeta.com/0b8e6c1e",
  "http://cdn.tokenmeta.com/token.json",
  "https://cdn.tokenmeta.com:8443/token.json",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://10.0.0.1.nip.io/token.json",
  "https://127.0.0.1.sslip.io/token.json",
  "https://printer.local/token.json",
  "https://intranet/token.json",
  "https://kubernetes.default.svc/token.json",
  "https://redis.prod.svc.cluster.local/token.json",
  "https://vault.corp.internal/token.json",
  "https://168.63.129.16/machine?comp=goalstate",
  "https://2822734096/token.json",
  "https://0xa8.0x3f.0x81.0x10/token.json",
  "https://0250.077.0201.020/token.json",
  "https://[::ffff:168.63.129.16]/token.json",
  "https://[64:ff9b:1::a83f:8110]/token.json",
  "https://[3fff::1]/token.json",
  "https://[5f00::1]/token.json",
  "ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/%252e%252e/%252e%252e/admin",
  "ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/.%252e/x",
  "ipfs://../../etc/passwd",
  "ar://short",
];

const REDIRECT_TARGETS = [
  "http://169.254.169.254/latest/meta-data/iam/",
  "https://169.254.169.254/latest/meta-data/iam/",
  "http://127.0.0.1:8899/meta.json",
  "https://[::1]/token.json",
  "https://[::ffff:10.0.0.1]/token.json",
  "//127.0.0.1/token.json",
  "file:///etc/passwd",
  "https://10.0.0.1.nip.io/token.json",
  "https://2130706433/token.json",
  "https://168.63.129.16/machine?comp=goalstate",
  "https://kubernetes.default.svc/token.json",
];

describe("overview metadata step: hostile URIs", () => {
  it(`has at least 40 hostile URIs and ${REDIRECT_TARGETS.length} hostile redirects`, () => {
    expect(HOSTILE_URIS.length + REDIRECT_TARGETS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(HOSTILE_URIS).size).toBe(HOSTILE_URIS.length);
  });

  it("control: an allowed URI is fetched and fills image, description and socials", async () => {
    const { overview, fetched } = await overviewWithUri("https://cdn.tokenmeta.com/good.json", () =>
      Response.json({ image: "https://cdn.tokenmeta.com/good.png", description: "fine", twitter: "@goodtoken", website: "https://goodtoken.com" }),
    );
    expect(fetched).toEqual(["https://cdn.tokenmeta.com/good.json"]);
    expect(tokenOverviewSchema.safeParse(overview).success).toBe(true);
    expect(overview).toMatchObject({
      image: "https://cdn.tokenmeta.com/good.png",
      description: "fine",
      socials: { twitter: "https://x.com/goodtoken", website: "https://goodtoken.com/" },
      dex: "pumpfun",
      priceInUsd: "0.0000042",
    });
  });

  it.each(HOSTILE_URIS)("%s: nothing fetched, empty metadata", async (uri) => {
    const { overview, fetched } = await overviewWithUri(uri);
    expect(fetched).toEqual([]);
    expectEmptyMetadata(overview);
  });

  it.each(REDIRECT_TARGETS)("redirect to %s: only the allowed first hop is fetched, empty metadata", async (target) => {
    const first = "https://cdn.tokenmeta.com/redirect.json";
    const { overview, fetched } = await overviewWithUri(first, () => new Response(null, { status: 302, headers: { location: target } }));
    expect(fetched).toEqual([first]);
    expect(fetched.some((url) => FORBIDDEN_HOST.test(url))).toBe(false);
    expectEmptyMetadata(overview);
  });

  it("an allowed document whose image and socials point at private hosts keeps them out", async () => {
    const { overview, fetched } = await overviewWithUri("https://cdn.tokenmeta.com/sneaky.json", () =>
      Response.json({ image: "http://169.254.169.254/latest/meta-data/", website: "https://10.0.0.1/", telegram: "file:///etc/passwd" }),
    );
    expect(fetched).toEqual(["https://cdn.tokenmeta.com/sneaky.json"]);
    expectEmptyMetadata(overview);
  });
});

describe("metadata fetch under workerd: compression bombs", () => {
  // The real fetch of the runtime against localnet's /meta/gzip-bomb.json: ~16 KiB of gzip on the wire, 16 MiB of JSON
  // once decoded. workerd inflates Content-Encoding: gzip before the body reaches us, so the cap must (and does) count
  // decoded bytes; a runtime that handed over the raw gzip would fail at UTF-8 instead, never inflate.
  const localnetPolicy = () => ({ ...policy, allowedDevHosts: [new URL(env.LOCALNET_URL).host] });

  it("the bomb really is small on the wire and huge decoded (control)", async () => {
    const res = await fetch(`${env.LOCALNET_URL}/meta/gzip-bomb.json`);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(Number(res.headers.get("content-length"))).toBeLessThan(limits.metadataMaxBytes);
    expect((await res.arrayBuffer()).byteLength).toBe(16 * 1024 * 1024);
  });

  it("is cut at the 64 KiB cap counting decoded bytes, quickly", async () => {
    const started = Date.now();
    const result = await fetchMetadataJson(`${env.LOCALNET_URL}/meta/gzip-bomb.json`, localnetPolicy());
    expect(result).toEqual({ ok: false, reason: "too_large", fetches: 1 });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("leaves the overview with empty metadata when a token's URI is the bomb", async () => {
    const bomb = `${env.LOCALNET_URL}/meta/gzip-bomb.json`;
    const { overview, fetched } = await overviewWithUri(bomb, (url, init) => fetch(url, init), localnetPolicy());
    expect(fetched).toEqual([bomb]);
    expectEmptyMetadata(overview);
  });
});
