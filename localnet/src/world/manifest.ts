/**
 * What the world reports of itself: the manifest (`GET /__localnet/world`; tokens, pools, well-known accounts, wallets)
 * that tests and the README read, and the world's own price of a pool, for tests.
 */
import type { Pubkey } from "../chain/types.js";
import {
  DAMM_V2_MIGRATION_CONFIG_25BPS,
  INCINERATOR,
  JITO_STAKE_POOL,
  JITOSOL_MINT,
  ORCA_WHIRLPOOLS_CONFIG,
  RAYDIUM_LAUNCHLAB_PLATFORM,
  USD1_MINT,
  PUMP_WITHDRAW_AUTHORITY,
  PYTH_SOL_USD,
  USDC_MINT,
  USDT_MINT,
  WSOL_MINT,
} from "./programs.js";
import { dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import { pumpGlobal } from "./venues/pumpfun.js";
import { venueOfKind } from "./venues/index.js";
import { pumpSwapGlobalConfig } from "./venues/pumpswap.js";
import type { Activation } from "./venues/types.js";
import type { WorldState } from "./world-state.js";

/** One token of the world, as the test suite and the README see it. */
export interface WorldToken {
  mint: Pubkey;
  name: string;
  symbol: string;
  decimals: number;
  tokenProgram: Pubkey;
  /** Where it trades now: pumpfun | pumpswap | raydium-amm-v4 | raydium-cpmm | raydium-clmm | meteora-dlmm | meteora-damm-v1 | meteora-damm-v2 | meteora-dbc | raydium-launchlab | orca-whirlpool (venues/index.ts) */
  venues: string[];
  pools: WorldPool[];
  metadataUri: string | null;
  /** e.g. "fresh", "near-graduation", "complete", "graduated", "pool", "token-2022", "broken-metadata:404" */
  tags: string[];
  /** Optional facts about the token as strings (supply, burned, incinerated, creator, delegatedAccount, …). */
  details?: Record<string, string>;
}

export interface WorldPool {
  kind: string; // same words as WorldToken.venues
  address: Pubkey;
  baseMint: Pubkey;
  quoteMint: Pubkey;
  /** Accounts a pricer must read besides the pool itself (vaults, etc.), for reference in tests. */
  related: Record<string, Pubkey>;
  /** true when the pool address can be derived from the mint alone (PDA over known seeds/configs). */
  derivable: boolean;
  /**
   * When the pool's program first lets it trade, as the pool's accounts say (unix time or slot; null: the venue has no
   * such gate). A time ahead of the chain's block time means the program refuses swaps until then.
   */
  activation: Activation | null;
}

export interface WorldManifest {
  seed: number;
  tokens: WorldToken[];
  wellKnown: Record<string, Pubkey>; // pythSolUsd, wsol, usdc, usdt, solUsdcPool, ...
  wallets: { whales: Pubkey[]; delegates: Pubkey[] };
}

/** The manifest as the world stands now (copies: later slots do not change it). */
export function worldManifest(state: WorldState): WorldManifest {
  const tokens: WorldToken[] = [...state.tokens.values()].map((t) => ({
    mint: t.mint,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    tokenProgram: t.tokenProgram,
    venues: [...t.venues],
    pools: t.pools.map(
      (p): WorldPool => ({
        kind: p.kind,
        address: p.address,
        baseMint: p.baseMint,
        quoteMint: p.quoteMint,
        related: { ...p.related },
        derivable: p.derivable,
        activation: venueOfKind(p.kind).activation(p),
      }),
    ),
    metadataUri: t.metadataUri,
    tags: [...t.tags],
    details: { ...t.details, creator: t.creator },
  }));
  return {
    seed: state.seed,
    tokens,
    wellKnown: {
      pythSolUsd: PYTH_SOL_USD,
      wsol: WSOL_MINT,
      usdc: USDC_MINT,
      usdt: USDT_MINT,
      solUsdcPool: state.solUsdcPool.address,
      incinerator: INCINERATOR,
      pumpGlobal: pumpGlobal(),
      pumpSwapGlobalConfig: pumpSwapGlobalConfig(),
      cpmmConfig0: state.cpmm.configs.get(0)!.address,
      cpmmConfig1: state.cpmm.configs.get(1)!.address,
      clmmConfig4: state.clmm.configs.get(4)!.address,
      dammV2Config0: dammV2ConfigAddress(0n),
      dammV2MigrationConfig: DAMM_V2_MIGRATION_CONFIG_25BPS,
      arbBot: state.arbBot,
      migrationAuthority: PUMP_WITHDRAW_AUTHORITY,
      ...(state.extras
        ? {
            whirlpoolsConfig: ORCA_WHIRLPOOLS_CONFIG,
            launchlabPlatform: RAYDIUM_LAUNCHLAB_PLATFORM,
            jitoStakePool: JITO_STAKE_POOL,
            jitosol: JITOSOL_MINT,
            usd1: USD1_MINT,
            solUsdcWhirlpool: state.solUsdcWhirlpool!.address,
          }
        : {}),
    },
    wallets: { whales: [...state.whales], delegates: [...state.delegates] },
  };
}

/** The world's own price of a pool or curve (quote atoms per base atom), for tests. */
export function worldPoolPrice(state: WorldState, address: Pubkey): number {
  for (const t of state.tokens.values()) if (t.curve?.address === address) return state.pumpfun.price(t.curve);
  if (address === state.solUsdcPool.address) return state.clmm.price(state.solUsdcPool);
  const tr = state.tradeables.find((x) => x.pool.address === address) ?? state.quietPools.find((x) => x.pool.address === address);
  if (tr) return tr.venue.price(tr.pool);
  const dbc = state.dbc.pools.get(address);
  if (dbc) return state.dbc.price(dbc);
  const launchlab = state.launchlab.pools.get(address);
  if (launchlab) return state.launchlab.price(launchlab);
  throw new Error(`unknown pool ${address}`);
}
