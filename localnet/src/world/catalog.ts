/**
 * The world's token line-up: which tokens exist at genesis, on which venues, with which metadata shapes and quirks.
 * Names and sizes vary with the seed; the structure (venues, tags, special cases) is fixed so tests can rely on it.
 */
import type { Rng } from "./core/rng.js";
import type { BrokenKind, MetaShape } from "./metadata-http.js";

/** What a pool is quoted in: SOL, a USD stable, the LST JitoSOL, or another catalog token (`token:<key>`, a memecoin). */
export type Quote = "SOL" | "USDC" | "JitoSOL" | "USD1" | `token:${string}`;

/** A pool that never trades (`quiet`, listed and never picked), or one whose program opens it `opensAfter` seconds into the run. */
interface PoolLife {
  quiet?: boolean;
  opensAfter?: number;
}

export type VenueSpec =
  | { venue: "pumpfun"; progress: number; /** another quote than SOL (`quote_mint`) */ quote?: Quote; /** the curve account's size (mainnet: 125, 150, 151, 256 B) */ curveSize?: number }
  | { venue: "pumpswap"; quoteSol: number; baseShare: number; /** "boost" pool: virtual_quote_reserves in SOL */ virtualQuoteSol?: number }
  | ({ venue: "raydium-amm-v4"; quote: Quote; depth: number; poolShare: number; needTakePnl?: boolean } & PoolLife)
  | ({ venue: "raydium-cpmm"; quote: Quote; depth: number; poolShare: number; config: number } & PoolLife)
  | { venue: "raydium-clmm"; quote: Quote; depth: number; config: number }
  | { venue: "meteora-dlmm"; quote: Quote; depth: number; binStep: number; baseFactor: number; preset?: number; /** a limit-order pair (orders in a few bins), its fee mode */ limitOrders?: { collectFeeMode: 0 | 1 } }
  | { venue: "meteora-damm-v1"; quote: Quote; depth: number; poolShare: number; /** a stable-curve pool at par, this amp */ stableAmp?: number }
  | ({ venue: "meteora-damm-v2"; quote: Quote; depth: number; config: number; concentrated?: boolean; idle?: boolean; /** beyond a fixed fee (genesis-pools.ts) */ fees?: DammV2FeeMode } & PoolLife)
  | ({ venue: "meteora-dbc"; progress: number; migrated?: boolean; /** the config's base fee runs a fee scheduler */ feeScheduler?: boolean } & PoolLife)
  | { venue: "raydium-launchlab"; quote: "SOL" | "USDC"; curve: 0 | 1 | 2; migrateType: 0 | 1; progress: number; migrated?: boolean }
  | { venue: "orca-whirlpool"; quote: Quote; depth: number; tickSpacing: number; adaptive?: { opensAfter: number } };

/** DAMM v2 fee setups beyond a fixed fee: compounding, a time fee scheduler, a dynamic fee, a rate limiter. */
export type DammV2FeeMode = "compounding" | "scheduler" | "dynamic" | "rate-limiter";

export interface TokenSpec {
  key: string;
  name: string;
  symbol: string;
  decimals: number;
  token2022: boolean;
  transferFeeBps?: number;
  /** Pump coins: create_v2 Token-2022 coin. */
  pumpV2?: boolean;
  mintAuthority: boolean;
  freezeAuthority: boolean;
  shape: MetaShape;
  broken: BrokenKind | null;
  primary: VenueSpec;
  /** Further pools of the same token (multi-venue). Their price follows the primary's. */
  extra: VenueSpec[];
  tags: string[];
  /** Share of the original supply burned (mint supply reduced). */
  burnedShare?: number;
  /** Share of the circulating supply sent to the incinerator's ATA. */
  incineratedShare?: number;
  /** Genesis-complete curve left un-migrated. */
  stuckComplete?: boolean;
}

const FIRST = ["Based", "Giga", "Moon", "Turbo", "Smol", "Chad", "Sleepy", "Happy", "Angry", "Cosmic", "Golden", "Frosty", "Pixel", "Neon", "Degen", "Lucky", "Shiny", "Wild", "Tiny", "Mega", "Hyper", "Rusty", "Fluffy", "Crispy", "Salty", "Quantum", "Royal", "Sneaky", "Jolly", "Brave"];
const SECOND = ["Otter", "Frog", "Cat", "Dog", "Whale", "Penguin", "Bonk", "Goat", "Hamster", "Panda", "Duck", "Shiba", "Llama", "Capybara", "Beaver", "Koala", "Falcon", "Badger", "Moose", "Raccoon", "Wizard", "Banana", "Pepper", "Rocket", "Pickle", "Noodle", "Taco", "Mochi", "Waffle", "Donut"];

function nameAndSymbol(rng: Rng, used: Set<string>): { name: string; symbol: string } {
  for (;;) {
    const a = rng.pick(FIRST);
    const b = rng.pick(SECOND);
    const name = `${a} ${b}`;
    if (used.has(name)) continue;
    used.add(name);
    const symbol = rng.chance(0.5) ? (a.slice(0, 2) + b).toUpperCase().slice(0, 10) : b.toUpperCase().slice(0, 10);
    return { name, symbol: used.has(`sym:${symbol}`) ? `${symbol.slice(0, 7)}${rng.int(2, 99)}` : (used.add(`sym:${symbol}`), symbol) };
  }
}

/** Genesis tokens; with `extras`, the extras edition's tokens after the classic ones (world-extras.ts). */
export function genesisCatalog(rng: Rng, extras = false): TokenSpec[] {
  const used = new Set<string>();
  const specs: TokenSpec[] = [];
  const shapes: MetaShape[] = ["top-level", "extensions", "properties", "links"];
  const add = (key: string, s: Partial<TokenSpec> & { primary: VenueSpec; tags: string[] }) => {
    const ns = nameAndSymbol(rng, used);
    specs.push({
      key,
      name: ns.name,
      symbol: ns.symbol,
      decimals: 6,
      token2022: false,
      mintAuthority: false,
      freezeAuthority: false,
      shape: rng.pick(shapes),
      broken: null,
      extra: [],
      ...s,
    });
  };
  const pumpShape = { shape: "top-level" as const };

  for (let i = 0; i < 4; i++) add(`pump-fresh-${i}`, { ...pumpShape, primary: { venue: "pumpfun", progress: rng.logUniform(0.004, 0.03) }, tags: ["pumpfun", "fresh"] });
  for (let i = 0; i < 6; i++) {
    add(`pump-mid-${i}`, {
      ...pumpShape,
      primary: { venue: "pumpfun", progress: 0.15 + rng.next() * 0.55 },
      tags: ["pumpfun", "mid"],
      ...(i === 0 ? { token2022: true, pumpV2: true } : {}),
      ...(i === 3 ? { broken: "bad-utf8" as const } : {}),
    });
  }
  for (let i = 0; i < 2; i++) add(`pump-near-${i}`, { ...pumpShape, primary: { venue: "pumpfun", progress: 0.988 + rng.next() * 0.006 }, tags: ["pumpfun", "near-graduation"] });
  add("pump-complete", { ...pumpShape, primary: { venue: "pumpfun", progress: 1 }, tags: ["pumpfun", "complete"], stuckComplete: true });
  for (let i = 0; i < 5; i++) {
    const quoteSol = rng.logUniform(90, 900);
    // Boost pools: virtual quote reserves worth 5.72% of the vault, so a vault-only price reads 5.4% low (issue 9).
    const boost = i === 1 || i === 3;
    add(`pump-graduated-${i}`, {
      ...pumpShape,
      primary: { venue: "pumpswap", quoteSol, baseShare: 0.12 + rng.next() * 0.09, ...(boost ? { virtualQuoteSol: quoteSol * 0.0572 } : {}) },
      tags: ["pumpfun", "graduated", ...(boost ? ["boost"] : [])],
      ...(i === 0 ? { extra: [{ venue: "meteora-dlmm", quote: "SOL", depth: 40, binStep: 80, baseFactor: 6250, preset: 21 } as VenueSpec] } : {}),
    });
  }

  const amm = (i: number, quote: Quote, extra: Partial<TokenSpec> = {}, pnl = false) =>
    add(`amm-v4-${i}`, {
      decimals: rng.chance(0.5) ? 6 : 9,
      primary: { venue: "raydium-amm-v4", quote, depth: quote === "SOL" ? rng.logUniform(150, 3000) : rng.logUniform(30_000, 400_000), poolShare: 0.08 + rng.next() * 0.3, needTakePnl: pnl },
      tags: ["raydium-amm-v4", ...(quote === "USDC" ? ["usdc-quoted"] : [])],
      ...extra,
    });
  amm(0, "SOL", {}, true);
  amm(1, "SOL", { burnedShare: 0.1, tags: ["raydium-amm-v4", "burned"] });
  amm(2, "USDC", { freezeAuthority: true, tags: ["raydium-amm-v4", "usdc-quoted", "freeze-authority"] });
  amm(3, "SOL", { incineratedShare: 0.05, tags: ["raydium-amm-v4", "incinerated"] });
  amm(4, "SOL", { broken: "not-json" });

  const cpmm = (i: number, quote: Quote, config: number, extra: Partial<TokenSpec> = {}) =>
    add(`cpmm-${i}`, {
      decimals: rng.chance(0.3) ? 9 : 6,
      primary: { venue: "raydium-cpmm", quote, depth: quote === "SOL" ? rng.logUniform(60, 1500) : rng.logUniform(20_000, 250_000), poolShare: 0.1 + rng.next() * 0.4, config },
      tags: ["raydium-cpmm", ...(quote === "USDC" ? ["usdc-quoted"] : [])],
      ...extra,
    });
  cpmm(0, "SOL", 0, { mintAuthority: true, freezeAuthority: true, tags: ["raydium-cpmm", "mint-authority", "freeze-authority"] });
  cpmm(1, "SOL", 0, { broken: "slow", extra: [{ venue: "meteora-damm-v2", quote: "SOL", depth: 15, config: 0 }] });
  cpmm(2, "USDC", 0);
  cpmm(3, "SOL", 1);
  cpmm(4, "SOL", 0, { token2022: true, transferFeeBps: 200, decimals: 9, tags: ["raydium-cpmm", "token-2022", "transfer-fee"] });

  // Beside its CLMM pool, a ~$70 DAMM v2 dust pool: automatic routing passes it over; named with poolId it is priced, flagged.
  add("clmm-0", {
    decimals: 9,
    primary: { venue: "raydium-clmm", quote: "SOL", depth: rng.logUniform(200, 2000), config: 2 },
    // idle: the world never trades it, so it stays dust whatever the tests' slot advances do
    extra: [{ venue: "meteora-damm-v2", quote: "SOL", depth: 0.2, config: 1, idle: true }],
    tags: ["raydium-clmm", "dust-pool"],
  });
  add("clmm-1", { decimals: 6, primary: { venue: "raydium-clmm", quote: "USDC", depth: rng.logUniform(50_000, 500_000), config: 1 }, tags: ["raydium-clmm", "usdc-quoted"] });

  add("dlmm-0", { primary: { venue: "meteora-dlmm", quote: "SOL", depth: rng.logUniform(100, 800), binStep: 25, baseFactor: 10000 }, tags: ["meteora-dlmm"] });
  add("dlmm-1", { primary: { venue: "meteora-dlmm", quote: "SOL", depth: rng.logUniform(100, 800), binStep: 80, baseFactor: 6250, preset: 71 }, tags: ["meteora-dlmm"], broken: "oversized" });
  add("dlmm-2", { primary: { venue: "meteora-dlmm", quote: "USDC", depth: rng.logUniform(30_000, 200_000), binStep: 10, baseFactor: 10000 }, tags: ["meteora-dlmm", "usdc-quoted"] });

  add("damm-v1-0", { decimals: 9, primary: { venue: "meteora-damm-v1", quote: "SOL", depth: rng.logUniform(80, 900), poolShare: 0.1 + rng.next() * 0.3 }, tags: ["meteora-damm-v1"], broken: "404" });
  add("damm-v1-1", { primary: { venue: "meteora-damm-v1", quote: "SOL", depth: rng.logUniform(80, 900), poolShare: 0.1 + rng.next() * 0.3 }, tags: ["meteora-damm-v1"] });

  add("damm-v2-0", { primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 900), config: 0 }, tags: ["meteora-damm-v2"] });
  add("damm-v2-1", { primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 900), config: 1, concentrated: true }, tags: ["meteora-damm-v2", "concentrated"] });
  add("damm-v2-2", { primary: { venue: "meteora-damm-v2", quote: "USDC", depth: rng.logUniform(20_000, 300_000), config: 2 }, tags: ["meteora-damm-v2", "usdc-quoted"] });
  add("damm-v2-3", { token2022: true, primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 900), config: 0 }, tags: ["meteora-damm-v2", "token-2022"] });

  add("dbc-0", { primary: { venue: "meteora-dbc", progress: 0.03 + rng.next() * 0.05 }, tags: ["meteora-dbc", "fresh"] });
  add("dbc-1", { primary: { venue: "meteora-dbc", progress: 0.3 + rng.next() * 0.3 }, tags: ["meteora-dbc", "mid"] });
  add("dbc-migrated", {
    primary: { venue: "meteora-dbc", progress: 1, migrated: true },
    extra: [{ venue: "meteora-damm-v2", quote: "SOL", depth: 0, config: -1 }],
    tags: ["meteora-dbc", "graduated", "migrated"],
  });
  // Meteora fee setups: a compounding DAMM v2 pool with a fee-scheduler, a dynamic-fee and a rate-limiter pool beside
  // it, and two DLMM limit-order pairs (orders in a few bins), one taking its fee in Y only; a DBC curve whose config runs a fee scheduler; a DAMM v1 stable-curve pool of a dollar token against USDC.
  add("damm-v2-fee-modes", {
    primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 600), config: 3, fees: "compounding" },
    extra: [
      { venue: "meteora-damm-v2", quote: "SOL", depth: 40, config: 0, fees: "scheduler" },
      { venue: "meteora-damm-v2", quote: "SOL", depth: 40, config: 1, fees: "dynamic" },
      { venue: "meteora-damm-v2", quote: "SOL", depth: 40, config: 2, fees: "rate-limiter" },
      { venue: "meteora-dlmm", quote: "SOL", depth: 40, binStep: 80, baseFactor: 6250, preset: 21, limitOrders: { collectFeeMode: 0 } },
      { venue: "meteora-dlmm", quote: "SOL", depth: 40, binStep: 25, baseFactor: 10000, limitOrders: { collectFeeMode: 1 } },
    ],
    tags: ["meteora-damm-v2", "fee-modes"],
  });
  add("dbc-fee-scheduler", { primary: { venue: "meteora-dbc", progress: 0.1 + rng.next() * 0.2, feeScheduler: true }, tags: ["meteora-dbc", "fee-scheduler"] });
  add("damm-v1-stable", { primary: { venue: "meteora-damm-v1", quote: "USDC", depth: rng.logUniform(20_000, 200_000), poolShare: 0, stableAmp: 200 }, tags: ["meteora-damm-v1", "stable-curve", "usdc-quoted"] });
  if (extras) extrasCatalog(rng, add);
  for (const s of specs) {
    if (s.extra.length) s.tags.push("multi-venue");
    if (s.token2022 && !s.tags.includes("token-2022")) s.tags.push("token-2022");
    if (s.broken) s.tags.push(`broken-metadata:${s.broken}`);
  }
  return specs;
}

export function launchName(rng: Rng, used: Set<string>): { name: string; symbol: string } {
  return nameAndSymbol(rng, used);
}

/**
 * The extras edition's tokens: Raydium LaunchLab curves of every curve type (SOL- and USDC-quoted, two about to
 * graduate into CPMM and AMM v4, one graduated at genesis), Orca Whirlpool pools (one adaptive-fee pool opening later),
 * pools quoted in JitoSOL, USD1 and a memecoin, quiet pools of the kinds not derivable from a mint (listed, never
 * traded), and pools whose program opens them later in the run.
 */
function extrasCatalog(rng: Rng, add: (key: string, s: Partial<TokenSpec> & { primary: VenueSpec; tags: string[] }) => void): void {
  const ll = (key: string, curve: 0 | 1 | 2, quote: "SOL" | "USDC", progress: number, migrateType: 0 | 1, tags: string[], migrated = false) =>
    add(key, { primary: { venue: "raydium-launchlab", quote, curve, migrateType, progress, ...(migrated ? { migrated } : {}) }, tags: ["raydium-launchlab", ...tags] });
  ll("launchlab-cp", 0, "SOL", 0.15 + rng.next() * 0.4, 1, ["mid"]);
  ll("launchlab-fixed", 1, "SOL", 0.1 + rng.next() * 0.3, 1, ["mid", "fixed-price"]);
  ll("launchlab-linear", 2, "SOL", 0.1 + rng.next() * 0.3, 1, ["mid", "linear"]);
  ll("launchlab-usdc", 0, "USDC", 0.2 + rng.next() * 0.3, 1, ["mid", "usdc-quoted"]);
  ll("launchlab-near-cpmm", 0, "SOL", 0.996 + rng.next() * 0.003, 1, ["near-graduation"]);
  ll("launchlab-near-amm", 0, "SOL", 0.996 + rng.next() * 0.003, 0, ["near-graduation"]);
  ll("launchlab-migrated", 0, "SOL", 1, 1, ["graduated", "migrated"], true);

  // pump.fun curves quoted in USDC and in another pump coin, and the curve account sizes mainnet holds (125, 151, 256 B).
  const pumpShape = { shape: "top-level" as const };
  add("pump-usdc-quoted", { ...pumpShape, primary: { venue: "pumpfun", progress: 0.2 + rng.next() * 0.4, quote: "USDC", curveSize: 151 }, tags: ["pumpfun", "mid", "usdc-quoted"] });
  add("pump-meme-quoted", { ...pumpShape, primary: { venue: "pumpfun", progress: 0.2 + rng.next() * 0.4, quote: "token:pump-graduated-0", curveSize: 256 }, tags: ["pumpfun", "mid", "meme-quoted"] });
  add("pump-curve-125", { ...pumpShape, primary: { venue: "pumpfun", progress: 0.2 + rng.next() * 0.4, curveSize: 125 }, tags: ["pumpfun", "mid"] });

  add("whirlpool-0", { decimals: 9, primary: { venue: "orca-whirlpool", quote: "SOL", depth: rng.logUniform(150, 1500), tickSpacing: 64 }, tags: ["orca-whirlpool"] });
  add("whirlpool-1", { primary: { venue: "orca-whirlpool", quote: "USDC", depth: rng.logUniform(30_000, 300_000), tickSpacing: 8 }, tags: ["orca-whirlpool", "usdc-quoted"] });
  add("whirlpool-adaptive", { primary: { venue: "orca-whirlpool", quote: "SOL", depth: rng.logUniform(80, 600), tickSpacing: 64, adaptive: { opensAfter: 40 } }, tags: ["orca-whirlpool", "adaptive-fee", "opens-later"] });

  add("jitosol-quoted", { primary: { venue: "raydium-cpmm", quote: "JitoSOL", depth: rng.logUniform(100, 800), poolShare: 0.2 + rng.next() * 0.3, config: 0 }, tags: ["raydium-cpmm", "lst-quoted"] });
  add("usd1-quoted", { primary: { venue: "meteora-damm-v2", quote: "USD1", depth: rng.logUniform(20_000, 200_000), config: 0 }, tags: ["meteora-damm-v2", "usd1-quoted"] });
  add("meme-quoted", { primary: { venue: "raydium-cpmm", quote: "token:pump-graduated-0", depth: rng.logUniform(30, 300), poolShare: 0.2 + rng.next() * 0.3, config: 0 }, tags: ["raydium-cpmm", "meme-quoted"] });

  add("quiet-amm-v4", { primary: { venue: "raydium-amm-v4", quote: "SOL", depth: rng.logUniform(100, 900), poolShare: 0.2, quiet: true }, tags: ["raydium-amm-v4", "quiet"] });
  add("quiet-dbc", { primary: { venue: "meteora-dbc", progress: 0.1 + rng.next() * 0.3, quiet: true }, tags: ["meteora-dbc", "quiet"] });
  add("quiet-damm-v2", { primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 600), config: 9, quiet: true }, tags: ["meteora-damm-v2", "quiet"] });

  add("opens-later-cpmm", { primary: { venue: "raydium-cpmm", quote: "SOL", depth: rng.logUniform(80, 600), poolShare: 0.3, config: 0, opensAfter: 30 }, tags: ["raydium-cpmm", "opens-later"] });
  add("opens-later-amm-v4", { primary: { venue: "raydium-amm-v4", quote: "SOL", depth: rng.logUniform(80, 600), poolShare: 0.3, opensAfter: 50 }, tags: ["raydium-amm-v4", "opens-later"] });
  add("opens-later-damm-v2", { primary: { venue: "meteora-damm-v2", quote: "SOL", depth: rng.logUniform(80, 600), config: 0, opensAfter: 60 }, tags: ["meteora-damm-v2", "opens-later"] });
}
