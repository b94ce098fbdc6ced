/**
 * The world's extras edition over ~400 produced slots with an in-memory ledger: LaunchLab curves and Whirlpool pools in
 * their programs' layouts (decoded here by VENUES.md offsets, independently of the world's encoders), priced from the
 * raw bytes as the world prices them; every LaunchLab and Whirlpool instruction seen; graduations into CPMM and AMM v4;
 * quote assets (JitoSOL's stake-pool rate, USD1, a memecoin); quiet pools never traded; pools that open later traded only
 * once open; multi-signer swaps recorded with each signer; token accounts summing to every mint's supply; and the
 * classic world's kinds all taken from one venue list.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { AccountState, TxRecord } from "../../../localnet/src/chain/types.js";
import type { WorldManifest, WorldPool, WorldToken } from "../../../localnet/src/world/manifest.js";
import { TokenWorld } from "../../../localnet/src/world/index.js";
import { keyBytes, pda, u16le } from "../../../localnet/src/world/core/keys.js";
import * as P from "../../../localnet/src/world/programs.js";
import type { TradeRecord } from "../../../localnet/src/world/swap-truth.js";
import { VENUES } from "../../../localnet/src/world/venues/index.js";
import { disc, key, u128, u64, view } from "./byte-readers.js";
import { FakeLedger } from "./fake-ledger.js";

const SLOTS = 420;
const anchor = (name: string) => createHash("sha256").update(`global:${name}`).digest().subarray(0, 8).toString("hex");
const near = (a: number, b: number, rel = 1e-9) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));

let world: TokenWorld;
let ledger: FakeLedger;
let manifest: WorldManifest;
let trades: TradeRecord[];
const txs: { slot: number; blockTime: number; tx: TxRecord }[] = [];
const blockTimes = new Map<number, number>();

const acct = (k: string): AccountState => {
  const a = ledger.accounts.get(k);
  if (!a) throw new Error(`no account ${k}`);
  return a;
};
const tokensTagged = (tag: string) => manifest.tokens.filter((t) => t.tags.includes(tag));
const poolOf = (t: WorldToken, kind: string): WorldPool => t.pools.find((p) => p.kind === kind)!;
const made = (pool: string) => trades.filter((t) => t.pool === pool && !t.failed);
/** Every instruction (top level and inner) of the run's transactions, with its program and data. */
function instructions(): { program: string; data: Uint8Array; accounts: string[]; tx: TxRecord }[] {
  const out: { program: string; data: Uint8Array; accounts: string[]; tx: TxRecord }[] = [];
  for (const { tx } of txs) {
    const keys = tx.message.accountKeys;
    for (const ix of [...tx.message.instructions, ...tx.meta.innerInstructions.flatMap((g) => g.instructions)]) {
      out.push({ program: keys[ix.programIdIndex]!, data: ix.data, accounts: ix.accounts.map((i) => keys[i]!), tx });
    }
  }
  return out;
}

beforeAll(() => {
  // Given the extras edition of seed 42 written into an in-memory ledger
  world = new TokenWorld({ seed: 42, metadataBaseUrl: "http://127.0.0.1:8899", extras: true });
  ledger = new FakeLedger();
  world.genesis(ledger.writer());
  // When it produces SLOTS slots
  for (let i = 0; i < SLOTS; i++) {
    const w = ledger.next();
    blockTimes.set(w.slot, w.blockTime);
    for (const tx of world.produceSlot(w)) txs.push({ slot: w.slot, blockTime: w.blockTime, tx });
  }
  manifest = world.manifest();
  trades = world.trades(0, ledger.slot);
}, 180_000);

describe("the venue list", () => {
  it("names every kind the manifest and the trade truth use, once", () => {
    const kinds = VENUES.map((v) => v.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const t of manifest.tokens) for (const p of t.pools) expect(kinds).toContain(p.kind);
    const tradeKinds = VENUES.map((v) => v.tradeKind);
    for (const t of trades) expect(tradeKinds).toContain(t.kind);
  });

  it("has the world drop no transaction, and every new kind trade", () => {
    expect(world.errors).toEqual([]);
    const kinds = new Set(trades.filter((t) => !t.failed).map((t) => t.kind));
    for (const k of ["raydium-launchlab", "orca-whirlpool"]) expect(kinds).toContain(k);
  });

  it("keeps every mint's supply equal to its token accounts (the new quote assets included)", () => {
    const supply = new Map<string, bigint>();
    const held = new Map<string, bigint>();
    for (const [k, a] of ledger.accounts) {
      if (a.owner !== P.TOKEN_PROGRAM) continue;
      if (a.data.length === 82) supply.set(k, u64(a.data, 36));
      if (a.data.length === 165) held.set(key(a.data, 0), (held.get(key(a.data, 0)) ?? 0n) + u64(a.data, 64));
    }
    for (const mint of [P.JITOSOL_MINT, P.USD1_MINT, P.USDC_MINT, ...tokensTagged("raydium-launchlab").map((t) => t.mint), ...tokensTagged("orca-whirlpool").map((t) => t.mint)]) {
      expect(held.get(mint) ?? 0n, mint).toBe(supply.get(mint));
    }
  });
});

describe("Raydium LaunchLab", () => {
  /** VENUES.md §7 price from the pool's bytes and its global config's curve type. */
  function priceFromBytes(pool: string): { price: number; status: number; curveType: number } {
    const d = acct(pool).data;
    const config = acct(key(d, 141)).data;
    const curveType = config[16]!;
    const [vBase, vQuote, rBase, rQuote] = [u64(d, 37), u64(d, 45), u64(d, 53), u64(d, 61)];
    const price = curveType === 0 ? Number(vQuote + rQuote) / Number(vBase - rBase) : curveType === 1 ? Number(vQuote) / Number(vBase) : (Number(vBase) * Number(rBase)) / 2 ** 64;
    return { price, status: d[17]!, curveType };
  }

  it("lays out PoolState (429 B), its GlobalConfig and the platform as the program does, for every curve type and quote", () => {
    const curves = new Set<number>();
    const quotes = new Set<string>();
    for (const t of tokensTagged("raydium-launchlab")) {
      const p = poolOf(t, "raydium-launchlab");
      const a = acct(p.address);
      expect(a.owner).toBe(P.RAYDIUM_LAUNCHLAB_PROGRAM);
      expect(a.data.length).toBe(429);
      expect(disc(a.data)).toBe("f7ede3f5d7c3de46");
      expect([key(a.data, 205), key(a.data, 237)]).toEqual([t.mint, p.quoteMint]);
      expect(key(a.data, 269)).toBe(p.related.baseVault);
      expect(key(a.data, 301)).toBe(p.related.quoteVault);
      expect(key(a.data, 173)).toBe(P.RAYDIUM_LAUNCHLAB_PLATFORM);
      // pool = PDA(["pool", base, quote]); vaults = PDA(["pool_vault", pool, mint])
      expect(pda(["pool", keyBytes(t.mint), keyBytes(p.quoteMint)], P.RAYDIUM_LAUNCHLAB_PROGRAM)).toBe(p.address);
      expect(pda(["pool_vault", keyBytes(p.address), keyBytes(t.mint)], P.RAYDIUM_LAUNCHLAB_PROGRAM)).toBe(p.related.baseVault);
      const config = acct(key(a.data, 141));
      expect(disc(config.data)).toBe("95089ccaa0fcb0d9");
      expect(key(config.data, 83)).toBe(p.quoteMint);
      expect(pda(["global_config", keyBytes(p.quoteMint), Uint8Array.of(config.data[16]!), u16le(0)], P.RAYDIUM_LAUNCHLAB_PROGRAM)).toBe(key(a.data, 141));
      curves.add(config.data[16]!);
      quotes.add(p.quoteMint);
      // quote vault = real quote + the fee buckets (until claimed or migrated)
      if (a.data[17] === 0) expect(u64(acct(p.related.quoteVault!).data, 64)).toBe(u64(a.data, 61) + u64(a.data, 77) + u64(a.data, 85));
    }
    expect([...curves].sort()).toEqual([0, 1, 2]);
    expect(quotes).toEqual(new Set([P.WSOL_MINT, P.USDC_MINT]));
    // the platform's cpswap_config @688 is CPMM config 0
    expect(key(acct(P.RAYDIUM_LAUNCHLAB_PLATFORM).data, 688)).toBe(pda(["amm_config", Uint8Array.of(0, 0)], P.RAYDIUM_CPMM_PROGRAM));
    // the WSOL constant-product config at index 0 is mainnet's address (VENUES.md §7 ✔)
    expect(pda(["global_config", keyBytes(P.WSOL_MINT), Uint8Array.of(0), u16le(0)], P.RAYDIUM_LAUNCHLAB_PROGRAM)).toBe("6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX");
  });

  it("prices every curve from its bytes exactly as the world does (1e-9)", () => {
    for (const t of tokensTagged("raydium-launchlab")) {
      const p = poolOf(t, "raydium-launchlab");
      const { price, status } = priceFromBytes(p.address);
      if (status !== 0) continue;
      expect(near(price, world.priceOf(p.address)), t.symbol).toBe(true);
    }
  });

  it("trades with all four instructions, and the truth's amounts are the vault changes", () => {
    const discs = new Set(instructions().filter((i) => i.program === P.RAYDIUM_LAUNCHLAB_PROGRAM).map((i) => Buffer.from(i.data.subarray(0, 8)).toString("hex")));
    for (const name of ["buy_exact_in", "buy_exact_out", "sell_exact_in", "sell_exact_out"]) expect(discs, name).toContain(anchor(name));
    const ll = trades.filter((t) => t.kind === "raydium-launchlab" && !t.failed);
    expect(ll.length).toBeGreaterThan(50);
    expect(new Set(ll.map((t) => t.side))).toEqual(new Set(["buy", "sell"]));
  });

  it("graduates curves near completion into CPMM and AMM v4 (status 2), and the AMM pools trade", () => {
    const graduates = tokensTagged("raydium-launchlab").filter((t) => t.tags.includes("graduated"));
    const targets = new Set<string>();
    for (const t of graduates) {
      const ll = poolOf(t, "raydium-launchlab");
      const d = acct(ll.address).data;
      expect(d[17], t.symbol).toBe(2);
      const amm = t.pools.find((p) => p.kind === "raydium-cpmm" || p.kind === "raydium-amm-v4")!;
      expect(amm.address).toBe(t.details!.migratedTo);
      targets.add(amm.kind);
      // migrate_type @20: 1 → CPMM, 0 → AMM v4
      expect(d[20]).toBe(amm.kind === "raydium-cpmm" ? 1 : 0);
      expect(made(amm.address).length).toBeGreaterThan(0);
      // no curve trade after the funding completed
      const completed = Number(t.details!.completedAtSlot ?? t.details!.migratedAtSlot);
      expect(made(ll.address).filter((x) => x.slot > completed)).toEqual([]);
    }
    expect(targets).toEqual(new Set(["raydium-cpmm", "raydium-amm-v4"]));
    const migrations = instructions().filter((i) => i.program === P.RAYDIUM_LAUNCHLAB_PROGRAM).map((i) => Buffer.from(i.data.subarray(0, 8)).toString("hex"));
    expect(migrations).toContain(anchor("migrate_to_cpswap"));
    expect(migrations).toContain(anchor("migrate_to_amm"));
  });
});

describe("Orca Whirlpool", () => {
  it("lays out Whirlpool (653 B) at its PDA with real tick arrays, and prices it from sqrt_price (1e-9)", () => {
    const pools = manifest.tokens.flatMap((t) => t.pools.filter((p) => p.kind === "orca-whirlpool"));
    expect(pools.length).toBeGreaterThanOrEqual(5);
    for (const p of pools) {
      const a = acct(p.address);
      expect(a.owner).toBe(P.ORCA_WHIRLPOOL_PROGRAM);
      expect(a.data.length).toBe(653);
      expect(disc(a.data)).toBe("3f95d10ce1806309");
      const [mintA, mintB] = [key(a.data, 101), key(a.data, 181)];
      expect(Buffer.compare(Buffer.from(keyBytes(mintA)), Buffer.from(keyBytes(mintB)))).toBe(-1);
      expect(new Set([mintA, mintB])).toEqual(new Set([p.baseMint, p.quoteMint]));
      expect([key(a.data, 133), key(a.data, 213)]).toEqual([p.related.tokenVaultA, p.related.tokenVaultB]);
      const feeTierIndex = view(a.data).getUint16(43, true);
      expect(pda(["whirlpool", keyBytes(P.ORCA_WHIRLPOOLS_CONFIG), keyBytes(mintA), keyBytes(mintB), u16le(feeTierIndex)], P.ORCA_WHIRLPOOL_PROGRAM)).toBe(p.address);
      const s = Number(u128(a.data, 65)) / 2 ** 64;
      const bPerA = s * s;
      expect(near(mintA === p.baseMint ? bPerA : 1 / bPerA, world.priceOf(p.address))).toBe(true);
      // the tick array holding the current tick exists, names the pool, and starts at a multiple of 88 · tick spacing
      const spacing = view(a.data).getUint16(41, true);
      const tick = view(a.data).getInt32(81, true);
      const start = Math.floor(tick / (88 * spacing)) * 88 * spacing;
      const array = acct(pda(["tick_array", keyBytes(p.address), String(start)], P.ORCA_WHIRLPOOL_PROGRAM));
      expect(array.data.length).toBe(9988);
      expect(disc(array.data)).toBe("4561bdbe6e0742bb");
      expect(view(array.data).getInt32(8, true)).toBe(start);
      expect(key(array.data, 9956)).toBe(p.address);
    }
  });

  it("trades through swap, swapV2, twoHopSwap and twoHopSwapV2, one trade per hop", () => {
    const discs = new Set(instructions().filter((i) => i.program === P.ORCA_WHIRLPOOL_PROGRAM).map((i) => Buffer.from(i.data.subarray(0, 8)).toString("hex")));
    for (const name of ["swap", "swap_v2", "two_hop_swap", "two_hop_swap_v2"]) expect(discs, name).toContain(anchor(name));
    const bySig = new Map<string, TradeRecord[]>();
    for (const t of trades.filter((x) => x.kind === "orca-whirlpool")) bySig.set(t.signature, [...(bySig.get(t.signature) ?? []), t]);
    const twoHops = [...bySig.values()].filter((legs) => legs.length === 2 && legs[0]!.pool !== legs[1]!.pool && legs[0]!.poolOut.mint === legs[1]!.poolIn.mint);
    expect(twoHops.length).toBeGreaterThan(3);
    // the first hop's output is exactly the second hop's input
    for (const [one, two] of twoHops) expect(one!.poolOut.amount).toBe(two!.poolIn.amount);
  });

  it("holds the adaptive-fee pool shut until its oracle's trade_enable_timestamp, then trades it", () => {
    const t = tokensTagged("adaptive-fee")[0]!;
    const p = poolOf(t, "orca-whirlpool");
    const oracle = acct(p.related.oracle!);
    expect(oracle.data.length).toBe(254);
    expect(disc(oracle.data)).toBe("8bc283b38cb3e5f4");
    expect(key(oracle.data, 8)).toBe(p.address);
    const opens = Number(u64(oracle.data, 40));
    expect(p.activation).toEqual({ time: opens });
    expect(opens).toBeGreaterThan(blockTimes.get(1)!);
    const traded = made(p.address);
    expect(traded.length).toBeGreaterThan(0);
    for (const x of traded) expect(blockTimes.get(x.slot)!).toBeGreaterThanOrEqual(opens);
    // and its swaps wrote the Oracle's AdaptiveFeeVariables (@82): a reference time, a major-swap time, within the run
    const [lastReference, lastMajor] = [Number(u64(oracle.data, 82)), Number(u64(oracle.data, 90))];
    const lastTrade = blockTimes.get(Math.max(...traded.map((x) => x.slot)))!;
    expect(lastReference).toBeGreaterThanOrEqual(opens);
    expect(lastReference).toBeLessThanOrEqual(lastTrade);
    expect(lastMajor).toBeGreaterThanOrEqual(opens);
    expect(lastMajor).toBeLessThanOrEqual(lastTrade);
  });
});

describe("pump.fun curves quoted in another token, and every curve size mainnet holds", () => {
  it("writes quote_mint @83 and the curve sizes 125, 151 and 256; the quote sits in the curve's ATA; priced from the bytes (1e-9); traded with buy_exact_quote_in_v2 / sell_v2", () => {
    const sizes = new Set<number>();
    const quotes = new Set<string>();
    for (const t of tokensTagged("pumpfun")) {
      const p = poolOf(t, "pumpfun");
      const a = acct(p.address);
      expect(disc(a.data)).toBe("17b7f83760d8ac60");
      sizes.add(a.data.length);
      if (a.data.length < 115) continue;
      const quoteMint = key(a.data, 83);
      if (quoteMint === "11111111111111111111111111111111") continue; // Pubkey::default() = SOL
      expect(quoteMint).toBe(p.quoteMint);
      quotes.add(quoteMint);
      const [vtr, vqr, rqr] = [u64(a.data, 8), u64(a.data, 16), u64(a.data, 32)];
      expect(u64(acct(p.related.associatedQuoteBondingCurve!).data, 64)).toBe(rqr);
      expect(near(Number(vqr) / Number(vtr), world.priceOf(p.address))).toBe(true);
      expect(made(p.address).length, t.symbol).toBeGreaterThan(0);
      expect(made(p.address).every((x) => x.kind === "pump-bonding-curve" && x.quoteMint === quoteMint)).toBe(true);
    }
    for (const size of [125, 150, 151, 256]) expect(sizes).toContain(size);
    expect(quotes.size).toBe(2);
    expect(quotes).toContain(P.USDC_MINT);
    const discs = new Set(instructions().filter((i) => i.program === P.PUMP_PROGRAM).map((i) => Buffer.from(i.data.subarray(0, 8)).toString("hex")));
    for (const d of ["c2ab1c46684d5b2f", "5df6823ce7e940b2"]) expect(discs).toContain(d);
  });
});

describe("quote assets, quiet pools, pools that open later, multi-signer swaps", () => {
  it("quotes pools in JitoSOL (the stake pool's rate is its SOL value), USD1 and a memecoin, and trades them", () => {
    const stake = acct(P.JITO_STAKE_POOL);
    expect(stake.owner).toBe(P.SPL_STAKE_POOL_PROGRAM);
    expect(key(stake.data, 162)).toBe(P.JITOSOL_MINT);
    const rate = Number(u64(stake.data, 258)) / Number(u64(stake.data, 266));
    expect(rate).toBeGreaterThan(1.1);
    expect(u64(stake.data, 266)).toBe(u64(acct(P.JITOSOL_MINT).data, 36)); // pool_token_supply = the mint's supply
    const jito = manifest.tokens.find((t) => t.mint === P.JITOSOL_MINT)!;
    expect(Math.abs(world.priceOf(poolOf(jito, "orca-whirlpool").address) / rate - 1)).toBeLessThan(0.02);
    const quoted = [
      [tokensTagged("lst-quoted")[0]!, P.JITOSOL_MINT],
      [tokensTagged("usd1-quoted")[0]!, P.USD1_MINT],
      [tokensTagged("meme-quoted")[0]!, tokensTagged("meme-quoted")[0]!.pools[0]!.quoteMint],
    ] as const;
    // the memecoin quote is a graduated pump coin with a PumpSwap pool of its own
    const meme = manifest.tokens.find((t) => t.mint === quoted[2][1])!;
    expect(meme.tags).toEqual(expect.arrayContaining(["pump", "graduated"]));
    expect(meme.pools.some((p) => p.kind === "pumpswap" && p.quoteMint === P.WSOL_MINT)).toBe(true);
    for (const [token, quote] of quoted) {
      const pool = token.pools[0]!;
      expect(pool.quoteMint).toBe(quote);
      expect(made(pool.address).length, token.symbol).toBeGreaterThan(0);
      expect(made(pool.address).every((x) => x.quoteMint === quote)).toBe(true);
    }
  });

  it("lists quiet pools of the non-derivable kinds, never traded", () => {
    const quiet = tokensTagged("quiet");
    expect(new Set(quiet.map((t) => t.pools[0]!.kind))).toEqual(new Set(["raydium-amm-v4", "meteora-dbc", "meteora-damm-v2"]));
    for (const t of quiet) {
      for (const p of t.pools) {
        expect(p.derivable).toBe(false);
        expect(ledger.accounts.has(p.address)).toBe(true);
        expect(trades.filter((x) => x.pool === p.address)).toEqual([]);
      }
    }
  });

  it("trades pools that open later only once their activation time has come", () => {
    const later = tokensTagged("opens-later");
    expect(later.length).toBe(4);
    let traded = 0;
    for (const t of later) {
      const p = t.pools[0]!;
      const time = (p.activation as { time: number }).time;
      expect(time).toBeGreaterThan(blockTimes.get(1)!);
      // the bytes carry it: CPMM open_time @373, AMM v4 pool_open_time @224, DAMM v2 activation_point @472
      const d = acct(p.address).data;
      if (p.kind === "raydium-cpmm") expect(Number(u64(d, 373))).toBe(time);
      if (p.kind === "raydium-amm-v4") expect(Number(u64(d, 224))).toBe(time);
      if (p.kind === "meteora-damm-v2") expect(Number(u64(d, 472))).toBe(time);
      for (const x of made(p.address)) expect(blockTimes.get(x.slot)!).toBeGreaterThanOrEqual(time);
      traded += made(p.address).length;
    }
    expect(traded).toBeGreaterThan(10);
  });

  it("records each swap of a multi-signer transaction with its own signer", () => {
    const bySig = new Map<string, TradeRecord[]>();
    for (const t of trades) bySig.set(t.signature, [...(bySig.get(t.signature) ?? []), t]);
    const multi = [...bySig.values()].filter((legs) => new Set(legs.map((l) => l.wallet)).size >= 2 && new Set(legs.map((l) => l.pool)).size === 1);
    expect(multi.length).toBeGreaterThan(10);
    for (const legs of multi) {
      const { tx } = txs.find((x) => x.tx.signatures[0] === legs[0]!.signature)!;
      const signers = tx.message.accountKeys.slice(0, tx.message.header.numRequiredSignatures);
      for (const l of legs) expect(signers).toContain(l.wallet);
      // the fee payer is one signer; the other swaps belong to the others
      expect(new Set(legs.map((l) => l.wallet)).size).toBe(legs.length);
      // each leg's base tokens reach its own signer's account
      for (const l of legs) {
        const received = tx.meta.postTokenBalances.filter((b) => b.owner === l.wallet && b.mint === l.baseMint);
        expect(received.length, l.wallet).toBe(1);
      }
    }
  });
});
