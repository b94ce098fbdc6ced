/**
 * The extras edition over JSON-RPC: pools a service cannot derive from a mint are found the way an indexer finds them on
 * mainnet — getProgramAccounts with `dataSize` + `memcmp` on the mint's offset, `dataSlice` to read only the keys — for
 * the quiet AMM v4 / DBC / DAMM v2 pools and the new LaunchLab and Whirlpool kinds; the manifest tells each pool's kind,
 * quote and activation; the ground truth of the new kinds' swaps is the vault changes in the blocks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddressDecoder, getAddressEncoder, type Address } from "@solana/kit";
import { startLocalnet, type Localnet } from "../../localnet/src/server.js";
import type { WorldManifest, WorldPool, WorldToken } from "../../localnet/src/world/manifest.js";
import type { TradeRecord } from "../../localnet/src/world/swap-truth.js";
import { call } from "./helpers/local-chain.js";

const SLOTS = 160;
const PROGRAMS = {
  "raydium-amm-v4": { program: "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8", size: 752, mintAt: 400 },
  "meteora-dbc": { program: "dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN", size: 424, mintAt: 136 },
  "meteora-damm-v2": { program: "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG", size: 1112, mintAt: 168 },
  "raydium-launchlab": { program: "LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj", size: 429, mintAt: 205 },
} as const;
const WHIRLPOOL = "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc";

let net: Localnet;
let manifest: WorldManifest;
let trades: TradeRecord[];

const admin = async (path: string) => (await (await fetch(`${net.rpcUrl}${path}`)).json()) as any;
const tagged = (tag: string) => manifest.tokens.filter((t) => t.tags.includes(tag));
const poolOf = (t: WorldToken, kind: string): WorldPool => t.pools.find((p) => p.kind === kind)!;

beforeAll(async () => {
  net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 5, finalityDepth: 4, extras: true });
  await net.advance(SLOTS + 3);
  manifest = await admin("/__localnet/world");
  trades = (await admin(`/__localnet/trades?from=0&to=${SLOTS}`)).trades;
}, 240_000);

afterAll(() => net.close());

describe("getProgramAccounts finds the pools a mint cannot derive, as a real node answers", () => {
  it("given a quiet pool of each non-derivable kind, when its program is scanned with dataSize + memcmp on the mint, then exactly that pool comes back", async () => {
    for (const t of tagged("quiet")) {
      const pool = t.pools[0]!;
      const spec = PROGRAMS[pool.kind as keyof typeof PROGRAMS];
      const { result } = await call(net.rpcUrl, "getProgramAccounts", [
        spec.program,
        { encoding: "base64", commitment: "confirmed", filters: [{ dataSize: spec.size }, { memcmp: { offset: spec.mintAt, bytes: t.mint } }] },
      ]);
      expect(result.map((r: { pubkey: string }) => r.pubkey), `${pool.kind} ${t.symbol}`).toEqual([pool.address]);
      expect(Buffer.from(result[0].account.data[0], "base64").length).toBe(spec.size);
    }
  });

  it("given dataSlice, then only the sliced bytes come back (LaunchLab base and quote mints @205, 64 bytes), with context when asked", async () => {
    const t = tagged("raydium-launchlab")[0]!;
    const pool = poolOf(t, "raydium-launchlab");
    const { result } = await call(net.rpcUrl, "getProgramAccounts", [
      PROGRAMS["raydium-launchlab"].program,
      { encoding: "base64", withContext: true, dataSlice: { offset: 205, length: 64 }, filters: [{ dataSize: 429 }, { memcmp: { offset: 205, bytes: t.mint } }] },
    ]);
    expect(result.context.slot).toBeGreaterThan(0);
    expect(result.value).toHaveLength(1);
    const bytes = Buffer.from(result.value[0].account.data[0], "base64");
    expect(bytes.length).toBe(64);
    expect(getAddressDecoder().decode(bytes.subarray(0, 32))).toBe(t.mint);
    expect(getAddressDecoder().decode(bytes.subarray(32))).toBe(pool.quoteMint);
  });

  it("given a Whirlpool token, when the pools are scanned by mint_a @101 and mint_b @181 (dataSize 653), then its pool is among them; base64 memcmp works alike", async () => {
    const t = tagged("orca-whirlpool")[0]!;
    const pool = poolOf(t, "orca-whirlpool");
    const found: string[] = [];
    for (const offset of [101, 181]) {
      const { result } = await call(net.rpcUrl, "getProgramAccounts", [
        WHIRLPOOL,
        { encoding: "base64", dataSlice: { offset: 0, length: 0 }, filters: [{ dataSize: 653 }, { memcmp: { offset, bytes: Buffer.from(getAddressEncoder().encode(t.mint as Address)).toString("base64"), encoding: "base64" } }] },
      ]);
      for (const r of result) {
        expect(r.account.data[0]).toBe("");
        found.push(r.pubkey);
      }
    }
    expect(found).toEqual([pool.address]);
    // the whole program: every Whirlpool account of size 653 is a pool the manifest lists, the SOL/USDC Whirlpool, or
    // the pool of a security token whose liquidity sits in Whirlpool positions (GET /__localnet/security)
    const { result: all } = await call(net.rpcUrl, "getProgramAccounts", [WHIRLPOOL, { encoding: "base64", dataSlice: { offset: 0, length: 8 }, filters: [{ dataSize: 653 }] }]);
    const listed = new Set(manifest.tokens.flatMap((x) => x.pools.filter((p) => p.kind === "orca-whirlpool").map((p) => p.address)));
    listed.add(manifest.wellKnown.solUsdcWhirlpool!);
    const security = (await admin("/__localnet/security")).tokens as { role: string; mint: string }[];
    const whirlpoolSecurity = security.filter((s) => s.role === "positions-whirlpool");
    expect(whirlpoolSecurity).toHaveLength(1);
    const positions = (await admin(`/__localnet/security?mint=${whirlpoolSecurity[0]!.mint}`)).positions as { pool: string };
    listed.add(positions.pool);
    expect(new Set(all.map((r: { pubkey: string }) => r.pubkey))).toEqual(listed);
  });
});

describe("the truth of the extras edition", () => {
  it("tells each pool's kind, quote mint and activation; later-opening pools carry a time after genesis", async () => {
    const genesisTime = (await call(net.rpcUrl, "getBlockTime", [1])).result as number;
    for (const t of manifest.tokens) for (const p of t.pools) expect(p).toHaveProperty("activation");
    for (const t of tagged("opens-later")) expect((t.pools[0]!.activation as { time: number }).time).toBeGreaterThan(genesisTime);
    const quotes = new Set(manifest.tokens.flatMap((t) => t.pools.map((p) => p.quoteMint)));
    for (const q of [manifest.wellKnown.jitosol!, manifest.wellKnown.usd1!]) expect(quotes).toContain(q);
  });

  it("records LaunchLab and Whirlpool swaps with the vault changes of their blocks and the swap's own signer", async () => {
    const wanted = trades.filter((t) => !t.failed && (t.kind === "raydium-launchlab" || t.kind === "orca-whirlpool")).slice(0, 40);
    expect(new Set(wanted.map((t) => t.kind))).toEqual(new Set(["raydium-launchlab", "orca-whirlpool"]));
    const vaults = new Map<string, string[]>();
    for (const t of manifest.tokens) {
      for (const p of t.pools) {
        if (p.kind === "raydium-launchlab") vaults.set(p.address, [p.related.baseVault!, p.related.quoteVault!]);
        if (p.kind === "orca-whirlpool") vaults.set(p.address, [p.related.tokenVaultA!, p.related.tokenVaultB!]);
      }
    }
    for (const t of wanted) {
      const { result: tx } = await call(net.rpcUrl, "getTransaction", [t.signature, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]);
      const keys: string[] = tx.transaction.message.accountKeys;
      expect(keys.slice(0, tx.transaction.message.header.numRequiredSignatures)).toContain(t.wallet);
      if (!vaults.has(t.pool)) continue; // the SOL/USDC Whirlpool is no token's pool
      const deltas = vaults.get(t.pool)!.map((v) => {
        const i = keys.indexOf(v);
        const pre = tx.meta.preTokenBalances.find((b: { accountIndex: number }) => b.accountIndex === i);
        const post = tx.meta.postTokenBalances.find((b: { accountIndex: number }) => b.accountIndex === i);
        return { mint: post.mint as string, delta: BigInt(post.uiTokenAmount.amount) - BigInt(pre.uiTokenAmount.amount) };
      });
      const gained = deltas.find((d) => d.delta > 0n)!;
      const lost = deltas.find((d) => d.delta < 0n)!;
      // one hop per pool in these transactions: the vault changes are the recorded amounts
      if (trades.filter((x) => x.signature === t.signature && x.pool === t.pool).length === 1) {
        expect({ in: t.poolIn, out: t.poolOut }).toEqual({ in: { mint: gained.mint, amount: gained.delta.toString() }, out: { mint: lost.mint, amount: (-lost.delta).toString() } });
      }
    }
  });
});

