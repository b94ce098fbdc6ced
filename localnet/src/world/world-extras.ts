/**
 * The extras edition of the world (`createWorld({ extras: true })`, `--extras`): what a service pointed at mainnet meets
 * beyond the classic nine kinds.
 * - Venues: Raydium LaunchLab curves (every curve type; SOL and USDC quotes; graduation into CPMM or AMM v4 by
 *   migrate_to_cpswap / migrate_to_amm) and Orca Whirlpool pools (swap, swapV2, twoHopSwap, twoHopSwapV2; an
 *   adaptive-fee pool whose trade_enable_timestamp lies ahead).
 * - Quote assets: JitoSOL (its SPL stake pool's total_lamports / pool_token_supply is the rate), USD1 (priced by its
 *   own USD1/USDC pool), a memecoin (a graduated pump coin); each quote has pools of its own against SOL or USDC.
 * - Quiet pools of the kinds not derivable from a mint (AMM v4 by market, DBC by config, DAMM v2 on an unlisted config):
 *   created at genesis, listed in the manifest, never traded.
 * - Pools that open later: their activation is written relative to the chain's genesis time, and they trade once open.
 * - Multi-signer transactions: two or three signers each swapping on the same pool, each trade recorded with its signer.
 * Its slot life draws from its own random stream, so the classic world's draws are the same with or without it.
 */
import type { Pubkey } from "../chain/types.js";
import type { Quote, VenueSpec } from "./catalog.js";
import { Draft } from "./context.js";
import { FixedWriter } from "./core/bytes.js";
import { ata, findPda, keyBytes, pda, sha256 } from "./core/keys.js";
import type { Rng } from "./core/rng.js";
import {
  BPF_LOADER_UPGRADEABLE,
  CPMM_CREATE_POOL_FEE_RECEIVER,
  JITO_STAKE_POOL,
  JITOSOL_MINT,
  METAPLEX_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  ORCA_WHIRLPOOLS_CONFIG,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CPMM_AUTHORITY,
  RAYDIUM_CPMM_PROGRAM,
  RAYDIUM_LAUNCHLAB_AUTHORITY,
  RAYDIUM_LAUNCHLAB_PLATFORM,
  RAYDIUM_LAUNCHLAB_PROGRAM,
  SPL_STAKE_POOL_PROGRAM,
  SYSTEM_PROGRAM,
  TOKEN_PROGRAM,
  USD1_MINT,
  USDC_MINT,
  WSOL_MINT,
} from "./programs.js";
import { txShape } from "./slot-transactions.js";
import { poolTarget, trackPoolSwap, trackSwap } from "./swap-truth.js";
import { r, w, ws, type Ix } from "./tx/builder.js";
import { borsh, tokenTransferChecked } from "./tx/common.js";
import { dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import type { Whirlpool } from "./venues/orca-whirlpool.js";
import { creatorVault, metaplexMetadataAddress, pumpGlobal, type CoinInfo } from "./venues/pumpfun.js";
import { encodeMetaplexMetadata } from "./spl/metaplex.js";
import { cpmmConfigAddress } from "./venues/raydium-cpmm.js";
import { raydiumPoolKeys } from "./venues/raydium-config.js";
import { ammV4Address, ammV4Associated } from "./venues/raydium-amm-v4.js";
import type { LaunchLabPool } from "./venues/raydium-launchlab.js";
import type { PoolRef, PoolVenue } from "./venues/types.js";
import { LAMPORTS, type TokenEntry, type Tradeable, type WorldState } from "./world-state.js";

/** JitoSOL's stake-pool rate (lamports per pool token, as total_lamports / pool_token_supply): mainnet's order of size. */
const JITOSOL_RATE_NUM = 1_254_371_209n;
const JITOSOL_RATE_DEN = 1_000_000_000n;
/** SPL stake pool `StakePool` account size on mainnet (Jito's) and the account type tag (1 = StakePool). */
const STAKE_POOL_SIZE = 611;
/** The DAMM v2 config index of the quiet config-based pool: one no mint-based derivation enumerates. */
const QUIET_DAMM_V2_CONFIG = 9n;
/** Adaptive fee tier index of the world's adaptive Whirlpool (must differ from every tick spacing). */
const ADAPTIVE_FEE_TIER_INDEX = 1088;
const anchor = (name: string) => sha256(`global:${name}`).subarray(0, 8);

/** Programs, venue configs and the quote assets' mints, before the catalog's tokens. */
export function buildExtrasBase(state: WorldState): void {
  const { ctx } = state;
  const { store, book } = ctx;
  for (const program of [ORCA_WHIRLPOOL_PROGRAM, RAYDIUM_LAUNCHLAB_PROGRAM, SPL_STAKE_POOL_PROGRAM]) {
    store.put(program, BPF_LOADER_UPGRADEABLE, new FixedWriter(36).u32(0, 2).pubkey(4, pda([keyBytes(program)], BPF_LOADER_UPGRADEABLE)).bytes, 1_141_440n, true);
  }
  store.put(RAYDIUM_LAUNCHLAB_AUTHORITY, SYSTEM_PROGRAM, new Uint8Array(0), 25_000_000_000n);
  state.whirlpool.genesis();
  state.launchlab.genesis([WSOL_MINT, USDC_MINT]);
  state.dammV2.writeConfig(dammV2ConfigAddress(QUIET_DAMM_V2_CONFIG), QUIET_DAMM_V2_CONFIG, 2_500_000n, 1);
  // JitoSOL: minted by the stake pool's withdraw authority PDA; USD1: an ordinary 6-decimal SPL stablecoin.
  const withdrawAuthority = pda([keyBytes(JITO_STAKE_POOL), "withdraw"], SPL_STAKE_POOL_PROGRAM);
  book.writeMint({ address: JITOSOL_MINT, program: TOKEN_PROGRAM, decimals: 9, supply: 0n, mintAuthority: withdrawAuthority, freezeAuthority: null });
  book.writeMint({ address: USD1_MINT, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: state.key("usd1:mint-authority"), freezeAuthority: state.key("usd1:freeze-authority") });
  state.quoteSolValue.set(JITOSOL_MINT, () => Number(JITOSOL_RATE_NUM) / Number(JITOSOL_RATE_DEN) / 1e9);
  state.quoteSolValue.set(USD1_MINT, () => 1 / (ctx.solUsd * 1e6));
}

/** The mint of a quote: SOL, USDC, USD1, JitoSOL, or a catalog token's (`token:<key>`). */
export function quoteMintOf(state: WorldState, q: Quote): Pubkey {
  if (q === "SOL") return WSOL_MINT;
  if (q === "USDC") return USDC_MINT;
  if (q === "USD1") return USD1_MINT;
  if (q === "JitoSOL") return JITOSOL_MINT;
  const key = q.slice("token:".length);
  const token = [...state.tokens.values()].find((t) => t.key === key);
  if (!token) throw new Error(`quote token ${key} is not in the world (yet)`);
  return token.mint;
}

/** Quote atoms for a depth given in the quote's units for SOL and the USD stables, in SOL's worth for the others. */
export function quoteAtoms(state: WorldState, q: Quote, amount: number): bigint {
  if (q === "SOL") return BigInt(Math.floor(amount * 1e9));
  if (q === "USDC" || q === "USD1") return BigInt(Math.floor(amount * 1e6));
  const mint = quoteMintOf(state, q);
  if (q.startsWith("token:")) registerTokenQuote(state, mint);
  return state.quoteAtomsFor(mint, amount);
}

/** A catalog token used as a quote: valued at its SOL pool's price (SOL per atom) when it is first asked for. */
export function registerTokenQuote(state: WorldState, mint: Pubkey): void {
  if (state.quoteSolValue.has(mint)) return;
  const t = state.tradeables.find((x) => x.pool.baseMint === mint && x.pool.quoteMint === WSOL_MINT);
  if (!t) throw new Error(`quote token ${mint} has no SOL pool`);
  state.quoteSolValue.set(mint, () => t.venue.price(t.pool) / 1e9);
}

/**
 * Lists a genesis pool: a quiet one under its token only (not derivable from the mint, never traded); one that opens
 * later among the tradeables at weight 0 until it opens; any other at `weight`.
 */
export function listPool(state: WorldState, entry: TokenEntry, pool: PoolRef, venue: PoolVenue, weight: number, life: { quiet?: boolean; opensAfter?: number }): void {
  if (life.quiet) {
    pool.derivable = false;
    state.quietPools.push({ pool, venue });
    entry.pools.push(pool);
    if (!entry.venues.includes(pool.kind)) entry.venues.push(pool.kind);
    return;
  }
  if (life.opensAfter === undefined) return state.addPool(entry, pool, venue, weight);
  state.addPool(entry, pool, venue, 0);
  const tradeable = state.tradeables[state.tradeables.length - 1]!;
  const p = pool as PoolRef & { openTime?: bigint; activationPoint?: bigint };
  state.openings.push({
    tradeable,
    weight,
    seconds: life.opensAfter,
    setOpenTime: (time) => {
      if (p.kind === "meteora-damm-v2") p.activationPoint = BigInt(time);
      else p.openTime = BigInt(time);
      // an AMM v4 pool checks pool_open_time only while WaitingTrade (raydium-amm initialize2 sets it when the open
      // time lies ahead; the first swap after it moves the pool to SwapOnly)
      if (p.kind === "raydium-amm-v4") (p as { waitingTrade?: boolean }).waitingTrade = true;
      (venue as unknown as { write(x: PoolRef): void }).write(pool);
    },
  });
}

/** A LaunchLab token's curve (and, for a graduate, its CPMM pool at genesis). */
export function createLaunchLabCurve(state: WorldState, entry: TokenEntry, p: Extract<VenueSpec, { venue: "raydium-launchlab" }>, supply: bigint): { circulating: bigint; price: number } {
  const sol = p.quote === "SOL";
  const quoteMint = sol ? WSOL_MINT : USDC_MINT;
  const { pool, circulating } = state.launchlab.create({
    baseMint: entry.mint,
    quoteMint,
    curveType: p.curve,
    migrateType: p.migrateType,
    supply,
    totalSell: (supply * 793_100n) / 1_000_000n,
    fundRaising: sol ? 85n * LAMPORTS : 12_000n * 1_000_000n,
    virtualQuote: sol ? 30n * LAMPORTS : 4_000n * 1_000_000n,
    creator: entry.creator,
    progress: p.progress,
  });
  entry.details.curveType = String(p.curve);
  entry.details.migrateType = p.migrateType === 1 ? "raydium-cpmm" : "raydium-amm-v4";
  if (p.migrated) {
    entry.pools.push(pool);
    const amm = migrateLaunchLab(state, entry, pool);
    entry.details.migratedAtSlot = "0";
    return { circulating, price: amm.venue.price(amm.pool) };
  }
  state.addPool(entry, pool, state.launchlab, 3);
  return { circulating, price: state.launchlab.price(pool) };
}

/** The state change of a LaunchLab graduation: the AMM pool from the curve's vaults, status 2, the pool listed. */
function migrateLaunchLab(state: WorldState, entry: TokenEntry, pool: LaunchLabPool): { pool: PoolRef; venue: PoolVenue } {
  const { base, quote } = state.launchlab.migrationAmounts(pool);
  let amm: PoolRef;
  let venue: PoolVenue;
  if (pool.migrateType === 1) {
    amm = state.cpmm.create({ configIndex: 0, baseMint: pool.baseMint, quoteMint: pool.quoteMint, base, quote, creator: RAYDIUM_LAUNCHLAB_AUTHORITY });
    venue = state.cpmm;
  } else {
    amm = state.ammV4.create({ market: state.key(`openbook-market:${entry.key}`), coinMint: pool.baseMint, pcMint: pool.quoteMint, coin: base, pc: quote, owner: RAYDIUM_LAUNCHLAB_AUTHORITY });
    venue = state.ammV4;
  }
  state.launchlab.markMigrated(pool, amm.address);
  // The curve trades no more (status 2).
  for (const t of state.tradeables) if (t.pool === pool) t.weight = 0;
  state.addPool(entry, amm, venue, 2);
  entry.venues = [amm.kind];
  for (const tag of ["mid", "near-graduation", "complete"]) entry.tags.delete(tag);
  entry.tags.add("graduated");
  entry.details.migratedTo = amm.address;
  return { pool: amm, venue };
}

/**
 * A pump coin quoted in another token (`quote_mint`): the curve `progress` of the way through with its virtual and real
 * quote reserves in the quote's atoms (the SOL curve's scaled by the quote's SOL value), the quote in the curve's ATA,
 * fee accounts of the quote; listed as a "pumpfun" pool of that quote and traded with buy_exact_quote_in_v2 / sell_v2.
 */
export function createPumpQuoteCurve(state: WorldState, entry: TokenEntry, info: CoinInfo, p: Extract<VenueSpec, { venue: "pumpfun" }>): { circulating: bigint; price: number } {
  const { ctx } = state;
  const quoteMint = quoteMintOf(state, p.quote!);
  const lamportsPerAtom = 1e9 * (p.quote === "USDC" ? 1 / (ctx.solUsd * 1e6) : (registerTokenQuote(state, quoteMint), state.quoteSolValue.get(quoteMint)!()));
  const { curve, circulating } = state.pumpfun.createAtGenesis(info, p.progress);
  const scale = (x: bigint) => BigInt(Math.round(Number(x) / lamportsPerAtom));
  const quoteProgram = ctx.book.mint(quoteMint).program;
  const pool = Object.assign(curve, {
    vqr: scale(curve.vqr),
    rqr: scale(curve.rqr),
    quoteMint,
    quoteAta: ata(curve.address, quoteMint, quoteProgram),
    size: p.curveSize ?? 151,
    kind: "pumpfun",
    baseMint: info.mint,
    derivable: true,
    related: {} as Record<string, Pubkey>,
  });
  pool.related = { associatedBondingCurve: pool.ata, associatedQuoteBondingCurve: pool.quoteAta, global: pumpGlobal(), creatorVault: creatorVault(info.creator) };
  ctx.createTokenAccount(curve.address, quoteMint, pool.rqr);
  state.pumpfun.writeCurve(pool);
  state.pumpQuote.openFeeAccounts(pool);
  state.addPool(entry, pool, state.pumpQuote, 2);
  entry.venues = ["pumpfun"];
  entry.details.quoteMint = quoteMint;
  return { circulating, price: state.pumpQuote.price(pool) };
}

/** A token's Whirlpool (the adaptive one opens `adaptive.opensAfter` seconds into the run). */
export function createWhirlpool(state: WorldState, entry: TokenEntry, p: Extract<VenueSpec, { venue: "orca-whirlpool" }>, supply: bigint): { circulating: bigint; price: number } {
  const quoteMint = p.quote === "SOL" ? WSOL_MINT : p.quote === "USDC" ? USDC_MINT : p.quote === "USD1" ? USD1_MINT : JITOSOL_MINT;
  const depth = p.quote === "USDC" || p.quote === "USD1" ? BigInt(Math.floor(p.depth * 1e6)) : BigInt(Math.floor(p.depth * 1e9));
  const pool = state.whirlpool.create({
    baseMint: entry.mint,
    quoteMint,
    tickSpacing: p.tickSpacing,
    price: Number(depth) / (Number(supply) * 0.15),
    quoteDepth: depth,
    widen: 3,
    // a second position close around the price: swaps cross its ticks (the adaptive pool keeps one position)
    ...(p.adaptive ? {} : { inner: 1.02 }),
    vaultKeys: [state.key(`whirlpool-vault-a:${entry.key}`), state.key(`whirlpool-vault-b:${entry.key}`)],
    ...(p.adaptive ? { adaptive: { feeTierIndex: ADAPTIVE_FEE_TIER_INDEX, feeRate: 3000, tradeEnableTimestamp: 0 } } : {}),
  });
  if (p.adaptive) {
    state.addPool(entry, pool, state.whirlpool, 0);
    state.openings.push({
      tradeable: state.tradeables[state.tradeables.length - 1]!,
      weight: 2,
      seconds: p.adaptive.opensAfter,
      setOpenTime: (time) => {
        pool.tradeEnableTimestamp = time;
        state.whirlpool.writeOracle(pool);
      },
    });
  } else state.addPool(entry, pool, state.whirlpool, 2);
  const vault = pool.baseIsA ? pool.vaultA : pool.vaultB;
  return { circulating: supply - state.ctx.tokenAccount(vault).amount, price: state.whirlpool.price(pool) };
}

/** The quote assets' holders, their own pools (JitoSOL/SOL, USD1/USDC, and SOL/USDC on Whirlpool), the stake pool. */
export function buildExtrasPools(state: WorldState): void {
  const { ctx } = state;
  const rng = ctx.rng("extras:quotes");
  const jito = quoteToken(state, JITOSOL_MINT, "Jito Staked SOL", "JitoSOL", 9, ["quote-asset", "lst"]);
  const usd1 = quoteToken(state, USD1_MINT, "World Liberty Financial USD", "USD1", 6, ["quote-asset", "stablecoin"]);
  for (const w of [...state.whales, ...state.wallets.filter(() => rng.chance(0.3))]) {
    ctx.createTokenAccount(w, JITOSOL_MINT, BigInt(Math.floor(rng.logUniform(1, state.whales.includes(w) ? 3000 : 60) * 1e9)));
    ctx.createTokenAccount(w, USD1_MINT, BigInt(Math.floor(rng.logUniform(50, state.whales.includes(w) ? 500_000 : 20_000) * 1e6)));
  }
  const rate = Number(JITOSOL_RATE_NUM) / Number(JITOSOL_RATE_DEN);
  const jitoPool = state.whirlpool.create({
    baseMint: JITOSOL_MINT, quoteMint: WSOL_MINT, tickSpacing: 1, price: rate, quoteDepth: 30_000n * LAMPORTS, widen: 1.05,
    vaultKeys: [state.key("whirlpool-vault-a:jitosol"), state.key("whirlpool-vault-b:jitosol")],
  });
  state.addPool(jito, jitoPool, state.whirlpool, 1);
  const usd1Pool = state.whirlpool.create({
    baseMint: USD1_MINT, quoteMint: USDC_MINT, tickSpacing: 1, price: 1.0002, quoteDepth: 3_000_000n * 1_000_000n, widen: 1.05,
    vaultKeys: [state.key("whirlpool-vault-a:usd1"), state.key("whirlpool-vault-b:usd1")],
  });
  state.addPool(usd1, usd1Pool, state.whirlpool, 1);
  // USD1 also trades against USDC on a shallower Raydium CPMM pool, as on mainnet: its own price then comes from a venue
  // every deployment reads, whichever of the two is deepest where both are read.
  const usd1Cpmm = state.cpmm.create({ configIndex: 0, baseMint: USD1_MINT, quoteMint: USDC_MINT, base: 250_000n * 1_000_000n, quote: 250_060n * 1_000_000n, creator: state.key("usd1:cpmm-creator") });
  state.addPool(usd1, usd1Cpmm, state.cpmm, 1);
  const solUsdc = state.whirlpool.create({
    baseMint: WSOL_MINT, quoteMint: USDC_MINT, tickSpacing: 4, price: state.oracle.price / 1000, quoteDepth: 8_000_000n * 1_000_000n, widen: 1.3,
    vaultKeys: [state.key("whirlpool-vault-a:sol-usdc"), state.key("whirlpool-vault-b:sol-usdc")],
  });
  state.tradeables.push({ token: null, pool: solUsdc, venue: state.whirlpool, weight: 1 });
  state.solUsdcWhirlpool = solUsdc;
  for (const mint of [JITOSOL_MINT, USD1_MINT, USDC_MINT]) fixSupply(state, mint);
  writeStakePool(state, ctx.book.mint(JITOSOL_MINT).supply);
  buildQuoteCycle(state);
  jito.details.stakePool = JITO_STAKE_POOL;
  jito.details.supply = ctx.book.mint(JITOSOL_MINT).supply.toString();
  usd1.details.supply = ctx.book.mint(USD1_MINT).supply.toString();
}

/**
 * Two tokens that trade only against each other, on one Raydium CPMM pool never traded: neither has a USD price of its
 * own, so pricing either through the other is a cycle, which the service refuses (tagged `quote-cycle`, `no-usd-price`).
 */
function buildQuoteCycle(state: WorldState): void {
  const { ctx } = state;
  const rng = ctx.rng("extras:quote-cycle");
  const [a, b] = (["a", "b"] as const).map((side) => {
    const mint = state.key(`quote-cycle-${side}:mint`);
    const symbol = `CYC${side.toUpperCase()}`;
    const creator = state.key(`creator:${symbol}`);
    ctx.book.writeMint({ address: mint, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: null, freezeAuthority: null });
    const entry = state.newToken({ key: symbol.toLowerCase(), mint, name: `Cycle ${side.toUpperCase()}`, symbol, decimals: 6, tokenProgram: TOKEN_PROGRAM, creator, venues: [], details: {} }, ["pool", "quote-cycle", "no-usd-price"]);
    state.tokens.set(mint, entry);
    // Metadata like any world token's: a Metaplex account on chain, its JSON on the world's metadata server.
    state.registerMetadata(entry, { shape: "top-level", broken: null }, rng);
    ctx.store.putRentExempt(
      metaplexMetadataAddress(mint),
      METAPLEX_PROGRAM,
      encodeMetaplexMetadata({
        updateAuthority: creator, mint, name: entry.name, symbol, uri: entry.metadataUri!, sellerFeeBasisPoints: 0,
        creators: [{ address: creator, verified: true, share: 100 }], primarySaleHappened: false, isMutable: false, editionNonce: 254, tokenStandard: 2,
      }),
    );
    return entry;
  }) as [TokenEntry, TokenEntry];
  const pool = state.cpmm.create({ configIndex: 0, baseMint: a.mint, quoteMint: b.mint, base: 4_000_000n * 1_000_000n, quote: 9_000_000n * 1_000_000n, creator: state.key("quote-cycle:creator") });
  state.addPool(a, pool, state.cpmm, 0);
  b.pools.push(pool);
  b.venues.push(pool.kind);
  for (const t of [a, b]) fixSupply(state, t.mint);
}

/** A manifest entry for a mainnet quote asset (its metadata lives off the world's metadata server: no URI). */
function quoteToken(state: WorldState, mint: Pubkey, name: string, symbol: string, decimals: number, tags: string[]): TokenEntry {
  const entry = state.newToken({ key: symbol.toLowerCase(), mint, name, symbol, decimals, tokenProgram: TOKEN_PROGRAM, creator: state.key(`creator:${symbol}`), venues: [], details: {} }, tags);
  entry.metadataUri = null;
  state.tokens.set(mint, entry);
  return entry;
}

/** Token-account sums are the supply of mints whose accounts the world wrote directly. */
function fixSupply(state: WorldState, mint: Pubkey): void {
  const { book } = state.ctx;
  const m = book.mint(mint);
  let sum = 0n;
  for (const a of book.holdersOf(mint)) sum += a.amount + (a.withheld ?? 0n);
  m.supply = sum;
  book.writeMint(m);
}

/**
 * The SPL stake pool behind JitoSOL (solana-program/stake-pool `state.rs` StakePool, borsh): account_type @0 (1),
 * manager @1, staker @33, stake_deposit_authority @65, stake_withdraw_bump_seed @97, validator_list @98,
 * reserve_stake @130, pool_mint @162, manager_fee_account @194, token_program_id @226, total_lamports u64 @258,
 * pool_token_supply u64 @266, last_update_epoch u64 @274; the rate is total_lamports / pool_token_supply.
 */
function writeStakePool(state: WorldState, supply: bigint): void {
  const [, bump] = findPda([keyBytes(JITO_STAKE_POOL), "withdraw"], SPL_STAKE_POOL_PROGRAM);
  const data = new FixedWriter(STAKE_POOL_SIZE)
    .u8(0, 1)
    .pubkey(1, state.key("jito:manager"))
    .pubkey(33, state.key("jito:staker"))
    .pubkey(65, pda([keyBytes(JITO_STAKE_POOL), "deposit"], SPL_STAKE_POOL_PROGRAM))
    .u8(97, bump)
    .pubkey(98, state.key("jito:validator-list"))
    .pubkey(130, state.key("jito:reserve-stake"))
    .pubkey(162, JITOSOL_MINT)
    .pubkey(194, ata(state.key("jito:manager"), JITOSOL_MINT, TOKEN_PROGRAM))
    .pubkey(226, TOKEN_PROGRAM)
    .u64(258, (supply * JITOSOL_RATE_NUM) / JITOSOL_RATE_DEN)
    .u64(266, supply)
    .u64(274, BigInt(Math.floor(state.ctx.clock.slot / 432000))).bytes;
  state.ctx.store.putRentExempt(JITO_STAKE_POOL, SPL_STAKE_POOL_PROGRAM, data);
}

/** Writes the openings' activations relative to the chain's genesis time (so they open during the run). */
export function timeOpenings(state: WorldState, genesisTime: number): void {
  for (const o of state.openings) o.setOpenTime(genesisTime + o.seconds);
}

/** The extras edition's slot life: openings, LaunchLab graduations, Whirlpool two-hop swaps, multi-signer swaps. */
export class ExtrasLife {
  private readonly rng: Rng;
  private readonly opened = new Set<Opening>();
  constructor(private readonly state: WorldState) {
    this.rng = state.ctx.rng("extras:life");
  }

  produce(slot: number, run: (d: Draft | null) => void, planned: (plan: () => Draft | null) => Draft | null): void {
    const { state, rng } = this;
    const now = state.ctx.clock.blockTime;
    if (state.reopenRequest !== null) {
      for (const o of state.openings) {
        o.setOpenTime(now + state.reopenRequest);
        this.opened.delete(o);
        o.tradeable.weight = 0;
      }
      state.reopenRequest = null;
    }
    for (const o of state.openings) {
      if (this.opened.has(o) || now < openTimeOf(o)) continue;
      this.opened.add(o);
      o.tradeable.weight = o.weight;
      const pool = o.tradeable.pool as PoolRef & { waitingTrade?: boolean };
      if (pool.waitingTrade) {
        // open now: SwapOnly from here on (the program makes that change on the pool's first swap after opening)
        pool.waitingTrade = false;
        (o.tradeable.venue as unknown as { write(x: PoolRef): void }).write(pool);
      }
    }
    for (const t of [...state.tokens.values()]) {
      const ll = t.pools.find((p): p is LaunchLabPool => p.kind === "raydium-launchlab" && (p as LaunchLabPool).status !== 2) as LaunchLabPool | undefined;
      if (!ll) continue;
      if (ll.status === 1 && !t.tags.has("complete")) {
        for (const x of state.tradeables) if (x.pool === ll) x.weight = 0;
        t.tags.add("complete");
        t.details.completedAtSlot = String(ll.completedAtSlot);
      }
      if (ll.status === 1 && ll.completedAtSlot !== null && ll.completedAtSlot < slot) run(planned(() => this.migrationTx(t, ll)));
    }
    if (rng.chance(0.35)) run(planned(() => this.twoHopTx(rng)));
    if (rng.chance(0.35)) run(planned(() => this.multiSignerTx(rng)));
  }

  /** migrate_to_cpswap / migrate_to_amm: the curve's vaults into its AMM pool, by Raydium's migration wallet. */
  private migrationTx(entry: TokenEntry, pool: LaunchLabPool): Draft {
    const { state } = this;
    const { ctx } = state;
    const payer = state.key("raydium:launchlab-migrator");
    if (ctx.store.lamports(payer) < 10n * LAMPORTS) ctx.store.put(payer, SYSTEM_PROGRAM, new Uint8Array(0), 1_000n * LAMPORTS);
    const d = new Draft(ctx, payer, 400_000, 100_000n, 0);
    const { base, quote } = state.launchlab.migrationAmounts(pool);
    const baseMint = ctx.book.mint(pool.baseMint);
    const quoteMint = ctx.book.mint(pool.quoteMint);
    const cpmm = pool.migrateType === 1;
    const moves = [
      { cpi: tokenTransferChecked(baseMint.program, pool.baseVault, baseMint.address, ata(RAYDIUM_LAUNCHLAB_AUTHORITY, baseMint.address, baseMint.program), RAYDIUM_LAUNCHLAB_AUTHORITY, base, baseMint.decimals) },
      { cpi: tokenTransferChecked(quoteMint.program, pool.quoteVault, quoteMint.address, ata(RAYDIUM_LAUNCHLAB_AUTHORITY, quoteMint.address, quoteMint.program), RAYDIUM_LAUNCHLAB_AUTHORITY, quote, quoteMint.decimals) },
    ];
    const ix: Ix = {
      program: RAYDIUM_LAUNCHLAB_PROGRAM,
      accounts: cpmm ? migrateToCpswapAccounts(state, pool, payer, baseMint.program, quoteMint.program) : migrateToAmmAccounts(state, entry, pool, payer, baseMint.program, quoteMint.program),
      data: anchor(cpmm ? "migrate_to_cpswap" : "migrate_to_amm"),
      steps: [{ log: cpmm ? "Instruction: MigrateToCpswap" : "Instruction: MigrateToAmm" }, ...moves],
      cu: 220_000,
    };
    d.add(ix, () =>
      ctx.store.payFor(payer, () => {
        migrateLaunchLab(state, entry, pool);
        entry.details.migratedAtSlot = String(ctx.clock.slot);
      }),
    );
    return d;
  }

  /** A twoHopSwap(V2) selling a Whirlpool token for USDC through SOL (token/SOL then SOL/USDC), one trade per hop. */
  private twoHopTx(rng: Rng): Draft | null {
    const { state } = this;
    const { ctx } = state;
    const one = state.tradeables.find((t) => t.pool.kind === "orca-whirlpool" && t.weight > 0 && t.token?.key === "whirlpool-0")?.pool as Whirlpool | undefined;
    const two = state.solUsdcWhirlpool;
    if (!one || !two) return null;
    const seller = [...ctx.book.holdersOf(one.baseMint)].find((a) => a.amount > 0n && a.delegate === null && state.wallets.includes(a.owner) && rng.chance(0.2));
    if (!seller || ctx.store.lamports(seller.owner) < 50_000_000n) return null;
    const wallet = seller.owner;
    const amount = seller.amount / BigInt(rng.int(2, 10));
    if (amount <= 0n) return null;
    const { cuLimit, cuPrice, version } = txShape(rng);
    const d = new Draft(ctx, wallet, cuLimit, cuPrice, version);
    const intermediate = d.wrapSol(wallet, 0n);
    const output = d.ensureAta(wallet, USDC_MINT);
    const aToBOne = one.mintA === one.baseMint; // selling the token: token → SOL
    const aToBTwo = two.mintA === WSOL_MINT; // then SOL → USDC
    let mid = 0n;
    let out = 0n;
    const marks: (() => void)[] = [];
    const res = state.whirlpool.twoHop(
      d,
      { one, two, aToBOne, aToBTwo },
      wallet,
      amount,
      { input: seller.address, intermediate, output },
      rng.chance(0.5),
      (hop, apply) => {
        const pool = hop === 0 ? one : two;
        marks.push(() => {
          trackSwap(ctx, d, poolTarget(pool), wallet, () => (d.onApply(apply), true), () =>
            hop === 0 ? { inMint: one.baseMint, inAmount: amount, outMint: WSOL_MINT, outAmount: mid } : { inMint: WSOL_MINT, inAmount: mid, outMint: USDC_MINT, outAmount: out },
          );
        });
      },
    );
    if (!res) return null;
    ({ mid, out } = res);
    for (const m of marks) m();
    d.unwrapSol(wallet);
    return d;
  }

  /** Two or three signers each buying on the same SOL pool in one transaction (the first pays the fee). */
  private multiSignerTx(rng: Rng): Draft | null {
    const { state } = this;
    const { ctx } = state;
    const pools = state.tradeables.filter((t) => t.weight > 0 && t.token && t.pool.quoteMint === WSOL_MINT && t.pool.kind !== "raydium-launchlab");
    if (pools.length === 0) return null;
    const t: Tradeable = rng.pick(pools);
    const signers = rng.shuffle([...state.activeTraders]).filter((w) => ctx.store.lamports(w) > 2n * LAMPORTS).slice(0, rng.int(2, 3));
    if (signers.length < 2) return null;
    const { cuPrice } = txShape(rng);
    const d = new Draft(ctx, signers[0]!, 600_000, cuPrice, 0);
    for (const wallet of signers) {
      const amount = BigInt(Math.floor(rng.logUniform(0.02, 0.8) * 1e9));
      const wsol = d.wrapSol(wallet, amount);
      const userBase = d.ensureAta(wallet, t.pool.baseMint);
      if (!trackPoolSwap(state, d, t.pool, t.venue, wallet, "buy", amount, userBase, wsol, false)) return null;
      d.unwrapSol(wallet);
    }
    return d;
  }
}

type Opening = WorldState["openings"][number];

/** An opening's time as its pool carries it now. */
function openTimeOf(o: Opening): number {
  const p = o.tradeable.pool as PoolRef & { openTime?: bigint; activationPoint?: bigint; tradeEnableTimestamp?: number | null };
  if (p.kind === "orca-whirlpool") return p.tradeEnableTimestamp ?? 0;
  if (p.kind === "meteora-damm-v2") return Number(p.activationPoint ?? 0n);
  return Number(p.openTime ?? 0n);
}

/**
 * The accounts of migrate_to_cpswap in the raydium_launchpad 0.2.0 IDL's order (20): payer 0, base/quote mint 1/2,
 * platform_config 3, cpswap_program 4, cpswap_pool 5, cpswap_authority 6, cpswap_lp_mint 7, cpswap base/quote vault 8/9
 * (the new pool's vault of each mint), cpswap_config 10, cpswap_create_pool_fee 11, cpswap_observation 12, the lock
 * accounts 13–15, authority 16, the curve's base vault 17, pool_state 18, global_config 19, then the curve's quote
 * vault and the programs. The new pool's keys are derived as its create derives them. (Only the positions an indexer
 * reads are checked against that IDL; the others are in its order.)
 */
function migrateToCpswapAccounts(state: WorldState, pool: LaunchLabPool, payer: Pubkey, baseProgram: Pubkey, quoteProgram: Pubkey): Ix["accounts"] {
  const keys = raydiumPoolKeys(RAYDIUM_CPMM_PROGRAM, cpmmConfigAddress(0), pool.baseMint, pool.quoteMint);
  const [baseVault, quoteVault] = keys.baseIs0 ? [keys.vault0, keys.vault1] : [keys.vault1, keys.vault0];
  const lock = state.key("raydium:lp-lock");
  return [
    ws(payer), r(pool.baseMint), r(pool.quoteMint), r(RAYDIUM_LAUNCHLAB_PLATFORM), r(RAYDIUM_CPMM_PROGRAM),
    w(keys.address), r(RAYDIUM_CPMM_AUTHORITY), w(pda(["pool_lp_mint", keyBytes(keys.address)], RAYDIUM_CPMM_PROGRAM)), w(baseVault), w(quoteVault),
    r(cpmmConfigAddress(0)), w(CPMM_CREATE_POOL_FEE_RECEIVER), w(keys.observation), r(lock), r(lock), w(lock),
    r(RAYDIUM_LAUNCHLAB_AUTHORITY), w(pool.baseVault), w(pool.address), r(pool.globalConfig),
    w(pool.quoteVault), r(baseProgram), r(quoteProgram), r(SYSTEM_PROGRAM),
  ];
}

/**
 * The accounts of migrate_to_amm in the raydium_launchpad 0.2.0 IDL's order (25): payer 0, base/quote mint 1/2, the
 * OpenBook program and market accounts 3–11, amm_program 12, amm_pool 13, amm authority 14, open orders 15, lp mint 16,
 * amm base/quote (coin/pc) vault 17/18, target orders 19, amm config 20, create fee 21, authority 22, pool_state 23,
 * global_config 24, then the curve's vaults and the programs. The new pool's keys are derived from its market as its
 * create derives them. (Only the positions an indexer reads are checked against that IDL; the others are in its order.)
 */
function migrateToAmmAccounts(state: WorldState, entry: TokenEntry, pool: LaunchLabPool, payer: Pubkey, baseProgram: Pubkey, quoteProgram: Pubkey): Ix["accounts"] {
  const market = state.key(`openbook-market:${entry.key}`);
  const book = (what: string) => r(state.key(`openbook:${what}:${entry.key}`));
  return [
    ws(payer), r(pool.baseMint), r(pool.quoteMint),
    book("program"), w(market), book("request-queue"), book("event-queue"), book("bids"), book("asks"), book("vault-signer"), book("base-vault"), book("quote-vault"), r(RAYDIUM_AMM_V4_PROGRAM),
    w(ammV4Address(market)), r(state.key("raydium:amm-authority")), w(ammV4Associated(market, "open_order_associated_seed")), w(ammV4Associated(market, "lp_mint_associated_seed")),
    w(ammV4Associated(market, "coin_vault_associated_seed")), w(ammV4Associated(market, "pc_vault_associated_seed")), w(ammV4Associated(market, "target_associated_seed")),
    r(state.key("raydium:amm-config")), w(state.key("raydium:amm-create-fee")), r(RAYDIUM_LAUNCHLAB_AUTHORITY), w(pool.address), r(pool.globalConfig),
    w(pool.baseVault), w(pool.quoteVault), r(baseProgram), r(quoteProgram), r(SYSTEM_PROGRAM),
  ];
}
