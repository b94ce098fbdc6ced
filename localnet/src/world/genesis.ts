/**
 * Genesis: every account of the world, built from the seed at construction (programs, base mints, the oracle, wallets,
 * venue globals and configs, the SOL/USDC pool, the catalog's tokens, stablecoin balances, delegations), then written
 * into the ledger at slot 0.
 */
import type { LedgerWriter, Pubkey } from "../chain/types.js";
import { genesisCatalog } from "./catalog.js";
import { FixedWriter } from "./core/bytes.js";
import { keyBytes, pda } from "./core/keys.js";
import { createGenesisToken } from "./genesis-tokens.js";
import {
  ALL_PROGRAMS,
  BPF_LOADER_UPGRADEABLE,
  COMPUTE_BUDGET_PROGRAM,
  DAMM_V2_MIGRATION_CONFIG_25BPS,
  DAMM_V2_POOL_AUTHORITY,
  DBC_POOL_AUTHORITY,
  INCINERATOR,
  NATIVE_LOADER,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_CPMM_AUTHORITY,
  SYSTEM_PROGRAM,
  TOKEN_PROGRAM,
  USDC_MINT,
  USDT_MINT,
  VOTE_PROGRAM,
  WSOL_MINT,
} from "./programs.js";
import { dammV2ConfigAddress } from "./venues/meteora-damm-v2.js";
import { buildExtrasBase, buildExtrasPools, timeOpenings } from "./world-extras.js";
import { LAMPORTS, type WorldState } from "./world-state.js";

const WALLETS = 700;
/** Builtin programs: owned by the native loader, their data the program's name (as on a validator). */
const NATIVE_PROGRAM_NAMES: Record<string, string> = {
  [SYSTEM_PROGRAM]: "system_program",
  [COMPUTE_BUDGET_PROGRAM]: "compute_budget_program",
  [VOTE_PROGRAM]: "vote_program",
};
const WHALES = 14;

/** Builds every genesis account into the world's account mirror, in a fixed order. */
export function buildGenesis(state: WorldState): void {
  const { ctx } = state;
  const { store, book } = ctx;
  // Programs.
  for (const program of ALL_PROGRAMS) {
    const native = NATIVE_PROGRAM_NAMES[program];
    if (native) {
      store.put(program, NATIVE_LOADER, new TextEncoder().encode(native), 1n, true);
    } else {
      const programData = pda([keyBytes(program)], BPF_LOADER_UPGRADEABLE);
      store.put(program, BPF_LOADER_UPGRADEABLE, new FixedWriter(36).u32(0, 2).pubkey(4, programData).bytes, 1_141_440n, true);
    }
  }
  // Base mints.
  book.writeMint({ address: WSOL_MINT, program: TOKEN_PROGRAM, decimals: 9, supply: 0n, mintAuthority: null, freezeAuthority: null });
  book.writeMint({ address: USDC_MINT, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: state.key("usdc:mint-authority"), freezeAuthority: state.key("usdc:freeze-authority") });
  book.writeMint({ address: USDT_MINT, program: TOKEN_PROGRAM, decimals: 6, supply: 0n, mintAuthority: state.key("usdt:mint-authority"), freezeAuthority: state.key("usdt:freeze-authority") });
  state.oracle.write();
  // Wallets.
  const wrng = ctx.rng("wallets");
  for (let i = 0; i < WALLETS; i++) {
    const w = state.key(`wallet:${i}`);
    state.wallets.push(w);
    store.put(w, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(wrng.logUniform(0.8, 400) * 1e9)));
  }
  for (let i = 0; i < WHALES; i++) {
    const w = state.key(`whale:${i}`);
    state.whales.push(w);
    store.put(w, SYSTEM_PROGRAM, new Uint8Array(0), BigInt(Math.floor(wrng.logUniform(2_000, 40_000) * 1e9)));
  }
  state.activeTraders.push(...wrng.shuffle([...state.wallets]).slice(0, 120));
  for (let i = 0; i < 2; i++) state.delegates.push(state.key(`delegate:${i}`));
  for (const d of state.delegates) store.put(d, SYSTEM_PROGRAM, new Uint8Array(0), 5_000_000_000n);
  store.put(state.arbBot, SYSTEM_PROGRAM, new Uint8Array(0), 200_000n * LAMPORTS);
  store.put(INCINERATOR, SYSTEM_PROGRAM, new Uint8Array(0), 1_000_000_000n);
  // Program authorities hold lamports on mainnet too (they pay or receive rent for the accounts they manage).
  for (const a of [RAYDIUM_AMM_V4_AUTHORITY, RAYDIUM_CPMM_AUTHORITY, DAMM_V2_POOL_AUTHORITY, DBC_POOL_AUTHORITY]) {
    store.put(a, SYSTEM_PROGRAM, new Uint8Array(0), 25_000_000_000n);
  }
  // Venue globals and configs.
  state.pumpfun.genesis();
  state.pumpswap.genesis();
  state.cpmm.genesis();
  state.clmm.genesis();
  state.dlmm.writePreset(21, 80, 6250);
  state.dlmm.writePreset(71, 80, 6250);
  for (const i of [0n, 1n, 2n]) state.dammV2.writeConfig(dammV2ConfigAddress(i), i, [2_500_000n, 10_000_000n, 5_000_000n][Number(i)]!, 1);
  state.dammV2.writeConfig(DAMM_V2_MIGRATION_CONFIG_25BPS, 0n, 2_500_000n, 1);
  // config 3: compounding pools (collect_fee_mode 2)
  state.dammV2.writeConfig(dammV2ConfigAddress(3n), 3n, 2_500_000n, 2);
  // USDC for the arbitrage bot and the deep SOL/USDC pool.
  const botUsdc = ctx.createTokenAccount(state.arbBot, USDC_MINT, 0n);
  book.mintTo(botUsdc, 60_000_000n * 1_000_000n);
  state.solUsdcPool = state.clmm.create({
    configIndex: 4,
    baseMint: WSOL_MINT,
    quoteMint: USDC_MINT,
    price: state.oracle.price / 1000,
    quoteDepth: 40_000_000n * 1_000_000n,
    widen: 1.6,
    creator: state.key("raydium:sol-usdc-lp"),
  });
  fixMintSupplies(state, [USDC_MINT]);
  if (state.extras) buildExtrasBase(state);
  // Tokens.
  for (const spec of genesisCatalog(ctx.rng("catalog"), state.extras)) createGenesisToken(state, spec);
  distributeStables(state);
  addDelegates(state);
  if (state.extras) buildExtrasPools(state);
}

/**
 * Writes the built world into the ledger at its genesis slot (the oracle republished at the ledger's clock) and attaches
 * the account mirror, so every later change reaches the ledger too.
 */
export function writeGenesis(state: WorldState, ledger: LedgerWriter): void {
  const { ctx } = state;
  ctx.clock.slot = ledger.slot;
  ctx.clock.blockTime = ledger.blockTime;
  state.oracle.write();
  // Pools that open later open relative to the chain's own genesis time.
  timeOpenings(state, ledger.blockTime);
  for (const start of state.scheduleStarts) start(ledger.blockTime);
  for (const [pubkey, account] of ctx.store.accounts) ledger.setAccount(pubkey, account);
  ctx.store.attach(ledger);
}

/** Token-account sums define the supply of mints whose accounts we created directly (USDC/USDT top-ups). */
function fixMintSupplies(state: WorldState, mints: Pubkey[]): void {
  const { book } = state.ctx;
  for (const m of mints) {
    const mint = book.mint(m);
    let sum = 0n;
    for (const a of book.holdersOf(m)) sum += a.amount + (a.withheld ?? 0n);
    mint.supply = sum;
    book.writeMint(mint);
  }
}

function distributeStables(state: WorldState): void {
  const { ctx } = state;
  const rng = ctx.rng("stables");
  for (const w of state.wallets) {
    if (rng.chance(0.45)) ctx.createTokenAccount(w, USDC_MINT, BigInt(Math.floor(rng.logUniform(40, 25_000) * 1e6)));
    if (rng.chance(0.08)) ctx.createTokenAccount(w, USDT_MINT, BigInt(Math.floor(rng.logUniform(20, 5_000) * 1e6)));
  }
  for (const w of state.whales) {
    ctx.createTokenAccount(w, USDC_MINT, BigInt(Math.floor(rng.logUniform(100_000, 2_000_000) * 1e6)));
    ctx.createTokenAccount(w, USDT_MINT, BigInt(Math.floor(rng.logUniform(50_000, 500_000) * 1e6)));
  }
  fixMintSupplies(state, [USDC_MINT, USDT_MINT]);
}

/** A few holder accounts approve a delegate (state stays Initialized); their owners don't trade those tokens. */
function addDelegates(state: WorldState): void {
  const { book } = state.ctx;
  const picks = ["cpmm-2", "dlmm-0", "amm-v4-0", "pump-mid-1"];
  picks.forEach((key, i) => {
    const entry = [...state.tokens.values()].find((t) => t.key === key);
    if (!entry) return;
    const acct = book
      .holdersOf(entry.mint)
      .filter((a) => state.wallets.includes(a.owner) && a.amount > 0n)
      .sort((a, b) => (a.address < b.address ? -1 : 1))[0];
    if (!acct) return;
    acct.delegate = state.delegates[i % state.delegates.length]!;
    acct.delegatedAmount = i % 2 === 0 ? acct.amount : acct.amount / 3n;
    book.write(acct);
    entry.tags.add("delegated");
    entry.details.delegatedAccount = acct.address;
  });
}
