/**
 * A genesis token's pools: its primary pool on any venue but pump.fun / PumpSwap (which genesis-tokens.ts builds from
 * the curve), and further pools at the primary pool's price (DLMM, DAMM v2, the DBC graduate's DAMM v2 pool).
 */
import type { Pubkey } from "../chain/types.js";
import type { DammV2FeeMode, VenueSpec } from "./catalog.js";
import { DAMM_V2_MIGRATION_CONFIG_25BPS, DBC_POOL_AUTHORITY, SYSTEM_PROGRAM, WSOL_MINT } from "./programs.js";
import { createLaunchLabCurve, createWhirlpool, listPool, quoteAtoms, quoteMintOf } from "./world-extras.js";
import { DAMM_V2_BIN_STEP_Q64, dammV2ConfigAddress, type DammV2FeeSetup } from "./venues/meteora-damm-v2.js";
import { LAMPORTS, type TokenEntry, type WorldState } from "./world-state.js";

/**
 * A DAMM v2 fee setup at genesis time `now`: compounding keeps half the LP fee; the scheduler falls linearly from 5 % by
 * 0.03 % every 30 s for an hour; the dynamic fee starts from a volatility accumulator as a busy pool leaves it; the rate
 * limiter (for 12 h) charges 1 % up to 0.5 SOL and 0.1 % more per further 0.5 SOL, up to 50 %.
 */
function dammV2Fees(mode: DammV2FeeMode | undefined, now: number): DammV2FeeSetup | undefined {
  switch (mode) {
    case "compounding":
      return { compoundingBps: 5000n };
    case "scheduler":
      return { base: { kind: "linear", cliff: 50_000_000n, periods: 120n, frequency: 30n, reduction: 300_000n } };
    case "dynamic":
      return {
        dynamic: { binStep: 1n, binStepQ64: DAMM_V2_BIN_STEP_Q64, filterPeriod: 10n, decayPeriod: 120n, reductionFactor: 5000n, maxAccumulator: 14_460_000n, variableFeeControl: 2000n, lastUpdate: BigInt(now), sqrtReference: 0n, accumulator: 8_000_000n, reference: 0n },
      };
    case "rate-limiter":
      return { base: { kind: "rate-limiter", cliff: 10_000_000n, incrementBps: 10n, duration: 43_200n, maxFeeBps: 5000n, reference: LAMPORTS / 2n } };
    default:
      return undefined;
  }
}

/** Pools with a fee schedule open shortly before genesis, so the schedule is under way while the world runs. */
const SCHEDULE_OPENED_AGO = 60;
/**
 * The fee and curve setup pools (compounding, schedulers, dynamic fee, rate limiter, stable curve) are tradeables of
 * weight 0: the random traffic never picks them, so it stays the traffic every other test was written against, and
 * their state stays as genesis wrote it (a dynamic fee's accumulator included); simulate-swap runs their swaps.
 */
const SETUP_WEIGHT = 0;

/** Creates the token's main pool; returns the tokens left for holders and the pool price (quote atoms per base atom). */
export function createPrimaryPool(state: WorldState, entry: TokenEntry, p: VenueSpec, supply: bigint): { circulating: bigint; price: number } {
  const mint = entry.mint;
  const owner = entry.creator;
  switch (p.venue) {
    case "raydium-amm-v4": {
      const base = BigInt(Math.floor(Number(supply) * p.poolShare));
      const quote = quoteAtoms(state, p.quote, p.depth);
      const pool = state.ammV4.create({
        market: state.key(`openbook-market:${entry.key}`),
        coinMint: mint,
        pcMint: quoteMintOf(state, p.quote),
        coin: base,
        pc: quote,
        owner,
        ...(p.needTakePnl ? { needTakePnl: [base / 100_000n, quote / 100_000n] as [bigint, bigint] } : {}),
      });
      if (p.needTakePnl) entry.details.needTakePnl = `${pool.needTakePnlCoin}/${pool.needTakePnlPc}`;
      listPool(state, entry, pool, state.ammV4, 2, p);
      return { circulating: supply - state.ctx.tokenAccount(pool.coinVault).amount, price: state.ammV4.price(pool) };
    }
    case "raydium-cpmm": {
      const base = BigInt(Math.floor(Number(supply) * p.poolShare));
      const pool = state.cpmm.create({ configIndex: p.config, baseMint: mint, quoteMint: quoteMintOf(state, p.quote), base, quote: quoteAtoms(state, p.quote, p.depth), creator: owner });
      listPool(state, entry, pool, state.cpmm, 2, p);
      return { circulating: supply - base, price: state.cpmm.price(pool) };
    }
    case "raydium-clmm": {
      const depth = quoteAtoms(state, p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const pool = state.clmm.create({ configIndex: p.config, baseMint: mint, quoteMint: quoteMintOf(state, p.quote), price, quoteDepth: depth, widen: 3, creator: owner });
      state.addPool(entry, pool, state.clmm, 2);
      const vault = pool.baseIs0 ? pool.vault0 : pool.vault1;
      return { circulating: supply - state.ctx.tokenAccount(vault).amount, price: state.clmm.price(pool) };
    }
    case "meteora-dlmm": {
      const depth = quoteAtoms(state, p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const pair = state.dlmm.create({ baseMint: mint, quoteMint: quoteMintOf(state, p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), ...(p.limitOrders ? { limitOrders: p.limitOrders } : {}), price, quoteDepth: depth, bins: 30, creator: owner });
      state.addPool(entry, pair, state.dlmm, p.limitOrders ? SETUP_WEIGHT : 2);
      const reserve = pair.baseIsX ? pair.reserveX : pair.reserveY;
      return { circulating: supply - state.ctx.tokenAccount(reserve).amount, price: state.dlmm.price(pair) };
    }
    case "meteora-damm-v1": {
      const quote = quoteAtoms(state, p.quote, p.depth);
      // a stable pool of a dollar token holds as many tokens as dollars, a little more (its price just under par)
      const base = p.stableAmp ? (quote * 101n) / 100n : BigInt(Math.floor(Number(supply) * p.poolShare));
      const stable = p.stableAmp ? { amp: BigInt(p.stableAmp), multiplierA: 1n, multiplierB: 1n } : undefined;
      const pool = state.dammV1.create({ baseMint: mint, quoteMint: quoteMintOf(state, p.quote), base, quote, creator: owner, ...(stable ? { stable } : {}) });
      if (stable) pool.derivable = false;
      state.addPool(entry, pool, state.dammV1, stable ? SETUP_WEIGHT : 2);
      return { circulating: supply - base, price: state.dammV1.price(pool) };
    }
    case "meteora-damm-v2": {
      const depth = quoteAtoms(state, p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const fees = dammV2Fees(p.fees, state.ctx.clock.blockTime);
      const pool = state.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: [2_500_000n, 10_000_000n, 5_000_000n][p.config] ?? 2_500_000n, baseMint: mint, quoteMint: quoteMintOf(state, p.quote), price, quoteDepth: depth, creator: owner, concentrated: !!p.concentrated, ...(fees ? { fees } : {}) });
      listPool(state, entry, pool, state.dammV2, fees ? SETUP_WEIGHT : 2, p);
      return { circulating: supply - state.ctx.tokenAccount(pool.vaultA).amount, price: state.dammV2.price(pool) };
    }
    case "meteora-dbc": {
      const decimals = entry.decimals;
      const perToken = 10 ** decimals;
      const config = state.dbc.makeConfig(state.key(`dbc-config:${entry.key}`), {
        quoteMint: WSOL_MINT,
        feeClaimer: state.key(`dbc-partner:${entry.key}`),
        startPrice: (2.8e-8 * 1e9) / perToken,
        migrationPrice: (4e-7 * 1e9) / perToken,
        threshold: 85n * LAMPORTS,
        // a scheduled fee starts at 10 % and falls 2 % a minute (exponential) for two hours
        feeNumerator: p.feeScheduler ? 100_000_000n : 10_000_000n,
        tokenDecimals: decimals,
        ...(p.feeScheduler ? { scheduler: { kind: "exponential" as const, periods: 120n, frequency: 60n, reduction: 200n } } : {}),
      });
      const { pool, sold } = state.dbc.create({ config, baseMint: mint, creator: owner, baseSupplyInPool: supply, progress: p.progress, ...(p.migrated ? { migrated: true } : {}) });
      if (p.feeScheduler) {
        // the config's schedule counts from the pool's activation: just before the chain's genesis time
        state.scheduleStarts.push((genesisTime) => {
          pool.activationPoint = BigInt(genesisTime - SCHEDULE_OPENED_AGO);
          state.dbc.write(pool);
        });
      }
      entry.pools.push(pool);
      entry.venues.push("meteora-dbc");
      // A quiet curve is listed (above) and never traded.
      if (p.quiet) state.quietPools.push({ pool, venue: state.dbc });
      if (!p.migrated && !p.quiet) state.tradeables.push({ token: entry, pool, venue: state.dbc, weight: p.feeScheduler ? SETUP_WEIGHT : 2 });
      else entry.venues = [];
      return { circulating: p.migrated ? supply : sold, price: state.dbc.price(pool) };
    }
    case "raydium-launchlab":
      return createLaunchLabCurve(state, entry, p, supply);
    case "orca-whirlpool":
      return createWhirlpool(state, entry, p, supply);
    default:
      throw new Error(`unexpected primary venue ${p.venue}`);
  }
}

/** Creates a further pool of an existing token at `price`; returns the base tokens it took from the circulating supply. */
export function createExtraPool(state: WorldState, entry: TokenEntry, p: VenueSpec, price: number): bigint {
  const mint = entry.mint;
  const owner = state.key(`lp:${entry.key}:${p.venue}`);
  state.ctx.store.put(owner, SYSTEM_PROGRAM, new Uint8Array(0), 3n * LAMPORTS);
  switch (p.venue) {
    case "meteora-dlmm": {
      const pair = state.dlmm.create({ baseMint: mint, quoteMint: quoteMintOf(state, p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), ...(p.limitOrders ? { limitOrders: p.limitOrders } : {}), price, quoteDepth: quoteAtoms(state, p.quote, p.depth), bins: 30, creator: owner });
      state.addPool(entry, pair, state.dlmm, p.limitOrders ? SETUP_WEIGHT : 1);
      return state.ctx.tokenAccount(pair.baseIsX ? pair.reserveX : pair.reserveY).amount;
    }
    case "meteora-damm-v2": {
      if (p.config === -1) {
        // DBC graduate: DAMM v2 pool at the FixedBps25 migration config, created by the DBC pool authority.
        const dbcPool = entry.pools.find((x) => x.kind === "meteora-dbc")!;
        const pool = state.dammV2.create({ config: DAMM_V2_MIGRATION_CONFIG_25BPS, feeNumerator: 2_500_000n, baseMint: mint, quoteMint: WSOL_MINT, price: state.dbc.price(dbcPool as never), quoteDepth: 84n * LAMPORTS, creator: DBC_POOL_AUTHORITY });
        state.addPool(entry, pool, state.dammV2, 2);
        entry.details.migratedFrom = dbcPool.address;
        return state.ctx.tokenAccount(pool.vaultA).amount;
      }
      const fees = dammV2Fees(p.fees, state.ctx.clock.blockTime);
      const pool = state.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: 2_500_000n, baseMint: mint, quoteMint: quoteMintOf(state, p.quote), price, quoteDepth: quoteAtoms(state, p.quote, p.depth), creator: owner, ...(fees ? { fees } : {}) });
      if (fees) {
        // schedules count from the chain's genesis time; the dynamic fee's last update is genesis
        state.scheduleStarts.push((genesisTime) => {
          if (fees.base && fees.base.kind !== "fixed") pool.activationPoint = BigInt(genesisTime - SCHEDULE_OPENED_AGO);
          if (pool.dynamic) pool.dynamic.lastUpdate = BigInt(genesisTime);
          state.dammV2.write(pool);
        });
      }
      state.addPool(entry, pool, state.dammV2, p.idle ? 0 : fees ? SETUP_WEIGHT : 1);
      return state.ctx.tokenAccount(pool.vaultA).amount;
    }
    default:
      throw new Error(`unsupported extra venue ${p.venue}`);
  }
}
