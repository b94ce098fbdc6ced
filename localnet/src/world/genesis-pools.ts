/**
 * A genesis token's pools: its primary pool on any venue but pump.fun / PumpSwap (which genesis-tokens.ts builds from
 * the curve), and further pools at the primary pool's price (DLMM, DAMM v2, the DBC graduate's DAMM v2 pool).
 */
import type { Pubkey } from "../chain/types.js";
import type { VenueSpec } from "./catalog.js";
import { DAMM_V2_MIGRATION_CONFIG_25BPS, DBC_POOL_AUTHORITY, SYSTEM_PROGRAM, USDC_MINT, WSOL_MINT } from "./programs.js";
import { dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import { LAMPORTS, type TokenEntry, type WorldState } from "./world-state.js";

function quoteMintOf(q: "SOL" | "USDC"): Pubkey {
  return q === "SOL" ? WSOL_MINT : USDC_MINT;
}

/** Quote atoms for a depth given in SOL or USDC. */
function quoteAtoms(q: "SOL" | "USDC", amount: number): bigint {
  return q === "SOL" ? BigInt(Math.floor(amount * 1e9)) : BigInt(Math.floor(amount * 1e6));
}

/** Creates the token's main pool; returns the tokens left for holders and the pool price (quote atoms per base atom). */
export function createPrimaryPool(state: WorldState, entry: TokenEntry, p: VenueSpec, supply: bigint): { circulating: bigint; price: number } {
  const mint = entry.mint;
  const owner = entry.creator;
  switch (p.venue) {
    case "raydium-amm-v4": {
      const base = BigInt(Math.floor(Number(supply) * p.poolShare));
      const quote = quoteAtoms(p.quote, p.depth);
      const pool = state.ammV4.create({
        market: state.key(`openbook-market:${entry.key}`),
        coinMint: mint,
        pcMint: quoteMintOf(p.quote),
        coin: base,
        pc: quote,
        owner,
        ...(p.needTakePnl ? { needTakePnl: [base / 100_000n, quote / 100_000n] as [bigint, bigint] } : {}),
      });
      if (p.needTakePnl) entry.details.needTakePnl = `${pool.needTakePnlCoin}/${pool.needTakePnlPc}`;
      state.addPool(entry, pool, state.ammV4, 2);
      return { circulating: supply - state.ctx.tokenAccount(pool.coinVault).amount, price: state.ammV4.price(pool) };
    }
    case "raydium-cpmm": {
      const base = BigInt(Math.floor(Number(supply) * p.poolShare));
      const pool = state.cpmm.create({ configIndex: p.config, baseMint: mint, quoteMint: quoteMintOf(p.quote), base, quote: quoteAtoms(p.quote, p.depth), creator: owner });
      state.addPool(entry, pool, state.cpmm, 2);
      return { circulating: supply - base, price: state.cpmm.price(pool) };
    }
    case "raydium-clmm": {
      const depth = quoteAtoms(p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const pool = state.clmm.create({ configIndex: p.config, baseMint: mint, quoteMint: quoteMintOf(p.quote), price, quoteDepth: depth, widen: 3, creator: owner });
      state.addPool(entry, pool, state.clmm, 2);
      const vault = pool.baseIs0 ? pool.vault0 : pool.vault1;
      return { circulating: supply - state.ctx.tokenAccount(vault).amount, price: state.clmm.price(pool) };
    }
    case "meteora-dlmm": {
      const depth = quoteAtoms(p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const pair = state.dlmm.create({ baseMint: mint, quoteMint: quoteMintOf(p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), price, quoteDepth: depth, bins: 30, creator: owner });
      state.addPool(entry, pair, state.dlmm, 2);
      const reserve = pair.baseIsX ? pair.reserveX : pair.reserveY;
      return { circulating: supply - state.ctx.tokenAccount(reserve).amount, price: state.dlmm.price(pair) };
    }
    case "meteora-damm-v1": {
      const base = BigInt(Math.floor(Number(supply) * p.poolShare));
      const pool = state.dammV1.create({ baseMint: mint, quoteMint: quoteMintOf(p.quote), base, quote: quoteAtoms(p.quote, p.depth), creator: owner });
      state.addPool(entry, pool, state.dammV1, 2);
      return { circulating: supply - base, price: state.dammV1.price(pool) };
    }
    case "meteora-damm-v2": {
      const depth = quoteAtoms(p.quote, p.depth);
      const price = Number(depth) / (Number(supply) * 0.15);
      const pool = state.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: [2_500_000n, 10_000_000n, 5_000_000n][p.config]!, baseMint: mint, quoteMint: quoteMintOf(p.quote), price, quoteDepth: depth, creator: owner, concentrated: !!p.concentrated });
      state.addPool(entry, pool, state.dammV2, 2);
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
        feeNumerator: 10_000_000n,
        tokenDecimals: decimals,
      });
      const { pool, sold } = state.dbc.create({ config, baseMint: mint, creator: owner, baseSupplyInPool: supply, progress: p.progress, ...(p.migrated ? { migrated: true } : {}) });
      entry.pools.push(pool);
      entry.venues.push("meteora-dbc");
      if (!p.migrated) state.tradeables.push({ token: entry, pool, venue: state.dbc, weight: 2 });
      else entry.venues = [];
      return { circulating: p.migrated ? supply : sold, price: state.dbc.price(pool) };
    }
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
      const pair = state.dlmm.create({ baseMint: mint, quoteMint: quoteMintOf(p.quote), binStep: p.binStep, baseFactor: p.baseFactor, ...(p.preset !== undefined ? { preset: p.preset } : {}), price, quoteDepth: quoteAtoms(p.quote, p.depth), bins: 30, creator: owner });
      state.addPool(entry, pair, state.dlmm, 1);
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
      const pool = state.dammV2.create({ config: dammV2ConfigAddress(BigInt(p.config)), feeNumerator: 2_500_000n, baseMint: mint, quoteMint: quoteMintOf(p.quote), price, quoteDepth: quoteAtoms(p.quote, p.depth), creator: owner });
      state.addPool(entry, pool, state.dammV2, p.idle ? 0 : 1);
      return state.ctx.tokenAccount(pool.vaultA).amount;
    }
    default:
      throw new Error(`unsupported extra venue ${p.venue}`);
  }
}
