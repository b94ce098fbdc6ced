/**
 * The state the world's parts operate on: the shared context (accounts, token book, clock), the venues, the SOL/USD
 * oracle, the off-chain metadata, the tokens with their pools, the pools the world trades and its wallets. Genesis
 * (genesis.ts) fills it, slot production (slot-production.ts) moves it, manifest.ts reports it.
 */
import type { Pubkey } from "../chain/types.js";
import type { TokenSpec } from "./catalog.js";
import { WorldContext } from "./context.js";
import { derivedKey } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import { MetadataServer, type MetaShape } from "./metadata-http.js";
import { TOKEN_2022_PROGRAM, USDC_MINT, USDT_MINT, WSOL_MINT } from "./programs.js";
import { SolUsdOracle } from "./sol-usd-oracle.js";
import { PumpFunVenue, creatorVault, pumpGlobal, type PumpCurve } from "./venues/pumpfun.js";
import { PumpQuoteCurveVenue } from "./venues/pumpfun-quote.js";
import { PumpSwapVenue, pumpSwapGlobalConfig, type PumpSwapPool } from "./venues/pumpswap.js";
import { RaydiumAmmV4Venue } from "./venues/raydium-amm-v4.js";
import { RaydiumCpmmVenue } from "./venues/raydium-cpmm.js";
import { RaydiumClmmVenue, type ClmmPool } from "./venues/raydium-clmm.js";
import { MeteoraDlmmVenue } from "./venues/meteora-dlmm.js";
import { MeteoraDammV1Venue } from "./venues/meteora-damm-v1.js";
import { MeteoraDammV2Venue } from "./venues/meteora-damm-v2.js";
import { MeteoraDbcVenue } from "./venues/meteora-dbc.js";
import { OrcaWhirlpoolVenue, type Whirlpool } from "./venues/orca-whirlpool.js";
import { RaydiumLaunchLabVenue } from "./venues/raydium-launchlab.js";
import { cpmmConfigAddress } from "./venues/raydium-cpmm.js";
import type { PoolRef, PoolVenue } from "./venues/types.js";

/** Historic timestamps (pool open times, vault reports) are relative to this fixed instant so genesis bytes never
 * depend on the wall clock. */
const GENESIS_EPOCH = 1_750_000_000;
export const LAMPORTS = 1_000_000_000n;

/** A token of the world: what the manifest reports of it, and its bonding curve while it has one. */
export interface TokenEntry {
  key: string;
  mint: Pubkey;
  name: string;
  symbol: string;
  decimals: number;
  tokenProgram: Pubkey;
  creator: Pubkey;
  venues: string[];
  pools: PoolRef[];
  metadataUri: string | null;
  tags: Set<string>;
  details: Record<string, string>;
  curve?: PumpCurve;
}

/** A pool random trades pick, by weight (0 = idle). */
export interface Tradeable {
  token: TokenEntry | null;
  pool: PoolRef;
  venue: PoolVenue;
  weight: number;
}

/** A pool that opens `seconds` after the chain's genesis time (its activation written then), and trades from then on. */
export interface Opening {
  tradeable: Tradeable;
  weight: number;
  seconds: number;
  /** writes the pool's activation (unix time) into its account */
  setOpenTime(time: number): void;
}

export class WorldState {
  readonly ctx: WorldContext;
  readonly meta: MetadataServer;
  readonly pumpswap: PumpSwapVenue;
  readonly pumpfun: PumpFunVenue;
  readonly ammV4: RaydiumAmmV4Venue;
  readonly cpmm: RaydiumCpmmVenue;
  readonly clmm: RaydiumClmmVenue;
  readonly dlmm: MeteoraDlmmVenue;
  readonly dammV1: MeteoraDammV1Venue;
  readonly dammV2: MeteoraDammV2Venue;
  readonly dbc: MeteoraDbcVenue;
  readonly whirlpool: OrcaWhirlpoolVenue;
  /** pump.fun curves quoted in another token than SOL (extras). */
  readonly pumpQuote: PumpQuoteCurveVenue;
  readonly launchlab: RaydiumLaunchLabVenue;
  readonly oracle: SolUsdOracle;
  /**
   * The world-extras edition (world-extras.ts): LaunchLab and Whirlpool pools, pools quoted in an LST, USD1 and a
   * memecoin, quiet pools that never trade, pools that open later, multi-signer swaps. Off: the classic world, unchanged.
   */
  readonly extras: boolean;
  /** SOL per atom of quote mints other than SOL and the USD stables (world-extras.ts fills it), for sizing trades. */
  readonly quoteSolValue = new Map<Pubkey, () => number>();

  readonly tokens = new Map<Pubkey, TokenEntry>();
  readonly tradeables: Tradeable[] = [];
  readonly wallets: Pubkey[] = [];
  readonly whales: Pubkey[] = [];
  readonly delegates: Pubkey[] = [];
  /** The wallets that open new positions (most trades on a chain come from a small active set). */
  readonly activeTraders: Pubkey[] = [];
  readonly arbBot: Pubkey;
  solUsdcPool!: ClmmPool;
  /** The extras edition's SOL/USDC Whirlpool (the second hop of its two-hop swaps). */
  solUsdcWhirlpool: Whirlpool | null = null;
  /** Pools listed and never traded (world-extras.ts `listPool`). */
  readonly quietPools: { pool: PoolRef; venue: PoolVenue }[] = [];
  /** Pools whose program opens them later in the run (world-extras.ts): traded at `weight` once open. */
  readonly openings: Opening[] = [];
  /** Pools whose fee schedule counts from their activation, moved to the chain's own genesis time by writeGenesis. */
  readonly scheduleStarts: ((genesisTime: number) => void)[] = [];
  /**
   * `POST /__localnet/reopen?seconds=N` (world.ts): the next produced slot writes every opening's activation again, N
   * seconds after its block time, and stops trading those pools until then — so a test sees them closed, then open.
   */
  reopenRequest: number | null = null;

  constructor(seed: number, metadataBaseUrl: string, extras = false) {
    this.extras = extras;
    this.ctx = new WorldContext(seed);
    this.ctx.clock.blockTime = GENESIS_EPOCH;
    this.meta = new MetadataServer(metadataBaseUrl.replace(/\/+$/, ""));
    const key = (label: string) => this.key(label);
    this.pumpswap = new PumpSwapVenue(this.ctx, key);
    this.pumpfun = new PumpFunVenue(this.ctx, this.pumpswap);
    this.ammV4 = new RaydiumAmmV4Venue(this.ctx);
    this.cpmm = new RaydiumCpmmVenue(this.ctx, key("raydium:admin"));
    this.clmm = new RaydiumClmmVenue(this.ctx, key("raydium:admin"));
    this.dlmm = new MeteoraDlmmVenue(this.ctx);
    this.dammV1 = new MeteoraDammV1Venue(this.ctx, key("meteora:vault-admin"));
    this.dammV2 = new MeteoraDammV2Venue(this.ctx);
    this.dbc = new MeteoraDbcVenue(this.ctx);
    this.pumpQuote = new PumpQuoteCurveVenue(this.ctx, (c) => this.pumpfun.writeCurve(c));
    this.whirlpool = new OrcaWhirlpoolVenue(this.ctx, key("orca:authority"));
    this.launchlab = new RaydiumLaunchLabVenue(this.ctx, key("raydium:launchlab-admin"), cpmmConfigAddress(0));
    this.arbBot = key("wallet:arb-bot");
    this.oracle = new SolUsdOracle(this.ctx, key("pyth:write-authority"));
  }

  /** Quote atoms worth `sol` SOL (buys size their spend in SOL whatever the pool is quoted in). */
  quoteAtomsFor(quoteMint: Pubkey, sol: number): bigint {
    if (quoteMint === WSOL_MINT) return BigInt(Math.floor(sol * 1e9));
    if (quoteMint === USDC_MINT || quoteMint === USDT_MINT) return BigInt(Math.floor(sol * this.ctx.solUsd * 10 ** this.ctx.book.mint(quoteMint).decimals));
    const value = this.quoteSolValue.get(quoteMint);
    if (!value) throw new Error(`no SOL value for quote ${quoteMint}`);
    return BigInt(Math.floor(sol / value()));
  }

  get seed(): number {
    return this.ctx.seed;
  }

  /** The world's deterministic key for `label`. */
  key(label: string): Pubkey {
    return derivedKey(this.ctx.seed, label);
  }

  /** A token with no pools yet, its metadata URI served by `meta`. */
  newToken(fields: Pick<TokenEntry, "key" | "mint" | "name" | "symbol" | "decimals" | "tokenProgram" | "creator" | "venues" | "details">, tags: Iterable<string>): TokenEntry {
    const entry: TokenEntry = { ...fields, pools: [], metadataUri: this.meta.uriFor(fields.mint), tags: new Set(tags) };
    if (entry.tokenProgram === TOKEN_2022_PROGRAM) entry.tags.add("token-2022");
    return entry;
  }

  /** Serves the token's off-chain JSON in `spec.shape` (or broken as `spec.broken`), with socials drawn from `rng`. */
  registerMetadata(entry: TokenEntry, spec: { shape: MetaShape; broken: TokenSpec["broken"] }, rng: Rng): void {
    const slug = entry.symbol.toLowerCase();
    const socials: { twitter?: string; website?: string; telegram?: string } = {};
    if (rng.chance(0.85)) socials.twitter = `https://x.com/${slug}_${entry.mint.slice(0, 4).toLowerCase()}`;
    if (rng.chance(0.6)) socials.website = `https://${slug}.fun`;
    if (rng.chance(0.5)) socials.telegram = `https://t.me/${slug}portal`;
    this.meta.register({
      mint: entry.mint,
      name: entry.name,
      symbol: entry.symbol,
      description: `${entry.name} ($${entry.symbol}) — the most ${entry.name.split(" ")[0]!.toLowerCase()} ${entry.name.split(" ")[1]!.toLowerCase()} on Solana.`,
      shape: spec.shape,
      broken: spec.broken,
      socials,
      ...(spec.shape === "top-level" ? { createdOn: "https://pump.fun" } : {}),
    });
  }

  addCurvePool(entry: TokenEntry, curve: PumpCurve): void {
    entry.pools.push({
      kind: "pumpfun",
      address: curve.address,
      baseMint: entry.mint,
      quoteMint: WSOL_MINT,
      related: { associatedBondingCurve: curve.ata, global: pumpGlobal(), creatorVault: creatorVault(curve.creator) },
      derivable: true,
    });
  }

  /** Lists a pool under its token and, at `weight`, among the pools random trades pick. */
  addPool(entry: TokenEntry, pool: PoolRef, venue: PoolVenue, weight: number): void {
    entry.pools.push(pool);
    if (!entry.venues.includes(pool.kind)) entry.venues.push(pool.kind);
    this.tradeables.push({ token: entry, pool, venue, weight });
  }

  /** Lists a PumpSwap pool (a graduated coin's) under its token. */
  addPumpSwapPool(entry: TokenEntry, pool: PumpSwapPool): void {
    const ref = Object.assign(pool, {
      kind: "pumpswap",
      derivable: true,
      related: { poolBaseTokenAccount: pool.baseVault, poolQuoteTokenAccount: pool.quoteVault, globalConfig: pumpSwapGlobalConfig(), lpMint: pool.lpMint },
    });
    this.addPool(entry, ref, this.pumpswap as unknown as PoolVenue, 3);
  }
}
