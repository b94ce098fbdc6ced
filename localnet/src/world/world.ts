/**
 * The token world: builds every account at construction (deterministic from the seed), replays them into the ledger at
 * genesis, and produces a slot's worth of swaps, launches and migrations on each `produceSlot`.
 */
import type { AccountState, HttpReply, LedgerWriter, Pubkey, TxRecord, World, WorldManifest, WorldPool, WorldToken } from "../chain/types.js";
import { FixedWriter } from "./core/bytes.js";
import { ata, derivedKey, keyBytes, pda, signatureFor } from "./core/keys.js";
import { Rng } from "./core/rng.js";
import { sqrtPriceX64FromPrice } from "./core/math.js";
import { genesisCatalog, launchName, type TokenSpec, type VenueSpec } from "./catalog.js";
import { Draft, WorldContext } from "./context.js";
import { MetadataServer, type MetaShape } from "./metadata-http.js";
import {
  ALL_PROGRAMS,
  BPF_LOADER_UPGRADEABLE,
  COMPUTE_BUDGET_PROGRAM,
  DAMM_V2_MIGRATION_CONFIG_25BPS,
  DBC_POOL_AUTHORITY,
  INCINERATOR,
  METAPLEX_PROGRAM,
  NATIVE_LOADER,
  PUMP_WITHDRAW_AUTHORITY,
  PYTH_SOL_USD,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_CPMM_AUTHORITY,
  DAMM_V2_POOL_AUTHORITY,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  USDC_MINT,
  USDT_MINT,
  WSOL_MINT,
} from "./programs.js";
import { encodePriceUpdateV2, PYTH_OWNER } from "./pyth.js";
import { encodeMetaplexMetadata } from "./spl/metaplex.js";
import type { MintState } from "./spl/token.js";
import { executeTx } from "./tx/builder.js";
import { PumpFunVenue, PUMP, creatorVault, metaplexMetadataAddress, pumpGlobal, type PumpCurve } from "./venues/pumpfun.js";
import { PumpSwapVenue, pumpSwapGlobalConfig, type PumpSwapPool } from "./venues/pumpswap.js";
import { RaydiumAmmV4Venue } from "./venues/raydium-amm-v4.js";
import { RaydiumCpmmVenue } from "./venues/raydium-cpmm.js";
import { RaydiumClmmVenue, type ClmmPool } from "./venues/raydium-clmm.js";
import { MeteoraDlmmVenue } from "./venues/meteora-dlmm.js";
import { MeteoraDammV1Venue } from "./venues/meteora-damm-v1.js";
import { MeteoraDammV2Venue, dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import { MeteoraDbcVenue } from "./venues/meteora-dbc.js";
import type { PoolRef, PoolVenue, Side } from "./venues/types.js";

/** Historic timestamps (pool open times, vault reports) are relative to this fixed instant so genesis bytes never
 * depend on the wall clock. */
const GENESIS_EPOCH = 1_750_000_000;
const LAMPORTS = 1_000_000_000n;
const WALLETS = 700;
const WHALES = 14;
const PYTH_EXPONENT = -8;
/** Launches after genesis; beyond this the world keeps trading what exists. */
const MAX_LAUNCHES = 200;

interface TokenEntry {
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

interface Tradeable {
  token: TokenEntry | null;
  pool: PoolRef;
  venue: PoolVenue;
  weight: number;
}

export interface TradeLogEntry {
  slot: number;
  signature: string;
  kind: string;
  pool: Pubkey;
  side: Side;
  failed: boolean;
  priceBefore: number;
  priceAfter: number;
}

interface PlannedTrade {
  draft: Draft;
  kind: string;
  pool: Pubkey;
  side: Side;
  price: () => number;
}

export interface WorldOptions {
  seed: number;
  metadataBaseUrl: string;
}

export class TokenWorld implements World {
  readonly ctx: WorldContext;
  private readonly meta: MetadataServer;
  readonly pumpswap: PumpSwapVenue;
  readonly pumpfun: PumpFunVenue;
  readonly ammV4: RaydiumAmmV4Venue;
  readonly cpmm: RaydiumCpmmVenue;
  readonly clmm: RaydiumClmmVenue;
  readonly dlmm: MeteoraDlmmVenue;
  readonly dammV1: MeteoraDammV1Venue;
  readonly dammV2: MeteoraDammV2Venue;
  readonly dbc: MeteoraDbcVenue;

  readonly tokens = new Map<Pubkey, TokenEntry>();
  private readonly tradeables: Tradeable[] = [];
  readonly wallets: Pubkey[] = [];
  readonly whales: Pubkey[] = [];
  readonly delegates: Pubkey[] = [];
  /** The wallets that open new positions (most trades on a chain come from a small active set). */
  private readonly activeTraders: Pubkey[] = [];
  private readonly arbBot: Pubkey;
  solUsdcPool!: ClmmPool;
  private pythPrice: number;
  private pythEma: number;
  private prevPublishTime = 0n;
  private readonly lifeRng: Rng;
  private nextLaunchSlot: number;
  private launches = 0;
  private readonly usedNames = new Set<string>();
  private genesisWritten = false;
  /** Transactions dropped because applying them failed (a world bug; kept for tests and diagnostics). */
  readonly errors: string[] = [];
  /** The latest trades with the pool price (quote atoms per base atom) before and after, for tests and diagnostics. */
  readonly tradeLog: TradeLogEntry[] = [];

  constructor(readonly options: WorldOptions) {
    const seed = options.seed;
    this.ctx = new WorldContext(seed);
    this.ctx.clock.blockTime = GENESIS_EPOCH;
    this.meta = new MetadataServer(options.metadataBaseUrl.replace(/\/+$/, ""));
    const key = (label: string) => derivedKey(seed, label);
    this.pumpswap = new PumpSwapVenue(this.ctx, key);
    this.pumpfun = new PumpFunVenue(this.ctx, this.pumpswap);
    this.ammV4 = new RaydiumAmmV4Venue(this.ctx);
    this.cpmm = new RaydiumCpmmVenue(this.ctx, key("raydium:admin"));
    this.clmm = new RaydiumClmmVenue(this.ctx, key("raydium:admin"));
    this.dlmm = new MeteoraDlmmVenue(this.ctx);
    this.dammV1 = new MeteoraDammV1Venue(this.ctx, key("meteora:vault-admin"));
    this.dammV2 = new MeteoraDammV2Venue(this.ctx);
    this.dbc = new MeteoraDbcVenue(this.ctx);
    this.arbBot = key("wallet:arb-bot");
    const rng = this.ctx.rng("pyth");
    this.pythPrice = 150 + rng.next() * 60;
    this.pythEma = this.pythPrice;
    this.ctx.solUsd = this.pythPrice;
    this.lifeRng = this.ctx.rng("life");
    this.nextLaunchSlot = 20 + this.lifeRng.int(0, 15);
    this.build();
  }

  private key(label: string): Pubkey {
    return derivedKey(this.options.seed, label);
  }

  // ---------------------------------------------------------------- genesis construction

  private build(): void {
    const { ctx } = this;
    const { store, book } = ctx;
    // Programs.
    for (const program of ALL_PROGRAMS) {
      if (program === SYSTEM_PROGRAM || program === COMPUTE_BUDGET_PROGRAM) {
        store.put(program, NATIVE_LOADER, new TextEncoder().encode(program === SYSTEM_PROGRAM ? "system_program" : "compute_budget_program"), 1n, true);
      } else {
        const programData = pda([keyBytes(program)], BPF_LOADER_UPGRADEABLE);
        store.put(program, BPF_LOADER_UPGRADEABLE, new FixedWriter(36).u32(0, 2).pubkey(4, programData).bytes, 1_141_440n, true);
      }
    }
    // Base mints.
    book.writeMint({ address: WSOL_MINT, program: TOKEN_PROGRAM, decimals: 9, supply: 0n, mintAuthority: null, freezeAuthority: null });
    book.writeMint({ address: USDC_MINT, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: this.key("usdc:mint-authority"), freezeAuthority: this.key("usdc:freeze-authority") });
    book.writeMint({ address: USDT_MINT, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: this.key("usdt:mint-authority"), freezeAuthority: this.key("usdt:freeze-authority") });
    this.writePyth();
    // Wallets.
    const wrng = ctx.rng("wallets");
    for (let i = 0; i < WALLETS; i++) {
      const w = this.key(`wallet:${i}`);
      this.wallets.push(w);
      store.put(w, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(wrng.logUniform(0.8, 400) * 1e9)));
    }
    for (let i = 0; i < WHALES; i++) {
      const w = this.key(`whale:${i}`);
      this.whales.push(w);
      store.put(w, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(wrng.logUniform(2_000, 40_000) * 1e9)));
    }
    this.activeTraders.push(...wrng.shuffle([...this.wallets]).slice(0, 120));
    for (let i = 0; i < 2; i++) this.delegates.push(this.key(`delegate:${i}`));
    for (const d of this.delegates) store.put(d, SYSTEM_PROGRAM, new Uint8Array(0), 5_000_000_000n);
    store.put(this.arbBot, SYSTEM_PROGRAM, new Uint8Array(0), 200_000n * LAMPORTS);
    store.put(INCINERATOR, SYSTEM_PROGRAM, new Uint8Array(0), 1_000_000_000n);
    // Program authorities hold lamports on mainnet too (they pay or receive rent for the accounts they manage).
    for (const a of [RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_CPMM_AUTHORITY, DAMM_V2_POOL_AUTHORITY, DBC_POOL_AUTHORITY]) {
      store.put(a, SYSTEM_PROGRAM, new Uint8Array(0), 25_000_000_000n);
    }
    // Venue globals and configs.
    this.pumpfun.genesis();
    this.pumpswap.genesis();
    this.cpmm.genesis();
    this.clmm.genesis();
    this.dlmm.writePreset(21, 80, 6250);
    this.dlmm.writePreset(71, 80, 6250);
    for (const i of [0n, 1n, 2n]) this.dammV2.writeConfig(dammV2ConfigAddress(i), i, [2_500_000n, 10_000_000n, 5_000_000n][Number(i)]!, 1);
    this.dammV2.writeConfig(DAMM_V2_MIGRATION_CONFIG_25BPS, 0n, 2_500_000n, 1);
    // USDC for the arbitrage bot and the deep SOL/USDC pool.
    const botUsdc = ctx.createTokenAccount(this.arbBot, USDC_MINT, 0n);
    book.mintTo(botUsdc, 60_000_000n * 1_000_000n);
    this.solUsdcPool = this.clmm.create({
      configIndex: 4,
      baseMint: WSOL_MINT,
      quoteMint: USDC_MINT,
      price: this.pythPrice / 1000,
      quoteDepth: 40_000_000n * 1_000_000n,
      widen: 1.6,
      creator: this.key("raydium:sol-usdc-lp"),
    });
    this.fixMintSupplies([USDC_MINT]);
    // Tokens.
    for (const spec of genesisCatalog(ctx.rng("catalog"))) this.createToken(spec);
    this.distributeStables();
    this.addDelegates();
  }

  private writePyth(): void {
    const price = BigInt(Math.round(this.pythPrice * 1e8));
    const ema = BigInt(Math.round(this.pythEma * 1e8));
    const publishTime = BigInt(this.ctx.clock.blockTime);
    this.ctx.store.put(
      PYTH_SOL_USD,
      PYTH_OWNER,
      encodePriceUpdateV2({
        writeAuthority: this.key("pyth:write-authority"),
        price,
        conf: price / 2000n,
        exponent: PYTH_EXPONENT,
        publishTime,
        prevPublishTime: this.prevPublishTime || publishTime - 1n,
        emaPrice: ema,
        emaConf: ema / 1800n,
        postedSlot: BigInt(this.ctx.clock.slot),
      }),
      1_825_020n,
    );
    this.prevPublishTime = publishTime;
  }

  /** Token-account sums define the supply of mints whose accounts we created directly (USDC/USDT top-ups). */
  private fixMintSupplies(mints: Pubkey[]): void {
    for (const m of mints) {
      const mint = this.ctx.book.mint(m);
      let sum = 0n;
      for (const a of this.ctx.book.holdersOf(m)) sum += a.amount + (a.withheld ?? 0n);
      mint.supply = sum;
      this.ctx.book.writeMint(mint);
    }
  }

  private quoteMintOf(q: "SOL" | "USDC"): Pubkey {
    return q === "SOL" ? WSOL_MINT : USDC_MINT;
  }

  /** Quote atoms for a depth given in SOL or USDC. */
  private quoteAtoms(q: "SOL" | "USDC", amount: number): bigint {
    return q === "SOL" ? BigInt(Math.floor(amount * 1e9)) : BigInt(Math.floor(amount * 1e6));
  }

  private registerMetadata(entry: TokenEntry, spec: { shape: MetaShape; broken: TokenSpec["broken"] }, rng: Rng, description?: string): void {
    const slug = entry.symbol.toLowerCase();
    const socials: { twitter?: string; website?: string; telegram?: string } = {};
    if (rng.chance(0.85)) socials.twitter = `https://x.com/${slug}_${entry.mint.slice(0, 4).toLowerCase()}`;
    if (rng.chance(0.6)) socials.website = `https://${slug}.fun`;
    if (rng.chance(0.5)) socials.telegram = `https://t.me/${slug}portal`;
    this.meta.register({
      mint: entry.mint,
      name: entry.name,
      symbol: entry.symbol,
      description: description ?? `${entry.name} ($${entry.symbol}) — the most ${entry.name.split(" ")[0]!.toLowerCase()} ${entry.name.split(" ")[1]!.toLowerCase()} on Solana.`,
      shape: spec.shape,
      broken: spec.broken,
      socials,
      ...(spec.shape === "top-level" ? { createdOn: "https://pump.fun" } : {}),
    });
  }

  private newEntry(spec: TokenSpec, mint: Pubkey, creator: Pubkey, tokenProgram: Pubkey): TokenEntry {
    const entry: TokenEntry = {
      key: spec.key,
      mint,
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      tokenProgram,
      creator,
      venues: [],
      pools: [],
      metadataUri: this.meta.uriFor(mint),
      tags: new Set(spec.tags),
      details: {},
    };
    if (tokenProgram === TOKEN_2022_PROGRAM) entry.tags.add("token-2022");
    this.tokens.set(mint, entry);
    return entry;
  }

  /** SPL mint (+ Metaplex metadata) or Token-2022 mint (+ MetadataPointer/TokenMetadata, optional transfer fee). */
  private writeTokenMint(spec: TokenSpec, entry: TokenEntry, supply: bigint, rng: Rng): void {
    const { ctx } = this;
    const authority = entry.creator;
    const m: MintState = {
      address: entry.mint,
      program: entry.tokenProgram,
      decimals: spec.decimals,
      supply,
      mintAuthority: spec.mintAuthority ? authority : null,
      freezeAuthority: spec.freezeAuthority ? authority : null,
    };
    if (entry.tokenProgram === TOKEN_2022_PROGRAM) {
      if (spec.transferFeeBps) {
        const fee = { epoch: 700n, maximumFee: 10n ** BigInt(spec.decimals + 6), basisPoints: spec.transferFeeBps };
        m.transferFee = { configAuthority: authority, withdrawAuthority: authority, withheld: 0n, older: fee, newer: fee };
      }
      m.metadataPointer = { authority, address: entry.mint };
      m.tokenMetadata = { updateAuthority: authority, name: entry.name, symbol: entry.symbol, uri: entry.metadataUri!, additional: rng.chance(0.5) ? [["category", "meme"]] : [] };
      ctx.book.writeMint(m);
      return;
    }
    ctx.book.writeMint(m);
    const twoCreators = rng.chance(0.4);
    const cosigner = this.key(`cosigner:${spec.key}`);
    ctx.store.putRentExempt(
      metaplexMetadataAddress(entry.mint),
      METAPLEX_PROGRAM,
      encodeMetaplexMetadata({
        updateAuthority: authority,
        mint: entry.mint,
        name: entry.name,
        symbol: entry.symbol,
        uri: entry.metadataUri!,
        sellerFeeBasisPoints: 0,
        creators: twoCreators
          ? [
              { address: authority, verified: true, share: 60 },
              { address: cosigner, verified: false, share: 40 },
            ]
          : [{ address: authority, verified: true, share: 100 }],
        primarySaleHappened: rng.chance(0.3),
        isMutable: rng.chance(0.6),
        editionNonce: rng.int(250, 255),
        tokenStandard: 2,
      }),
    );
  }

  private createToken(spec: TokenSpec): void {
    const { ctx } = this;
    const rng = ctx.rng(`token:${spec.key}`);
    const mint = this.key(`mint:${spec.key}`);
    const creator = this.key(`creator:${spec.key}`);
    ctx.store.put(creator, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(rng.logUniform(2, 80) * 1e9)));
    const p = spec.primary;
    const tokenProgram = spec.token2022 ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
    const entry = this.newEntry(spec, mint, creator, tokenProgram);
    entry.tags.add(p.venue === "pumpfun" || p.venue === "pumpswap" ? "pump" : "pool");
    this.registerMetadata(entry, spec, rng);

    let circulating: bigint;
    let supply: bigint;
    let price = 0; // quote atoms per base atom of the primary pool

    if (p.venue === "pumpfun" || p.venue === "pumpswap") {
      entry.decimals = PUMP.decimals;
      const info = { mint, name: entry.name, symbol: entry.symbol, uri: entry.metadataUri!, creator, tokenProgram };
      const res =
        p.venue === "pumpfun"
          ? this.pumpfun.createAtGenesis(info, p.progress)
          : this.pumpfun.graduatedAtGenesis(
              info,
              BigInt(Math.floor(p.baseShare * Number(PUMP.tokenTotalSupply))),
              BigInt(Math.floor(p.quoteSol * 1e9)),
              BigInt(Math.floor((p.virtualQuoteSol ?? 0) * 1e9)),
            );
      entry.curve = res.curve;
      circulating = res.circulating;
      supply = PUMP.tokenTotalSupply;
      this.addCurvePool(entry, res.curve);
      if (p.venue === "pumpswap") {
        const pool = this.pumpswap.pools.get(res.curve.migratedPool!)!;
        this.addPool(entry, this.pumpswapRef(pool), this.pumpswap as unknown as PoolVenue, 3);
        price = this.pumpswap.price(pool);
        entry.venues = ["pumpswap"];
      } else {
        entry.venues = ["pumpfun"];
        price = this.pumpfun.price(res.curve);
      }
      if (p.venue === "pumpfun" && res.curve.complete) entry.details.stuck = "complete curve, not migrated";
    } else {
      const tokens = rng.pick([100_000_000, 1_000_000_000, 1_000_000_000, 10_000_000_000]);
      const original = BigInt(tokens) * 10n ** BigInt(spec.decimals);
      supply = spec.burnedShare ? original - BigInt(Math.floor(Number(original) * spec.burnedShare)) : original;
      if (spec.burnedShare) entry.details.burned = (original - supply).toString();
      if (p.venue === "meteora-dbc") supply = 1_000_000_000n * 10n ** BigInt(spec.decimals);
      this.writeTokenMint(spec, entry, supply, rng);
      const res = this.createPrimaryPool(entry, p, supply);
      circulating = res.circulating;
      price = res.price;
    }

    for (const extra of spec.extra) {
      const used = this.createExtraPool(entry, extra, price);
      circulating -= used;
    }

    // Incinerated tokens sit in the incinerator's ATA (a real token account nobody can move).
    if (spec.incineratedShare) {
      const amount = BigInt(Math.floor(Number(circulating) * spec.incineratedShare));
      ctx.createTokenAccount(INCINERATOR, mint, amount);
      circulating -= amount;
      entry.details.incinerated = amount.toString();
    }
    this.distributeHolders(entry, circulating, rng, spec);
    entry.details.supply = supply.toString();
  }

  private addCurvePool(entry: TokenEntry, curve: PumpCurve): void {
    entry.pools.push({
      kind: "pumpfun",
      address: curve.address,
      baseMint: entry.mint,
      quoteMint: WSOL_MINT,
      related: { associatedBondingCurve: curve.ata, global: pumpGlobal(), creatorVault: creatorVault(curve.creator) },
      derivable: true,
    });
  }

  private pumpswapRef(pool: PumpSwapPool): PoolRef & PumpSwapPool {
    return Object.assign(pool, {
      kind: "pumpswap",
      derivable: true,
      related: { poolBaseTokenAccount: pool.baseVault, poolQuoteTokenAccount: pool.quoteVault, globalConfig: pumpSwapGlobalConfig(), lpMint: pool.lpMint },
    });
  }

  private addPool(entry: TokenEntry, pool: PoolRef, venue: PoolVenue, weight: number): void {
    entry.pools.push(pool);
    if (!entry.venues.includes(pool.kind)) entry.venues.push(pool.kind);
    this.tradeables.push({ token: entry, pool, venue, weight });
  }

  /** Creates the token's main pool; returns the tokens left for holders and the pool price (quote atoms per base atom). */
  private createPrimaryPool(entry: TokenEntry, p: VenueSpec, supply: bigint): { circulating: bigint; price: number } {
    const mint = entry.mint;
    const owner = entry.creator;
    switch (p.venue) {
      case "raydium-amm-v4": {
        const base = BigInt(Math.floor(Number(supply) * p.poolShare));
        const quote = this.quoteAtoms(p.quote, p.depth);
        const pool = this.ammV4.create({
          market: this.key(`openbook-market:${entry.key}`),
          coinMint: mint,
          pcMint: this.quoteMintOf(p.quote),
          coin: base,
          pc: quote,
          owner,
          ...(p.needTakePnl ? { needTakePnl: [base / 100_000n, quote / 100_000n] as [bigint, bigint] } : {}),
        });
        if (p.needTakePnl) entry.details.needTakePnl = `${pool.needTakePnlCoin}/${pool.needTakePnlPc}`;
        this.addPool(entry, pool, this.ammV4, 2);
        return { circulating: supply - this.ctx.tokenAccount(pool.coinVault).amount, price: this.ammV4.price(pool) };
      }
      case "raydium-cpmm": {
        const base = BigInt(Math.floor(Number(supply) * p.poolShare));
        const pool = this.cpmm.create({ configIndex: p.config, baseMint: mint, quoteMint: this.quoteMintOf(p.quote), base, quote: this.quoteAtoms(p.quote, p.depth), creator: owner });
        this.addPool(entry, pool, this.cpmm, 2);
        return { circulating: supply - base, price: this.cpmm.price(pool) };
      }
      case "raydium-clmm": {
        const depth = this.quoteAtoms(p.quote, p.depth);
        const price = Number(depth) / (Number(supply) * 0.15);
        const pool = this.clmm.create({ configIndex: p.config, baseMint: mint, quoteMint: this.quoteMintOf(p.quote), price, quoteDepth: depth, widen: 3, creator: owner });
        this.addPool(entry, pool, this.clmm, 2);
        const vault = pool.baseIs0 ? pool.vault0 : pool.vault1;
        return { circulating: supply - this.ctx.tokenAccount(vault).amount, price: this.clmm.price(pool) };
      }
      case "meteora-dlmm": {
        const depth = this.quoteAtoms(p.quote, p.depth);
        const price = Number(depth) / (Number(supply) * 0.15);
        const pair = this.dlmm.create({ baseMint: mint, quoteMint: this.quoteMintOf(p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), price, quoteDepth: depth, bins: 30, creator: owner });
        this.addPool(entry, pair, this.dlmm, 2);
        const reserve = pair.baseIsX ? pair.reserveX : pair.reserveY;
        return { circulating: supply - this.ctx.tokenAccount(reserve).amount, price: this.dlmm.price(pair) };
      }
      case "meteora-damm-v1": {
        const base = BigInt(Math.floor(Number(supply) * p.poolShare));
        const pool = this.dammV1.create({ baseMint: mint, quoteMint: this.quoteMintOf(p.quote), base, quote: this.quoteAtoms(p.quote, p.depth), creator: owner });
        this.addPool(entry, pool, this.dammV1, 2);
        return { circulating: supply - base, price: this.dammV1.price(pool) };
      }
      case "meteora-damm-v2": {
        const depth = this.quoteAtoms(p.quote, p.depth);
        const price = Number(depth) / (Number(supply) * 0.15);
        const pool = this.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: [2_500_000n, 10_000_000n, 5_000_000n][p.config]!, baseMint: mint, quoteMint: this.quoteMintOf(p.quote), price, quoteDepth: depth, creator: owner, concentrated: !!p.concentrated });
        this.addPool(entry, pool, this.dammV2, 2);
        return { circulating: supply - this.ctx.tokenAccount(pool.vaultA).amount, price: this.dammV2.price(pool) };
      }
      case "meteora-dbc": {
        const decimals = entry.decimals;
        const perToken = 10 ** decimals;
        const config = this.dbc.makeConfig(this.key(`dbc-config:${entry.key}`), {
          quoteMint: WSOL_MINT,
          feeClaimer: this.key(`dbc-partner:${entry.key}`),
          startPrice: (2.8e-8 * 1e9) / perToken,
          migrationPrice: (4e-7 * 1e9) / perToken,
          threshold: 85n * LAMPORTS,
          feeNumerator: 10_000_000n,
          tokenDecimals: decimals,
        });
        const { pool, sold } = this.dbc.create({ config, baseMint: mint, creator: owner, baseSupplyInPool: supply, progress: p.progress, ...(p.migrated ? { migrated: true } : {}) });
        entry.pools.push(pool);
        entry.venues.push("meteora-dbc");
        if (!p.migrated) this.tradeables.push({ token: entry, pool, venue: this.dbc, weight: 2 });
        else entry.venues = [];
        return { circulating: p.migrated ? supply : sold, price: this.dbc.price(pool) };
      }
      default:
        throw new Error(`unexpected primary venue ${p.venue}`);
    }
  }

  /** Creates a further pool of an existing token at `price`; returns the base tokens it took from the circulating supply. */
  private createExtraPool(entry: TokenEntry, p: VenueSpec, price: number): bigint {
    const mint = entry.mint;
    const owner = this.key(`lp:${entry.key}:${p.venue}`);
    this.ctx.store.put(owner, SYSTEM_PROGRAM, new Uint8Array(0), 3n * LAMPORTS);
    switch (p.venue) {
      case "meteora-dlmm": {
        const pair = this.dlmm.create({ baseMint: mint, quoteMint: this.quoteMintOf(p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), price, quoteDepth: this.quoteAtoms(p.quote, p.depth), bins: 30, creator: owner });
        this.addPool(entry, pair, this.dlmm, 1);
        return this.ctx.tokenAccount(pair.baseIsX ? pair.reserveX : pair.reserveY).amount;
      }
      case "meteora-damm-v2": {
        if (p.config === -1) {
          // DBC graduate: DAMM v2 pool at the FixedBps25 migration config, created by the DBC pool authority.
          const dbcPool = entry.pools.find((x) => x.kind === "meteora-dbc")!;
          const pool = this.dammV2.create({ config: DAMM_V2_MIGRATION_CONFIG_25BPS, feeNumerator: 2_500_000n, baseMint: mint, quoteMint: WSOL_MINT, price: this.dbc.price(dbcPool as never), quoteDepth: 84n * LAMPORTS, creator: DBC_POOL_AUTHORITY });
          this.addPool(entry, pool, this.dammV2, 2);
          entry.details.migratedFrom = dbcPool.address;
          return this.ctx.tokenAccount(pool.vaultA).amount;
        }
        const pool = this.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: 2_500_000n, baseMint: mint, quoteMint: this.quoteMintOf(p.quote), price, quoteDepth: this.quoteAtoms(p.quote, p.depth), creator: owner });
        this.addPool(entry, pool, this.dammV2, p.idle ? 0 : 1);
        return this.ctx.tokenAccount(pool.vaultA).amount;
      }
      default:
        throw new Error(`unsupported extra venue ${p.venue}`);
    }
  }

  /** 2–5 whales, the dev, and a long tail of small holders (Pareto-like), summing exactly to `circulating`. */
  private distributeHolders(entry: TokenEntry, circulating: bigint, rng: Rng, spec: TokenSpec): void {
    const { ctx } = this;
    if (circulating <= 0n) return;
    const fresh = spec.tags.includes("fresh");
    const shares: [Pubkey, number][] = [];
    const whaleCount = fresh ? rng.int(1, 2) : rng.int(2, 5);
    const whales = rng.shuffle([...this.whales]).slice(0, whaleCount);
    let whaleTotal = 0;
    for (const w of whales) {
      const s = 0.03 + rng.next() * 0.09;
      whaleTotal += s;
      shares.push([w, s]);
    }
    const dev = 0.01 + rng.next() * 0.04;
    shares.push([entry.creator, dev]);
    const rest = Math.max(0.2, 1 - whaleTotal - dev);
    const small = fresh ? rng.int(3, 12) : rng.int(30, 120);
    const holders = rng.shuffle([...this.wallets]).slice(0, small);
    const weights = holders.map(() => Math.pow(1 - rng.next() * 0.999, -1 / 1.1));
    const wsum = weights.reduce((a, b) => a + b, 0);
    holders.forEach((h, i) => shares.push([h, (rest * weights[i]!) / wsum]));
    const total = shares.reduce((a, [, s]) => a + s, 0);
    let left = circulating;
    shares.forEach(([owner, s], i) => {
      const amount = i === shares.length - 1 ? left : (circulating * BigInt(Math.floor((s / total) * 1e12))) / 1_000_000_000_000n;
      if (amount <= 0n) return;
      left -= amount;
      const existing = ctx.book.account(ata(owner, entry.mint, entry.tokenProgram));
      if (existing) {
        existing.amount += amount;
        ctx.book.write(existing);
      } else ctx.createTokenAccount(owner, entry.mint, amount);
    });
  }

  private distributeStables(): void {
    const { ctx } = this;
    const rng = ctx.rng("stables");
    for (const w of this.wallets) {
      if (rng.chance(0.45)) ctx.createTokenAccount(w, USDC_MINT, BigInt(Math.floor(rng.logUniform(40, 25_000) * 1e6)));
      if (rng.chance(0.08)) ctx.createTokenAccount(w, USDT_MINT, BigInt(Math.floor(rng.logUniform(20, 5_000) * 1e6)));
    }
    for (const w of this.whales) {
      ctx.createTokenAccount(w, USDC_MINT, BigInt(Math.floor(rng.logUniform(100_000, 2_000_000) * 1e6)));
      ctx.createTokenAccount(w, USDT_MINT, BigInt(Math.floor(rng.logUniform(50_000, 500_000) * 1e6)));
    }
    this.fixMintSupplies([USDC_MINT, USDT_MINT]);
  }

  /** A few holder accounts approve a delegate (state stays Initialized); their owners don't trade those tokens. */
  private addDelegates(): void {
    const { ctx } = this;
    const picks = ["cpmm-2", "dlmm-0", "amm-v4-0", "pump-mid-1"];
    picks.forEach((key, i) => {
      const entry = [...this.tokens.values()].find((t) => t.key === key);
      if (!entry) return;
      const acct = ctx.book
        .holdersOf(entry.mint)
        .filter((a) => this.wallets.includes(a.owner) && a.amount > 0n)
        .sort((a, b) => (a.address < b.address ? -1 : 1))[0];
      if (!acct) return;
      acct.delegate = this.delegates[i % this.delegates.length]!;
      acct.delegatedAmount = i % 2 === 0 ? acct.amount : acct.amount / 3n;
      ctx.book.write(acct);
      entry.tags.add("delegated");
      entry.details.delegatedAccount = acct.address;
    });
  }

  // ---------------------------------------------------------------- World interface

  adopt(fixtures: ReadonlyMap<Pubkey, AccountState>): void {
    this.dammV1.adoptVaults(fixtures);
  }

  genesis(ledger: LedgerWriter): void {
    const { ctx } = this;
    ctx.clock.slot = ledger.slot;
    ctx.clock.blockTime = ledger.blockTime;
    this.writePyth();
    for (const [pubkey, state] of ctx.store.accounts) ledger.setAccount(pubkey, state);
    ctx.store.attach(ledger);
    this.genesisWritten = true;
  }

  produceSlot(ledger: LedgerWriter): TxRecord[] {
    const { ctx } = this;
    if (!this.genesisWritten) throw new Error("produceSlot before genesis");
    ctx.store.attach(ledger);
    if (!this.reconciled) this.reconcile(ledger);
    ctx.clock.slot = ledger.slot;
    ctx.clock.blockTime = ledger.blockTime;
    const rng = this.lifeRng;
    const txs: TxRecord[] = [];
    const run = (d: Draft | null) => {
      if (!d) return;
      try {
        txs.push(
          executeTx(d.plan(), {
            store: ctx.store,
            book: ctx.book,
            recentBlockhash: ledger.recentBlockhash,
            signature: signatureFor(this.options.seed, `${ledger.slot}:${txs.length}`),
          }),
        );
      } catch (err) {
        // The state was rolled back; the slot goes on without this transaction.
        this.errors.push(`slot ${ledger.slot}: ${(err as Error).message}`);
        if (this.errors.length > 100) this.errors.shift();
      }
    };

    // Oracle: a small random walk, reflected inside [150, 250].
    let next = this.pythPrice * Math.exp((rng.next() - 0.5) * 0.004);
    if (next < 152) next = 304 - next;
    if (next > 248) next = 496 - next;
    this.pythPrice = next;
    this.pythEma = this.pythEma * 0.95 + next * 0.05;
    ctx.solUsd = next;
    this.writePyth();

    // Curves completed in an earlier slot migrate first.
    for (const entry of this.tokens.values()) {
      const c = entry.curve;
      if (c && c.complete && !c.migratedPool && c.completedAtSlot !== null && c.completedAtSlot > 0 && c.completedAtSlot < ledger.slot) {
        run(this.migrateTx(entry, c));
      }
    }
    // A new pump coin now and then (capped, so a long-running node keeps bounded memory).
    if (ledger.slot >= this.nextLaunchSlot && this.launches < MAX_LAUNCHES) {
      run(this.launchTx(rng));
      this.nextLaunchSlot = ledger.slot + rng.int(20, 40);
    }
    // Keep SOL/USDC in line with the oracle.
    run(this.arbTx(rng));
    const n = rng.int(2, 12);
    for (let i = 0; i < n; i++) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const t = this.randomTrade(rng);
        if (!t) continue;
        const before = t.price();
        const count = txs.length;
        run(t.draft);
        if (txs.length > count) {
          const tx = txs[txs.length - 1]!;
          this.tradeLog.push({ slot: ledger.slot, signature: tx.signatures[0]!, kind: t.kind, pool: t.pool, side: t.side, failed: tx.meta.err !== null, priceBefore: before, priceAfter: t.price() });
          if (this.tradeLog.length > 4000) this.tradeLog.splice(0, 2000);
        }
        break;
      }
    }
    this.markCompletedCurves();
    return txs;
  }

  /**
   * Accounts written over the world's at genesis (the chain's `--accounts` fixtures win at slot 0, and some share
   * addresses with ours: the wSOL dynamic vault, the Pyth feed, configs) are put back once, so every balance and price
   * the world reports from slot 1 on matches the ledger.
   */
  private reconcile(ledger: LedgerWriter): void {
    this.reconciled = true;
    for (const [k, mine] of this.ctx.store.accounts) {
      const there = ledger.getAccount(k);
      if (!there || there.lamports !== mine.lamports || there.owner !== mine.owner || Buffer.compare(there.data, mine.data) !== 0) {
        ledger.setAccount(k, mine);
      }
    }
  }
  private reconciled = false;

  /** Curves that completed in this slot are tagged "complete" until their migration (next slot) adds "graduated". */
  private markCompletedCurves(): void {
    for (const t of this.tokens.values()) {
      if (!t.curve?.complete || t.curve.migratedPool || t.tags.has("complete")) continue;
      for (const tag of ["fresh", "mid", "near-graduation"]) t.tags.delete(tag);
      t.tags.add("complete");
      t.details.completedAtSlot = String(t.curve!.completedAtSlot);
    }
  }

  manifest(): WorldManifest {
    const tokens: WorldToken[] = [...this.tokens.values()].map((t) => ({
      mint: t.mint,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      tokenProgram: t.tokenProgram,
      venues: [...t.venues],
      pools: t.pools.map(
        (p): WorldPool => ({ kind: p.kind, address: p.address, baseMint: p.baseMint, quoteMint: p.quoteMint, related: { ...p.related }, derivable: p.derivable }),
      ),
      metadataUri: t.metadataUri,
      tags: [...t.tags],
      details: { ...t.details, creator: t.creator },
    }));
    return {
      seed: this.options.seed,
      tokens,
      wellKnown: {
        pythSolUsd: PYTH_SOL_USD,
        wsol: WSOL_MINT,
        usdc: USDC_MINT,
        usdt: USDT_MINT,
        solUsdcPool: this.solUsdcPool.address,
        incinerator: INCINERATOR,
        pumpGlobal: pumpGlobal(),
        pumpSwapGlobalConfig: pumpSwapGlobalConfig(),
        cpmmConfig0: this.cpmm.configs.get(0)!.address,
        cpmmConfig1: this.cpmm.configs.get(1)!.address,
        clmmConfig4: this.clmm.configs.get(4)!.address,
        dammV2Config0: dammV2ConfigAddress(0n),
        dammV2MigrationConfig: DAMM_V2_MIGRATION_CONFIG_25BPS,
        arbBot: this.arbBot,
        migrationAuthority: PUMP_WITHDRAW_AUTHORITY,
      },
      wallets: { whales: [...this.whales], delegates: [...this.delegates] },
    };
  }

  /** Metaplex metadata PDA of a mint. */
  metadataAddress(mint: Pubkey): Pubkey {
    return metaplexMetadataAddress(mint);
  }

  /** The world's own price of a pool or curve (quote atoms per base atom), for tests. */
  priceOf(address: Pubkey): number {
    for (const t of this.tokens.values()) if (t.curve?.address === address) return this.pumpfun.price(t.curve);
    if (address === this.solUsdcPool.address) return this.clmm.price(this.solUsdcPool);
    const tr = this.tradeables.find((x) => x.pool.address === address);
    if (tr) return tr.venue.price(tr.pool);
    const dbc = this.dbc.pools.get(address);
    if (dbc) return this.dbc.price(dbc);
    throw new Error(`unknown pool ${address}`);
  }

  http(path: string): HttpReply | undefined {
    return this.meta.http(path);
  }

  // ---------------------------------------------------------------- life

  private txShape(rng: Rng): { cuLimit: number; cuPrice: bigint; version: "legacy" | 0 } {
    const cuLimit = rng.pick([140_000, 200_000, 250_000, 300_000, 400_000]);
    const cuPrice = rng.chance(0.15) ? 0n : BigInt(Math.floor(rng.logUniform(1_000, 250_000)));
    return { cuLimit, cuPrice, version: rng.chance(0.25) ? 0 : "legacy" };
  }

  private migrateTx(entry: TokenEntry, c: PumpCurve): Draft {
    const d = new Draft(this.ctx, PUMP_WITHDRAW_AUTHORITY, 400_000, 100_000n);
    const poolAddress = this.pumpfun.migrate(d, c);
    d.onApply(() => {
      const pool = this.pumpswap.pools.get(poolAddress)!;
      this.addPool(entry, this.pumpswapRef(pool), this.pumpswap as unknown as PoolVenue, 3);
      entry.venues = entry.venues.filter((v) => v !== "pumpfun");
      if (!entry.venues.includes("pumpswap")) entry.venues.unshift("pumpswap");
      entry.tags.delete("near-graduation");
      entry.tags.delete("mid");
      entry.tags.delete("fresh");
      entry.tags.add("complete");
      entry.tags.add("graduated");
      entry.details.graduatedAtSlot = String(this.ctx.clock.slot);
    });
    return d;
  }

  private launchTx(rng: Rng): Draft {
    const { ctx } = this;
    const n = this.launches++;
    let creator = rng.pick(this.wallets);
    for (let i = 0; i < 10 && ctx.store.lamports(creator) < 4n * LAMPORTS; i++) creator = rng.pick(this.wallets);
    if (ctx.store.lamports(creator) < 4n * LAMPORTS) creator = rng.pick(this.whales);
    const t22 = n % 3 === 1;
    const { name, symbol } = launchName(rng, this.usedNames);
    const mint = this.key(`launch:${n}`);
    const entry: TokenEntry = {
      key: `launch-${n}`,
      mint,
      name,
      symbol,
      decimals: PUMP.decimals,
      tokenProgram: t22 ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM,
      creator,
      venues: ["pumpfun"],
      pools: [],
      metadataUri: this.meta.uriFor(mint),
      tags: new Set(["pumpfun", "pump", "fresh", "launched", ...(t22 ? ["token-2022"] : [])]),
      details: { launchedAtSlot: String(ctx.clock.slot) },
    };
    this.registerMetadata(entry, { shape: "top-level", broken: null }, rng);
    const { cuLimit, cuPrice } = this.txShape(rng);
    const d = new Draft(ctx, creator, Math.max(cuLimit, 300_000), cuPrice, t22 ? 0 : "legacy");
    const info = { mint, name, symbol, uri: entry.metadataUri!, creator, tokenProgram: entry.tokenProgram };
    ctx.book.mints.set(mint, this.pumpfun.mintState(info));
    const curve = this.pumpfun.create(d, info);
    const devBuy = BigInt(Math.floor(rng.logUniform(0.2, 3) * 1e9));
    this.pumpfun.buy(d, curve, creator, devBuy);
    d.onApply(() => {
      entry.curve = curve;
      this.addCurvePool(entry, curve);
      this.tokens.set(mint, entry);
    });
    return d;
  }

  private arbTx(rng: Rng): Draft | null {
    const pool = this.solUsdcPool;
    const target = sqrtPriceX64FromPrice(this.pythPrice / 1000);
    const cur = Number(pool.sqrtPrice);
    if (Math.abs(Number(target) - cur) / cur < 0.0002) return null;
    const { zeroForOne, amountIn } = this.clmm.amountToReach(pool, target);
    if (amountIn <= 0n) return null;
    const { cuLimit, cuPrice } = this.txShape(rng);
    const d = new Draft(this.ctx, this.arbBot, cuLimit, cuPrice * 5n, 0);
    const solIn = zeroForOne === (pool.mint0 === WSOL_MINT);
    const usdc = d.ensureAta(this.arbBot, USDC_MINT);
    const wsol = d.wrapSol(this.arbBot, solIn ? amountIn : 0n);
    const res = this.clmm.swapRaw(d, pool, this.arbBot, zeroForOne, amountIn, solIn ? wsol : usdc, solIn ? usdc : wsol, false);
    if (!res) return null;
    d.unwrapSol(this.arbBot);
    return d;
  }

  private curveCache: { slot: number; curves: TokenEntry[] } | null = null;
  private activeCurves(): TokenEntry[] {
    if (this.curveCache?.slot !== this.ctx.clock.slot) {
      this.curveCache = { slot: this.ctx.clock.slot, curves: [...this.tokens.values()].filter((t) => t.curve && !t.curve.complete) };
    }
    return this.curveCache.curves.filter((t) => !t.curve!.complete);
  }

  private pickTradeable(rng: Rng): Tradeable | { curve: PumpCurve; token: TokenEntry } | null {
    const curves = this.activeCurves();
    const curveWeights = curves.map((t) => [t, t.tags.has("near-graduation") ? 8 : 2] as const);
    const curveWeight = curveWeights.reduce((a, [, w]) => a + w, 0);
    const poolWeight = this.tradeables.reduce((a, t) => a + t.weight, 0);
    const roll = rng.next() * (poolWeight + curveWeight + 2);
    if (roll < curveWeight && curves.length) {
      const token = rng.weighted(curveWeights);
      return { curve: token.curve!, token };
    }
    if (roll >= poolWeight + curveWeight) return { token: null, pool: this.solUsdcPool, venue: this.clmm, weight: 2 };
    if (this.tradeables.length === 0) return null;
    return rng.weighted(this.tradeables.map((t) => [t, t.weight] as const));
  }

  /** A holder account of `mint` owned by one of our trading wallets, not delegated, with a balance. */
  private pickSeller(rng: Rng, mint: Pubkey): { owner: Pubkey; amount: bigint } | null {
    // Reservoir sample over the mint's accounts: wallet-owned ATAs only (vaults, the incinerator and delegated accounts never sell).
    let chosen: { owner: Pubkey; amount: bigint } | null = null;
    let seen = 0;
    for (const a of this.ctx.book.holdersOf(mint)) {
      if (a.amount === 0n || a.delegate !== null || !this.isTrader(a.owner)) continue;
      seen++;
      if (rng.next() * seen < 1) chosen = { owner: a.owner, amount: a.amount };
    }
    return chosen;
  }

  private traderSet: Set<Pubkey> | null = null;
  private isTrader(k: Pubkey): boolean {
    if (!this.traderSet) this.traderSet = new Set([...this.wallets, ...this.whales]);
    return this.traderSet.has(k);
  }

  private randomTrade(rng: Rng): PlannedTrade | null {
    const { ctx } = this;
    const pick = this.pickTradeable(rng);
    if (!pick) return null;
    const fail = rng.chance(0.025);
    const { cuLimit, cuPrice, version } = this.txShape(rng);
    // Lamports the payer must keep for the fee, rent of new accounts and some change.
    const reserve = 5000n + (BigInt(cuLimit) * cuPrice) / 1_000_000n + 60_000_000n;
    const isCurve = "curve" in pick;
    const baseMint = isCurve ? pick.token.mint : pick.pool.baseMint;
    const quoteMint = isCurve ? WSOL_MINT : pick.pool.quoteMint;
    const buyBias = isCurve && pick.token.tags.has("near-graduation") ? 0.85 : 0.55;
    let side: Side = rng.chance(buyBias) ? "buy" : "sell";
    let wallet: Pubkey | null = null;
    let amount = 0n;
    if (side === "sell" && baseMint === WSOL_MINT) {
      // Selling SOL for USDC: any wallet with SOL.
      wallet = rng.pick(this.wallets);
      amount = BigInt(Math.floor(rng.logUniform(0.05, 8) * 1e9));
      if (ctx.store.lamports(wallet) < amount + reserve) return null;
    } else if (side === "sell") {
      const seller = this.pickSeller(rng, baseMint);
      if (!seller) side = "buy";
      else {
        wallet = seller.owner;
        const frac = rng.chance(0.3) ? 1 : rng.logUniform(0.05, 0.9);
        amount = frac >= 1 ? seller.amount : BigInt(Math.floor(Number(seller.amount) * frac));
        if (amount <= 0n) return null;
      }
    }
    if (side === "buy") {
      const whale = rng.chance(0.06);
      // Half the buyers already hold the token; the rest come from the active traders of the day.
      const holder = whale ? null : rng.chance(0.5) ? this.pickSeller(rng, baseMint) : null;
      wallet = whale ? rng.pick(this.whales) : (holder?.owner ?? rng.pick(this.activeTraders));
      const sol = rng.logUniform(0.03, whale ? 40 : 5);
      if (quoteMint === WSOL_MINT) {
        amount = BigInt(Math.floor(sol * 1e9));
        if (ctx.store.lamports(wallet) < amount + reserve) return null;
      } else {
        amount = BigInt(Math.floor(sol * ctx.solUsd * 10 ** ctx.book.mint(quoteMint).decimals));
        const stable = ctx.book.account(ata(wallet, quoteMint, TOKEN_PROGRAM));
        if (!stable || stable.amount < amount) return null;
      }
    }
    if (!wallet || ctx.store.lamports(wallet) < reserve) return null;
    const d = new Draft(ctx, wallet, cuLimit, cuPrice, version);
    if (isCurve) {
      const curve = pick.curve;
      const ok = side === "buy" ? this.pumpfun.buy(d, curve, wallet, amount, { fail }) : this.pumpfun.sell(d, curve, wallet, amount, { fail });
      return ok ? { draft: d, kind: "pumpfun", pool: curve.address, side, price: () => this.pumpfun.price(curve) } : null;
    }
    const { pool, venue } = pick;
    const baseIsSol = baseMint === WSOL_MINT;
    const quoteIsSol = quoteMint === WSOL_MINT;
    const userBase = baseIsSol ? d.wrapSol(wallet, side === "sell" ? amount : 0n) : d.ensureAta(wallet, baseMint);
    const userQuote = quoteIsSol ? d.wrapSol(wallet, side === "buy" ? amount : 0n) : d.ensureAta(wallet, quoteMint);
    if (!venue.swap(d, pool, wallet, side, amount, userBase, userQuote, fail)) return null;
    if (baseIsSol || quoteIsSol) d.unwrapSol(wallet);
    return { draft: d, kind: pool.kind, pool: pool.address, side, price: () => venue.price(pool) };
  }
}

