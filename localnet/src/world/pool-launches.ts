/**
 * New pools over time, one kind after another (Raydium AMM v4 / CPMM / CLMM, Meteora DLMM / DAMM v1 / DAMM v2 / DBC;
 * pump.fun curves come from the launches of slot-transactions.ts, canonical PumpSwap pools from their migrations, whose
 * pump `migrate` CPIs pump_amm `create_pool`): a whale mints a new SPL token (System
 * CreateAccount, InitializeMint2, ATA, MintTo, Metaplex CreateMetadataAccountV3, SetAuthority) and creates its SOL pool
 * with the program's own create instruction (discriminators and account order of the programs' current IDLs), adding
 * the liquidity as the program does (CLMM open_position_v2, DLMM initialize_position + add_liquidity_by_strategy2;
 * DBC mints the token itself). The AMM v4 creator first buys on an existing AMM v4 pool in the same transaction (a
 * swap and a pool creation side by side). Once the transaction applies the token and pool join the manifest and the
 * trading.
 *
 * The venue's own `create` is the state change; it runs once speculatively (journaled, rolled back) so the instructions
 * carry the exact addresses and amounts the real run then writes.
 */
import type { Pubkey } from "../chain/types.js";
import { Draft } from "./context.js";
import { concat, hex } from "./core/bytes.js";
import { ata, i32be, keyBytes, pda, sha256 } from "./core/keys.js";
import { tickAtSqrtPrice } from "./core/math.js";
import type { Rng } from "./core/rng.js";
import {
  ATA_PROGRAM,
  CPMM_CREATE_POOL_FEE_RECEIVER,
  DAMM_V2_POOL_AUTHORITY,
  DBC_POOL_AUTHORITY,
  METAPLEX_PROGRAM,
  METEORA_DAMM_V1_PROGRAM,
  METEORA_DAMM_V2_PROGRAM,
  METEORA_DBC_PROGRAM,
  METEORA_DLMM_PROGRAM,
  METEORA_VAULT_PROGRAM,
  OPENBOOK_PROGRAM,
  RAYDIUM_AMM_V4_AUTHORITY,
  RAYDIUM_AMM_V4_PROGRAM,
  RAYDIUM_CLMM_PROGRAM,
  RAYDIUM_CPMM_AUTHORITY,
  RAYDIUM_CPMM_PROGRAM,
  RENT_SYSVAR,
  SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from "./programs.js";
import { encodeMetaplexMetadata, METADATA_ACCOUNT_SIZE } from "./spl/metaplex.js";
import { MINT_SIZE, rentExempt } from "./spl/token.js";
import { txShape } from "./slot-transactions.js";
import { reserveSides, trackPoolSwap } from "./swap-truth.js";
import { r, rs, w, ws, type Ix } from "./tx/builder.js";
import { ataCreate, borsh, eventCpi, systemCreateAccount, tokenMintTo, tokenTransfer, tokenTransferChecked } from "./tx/common.js";
import { dammV2ConfigAddress, dammV2EventAuthority, type DammV2Pool } from "./venues/meteora-damm-v2.js";
import type { DammV1Pool } from "./venues/meteora-damm-v1.js";
import { dbcEventAuthority, type DbcConfig, type DbcPool } from "./venues/meteora-dbc.js";
import { dlmmEventAuthority, dlmmPresetParameter2, type DlmmPair } from "./venues/meteora-dlmm.js";
import { metaplexMetadataAddress } from "./venues/pumpfun.js";
import type { AmmV4Pool } from "./venues/raydium-amm-v4.js";
import type { ClmmPool } from "./venues/raydium-clmm.js";
import type { CpmmPool } from "./venues/raydium-cpmm.js";
import type { PoolRef, PoolVenue } from "./venues/types.js";
import { LAMPORTS, type TokenEntry, type WorldState } from "./world-state.js";
import { launchName } from "./catalog.js";

/** The kinds pools are created of, in turn. */
export const LAUNCHED_POOL_KINDS = [
  "raydium-cpmm",
  "meteora-damm-v2",
  "raydium-amm-v4",
  "meteora-dlmm",
  "raydium-clmm",
  "meteora-dbc",
  "meteora-damm-v1",
] as const;
export type LaunchKind = (typeof LAUNCHED_POOL_KINDS)[number];

/** New pools after genesis; beyond this the world keeps trading what exists (bounded memory). */
export const MAX_POOL_LAUNCHES = 160;
const DECIMALS = 6;
const SUPPLY = 1_000_000_000n * 10n ** BigInt(DECIMALS);

const anchor = (name: string) => sha256(`global:${name}`).subarray(0, 8);
const anchorEvent = (name: string) => sha256(`event:${name}`).subarray(0, 8);
/** Raydium AMM v4 `create_config_account` PDA and its pool-creation fee receiver (mainnet). */
const AMM_V4_CONFIG = pda(["amm_config_account_seed"], RAYDIUM_AMM_V4_PROGRAM);
const AMM_V4_CREATE_FEE_DESTINATION = "7YttLkHDoNj9wyDur5pM1ejNaAvT9X4eqaYcHQqtj2G5";

interface Created {
  pool: PoolRef;
  venue: PoolVenue;
  /** What the pool's reserves hold after creation: base and quote atoms. */
  base: bigint;
  quote: bigint;
}

interface LaunchPlan {
  n: number;
  kind: LaunchKind;
  creator: Pubkey;
  mint: Pubkey;
  name: string;
  symbol: string;
  uri: string;
  /** base atoms and quote lamports the creator puts in (the venue's create turns them into its reserves) */
  base: bigint;
  depth: bigint;
  price: number;
}

export class PoolLaunches {
  private launches = 0;
  private nextSlot: number;
  private readonly usedNames = new Set<string>(["pool-launch"]);

  constructor(
    private readonly state: WorldState,
    private readonly rng: Rng,
  ) {
    this.nextSlot = 6 + rng.int(0, 6);
  }

  /** The slot's pool creation, when one is due. */
  next(slot: number): Draft | null {
    if (slot < this.nextSlot || this.launches >= MAX_POOL_LAUNCHES) return null;
    this.nextSlot = slot + this.rng.int(10, 22);
    const n = this.launches++;
    return this.launch(n, LAUNCHED_POOL_KINDS[n % LAUNCHED_POOL_KINDS.length]!);
  }

  /** Launches left before the cap (`MAX_POOL_LAUNCHES`). */
  get remaining(): number {
    return MAX_POOL_LAUNCHES - this.launches;
  }

  /**
   * A pool of `kind` now, out of turn (`POST /__localnet/launch`): the same launch as the scheduled ones (it counts
   * against the cap and takes the next launch number), with the mint it creates; null past the cap.
   */
  launchNow(kind: LaunchKind): { mint: Pubkey; draft: Draft | null } | null {
    if (this.launches >= MAX_POOL_LAUNCHES) return null;
    const n = this.launches++;
    return { mint: this.state.key(`pool-launch:${n}`), draft: this.launch(n, kind) };
  }

  private launch(n: number, kind: LaunchKind): Draft | null {
    const { state, rng } = this;
    const { ctx } = state;
    const creator = rng.pick(state.whales);
    const { name, symbol } = launchName(rng, this.usedNames);
    const mint = state.key(`pool-launch:${n}`);
    const depth = BigInt(Math.floor(rng.logUniform(20, 160) * 1e9));
    const base = (SUPPLY * BigInt(rng.int(20, 60))) / 100n;
    const plan: LaunchPlan = { n, kind, creator, mint, name, symbol, uri: state.meta.uriFor(mint), base, depth, price: Number(depth) / Number(base) };
    if (ctx.store.lamports(creator) < depth * 2n + 10n * LAMPORTS) return null;

    // Learn the pool the venue would create (addresses, reserves) without keeping it.
    const userBase = ata(creator, mint, TOKEN_PROGRAM);
    const userQuote = ata(creator, WSOL_MINT, TOKEN_PROGRAM);
    // The instructions are built on the speculated state too (some builders read the new mint).
    const { created: spec, ixs } = this.speculate(() => {
      this.writeMint(plan, kind === "meteora-dbc" ? 0n : SUPPLY);
      const created = this.create(plan);
      return { created, ixs: this.instructions(plan, created, userBase, userQuote) };
    });
    const entry = state.newToken(
      { key: `pool-launch-${n}`, mint, name, symbol, decimals: DECIMALS, tokenProgram: TOKEN_PROGRAM, creator, venues: [], details: { launchedAtSlot: String(ctx.clock.slot), poolCreatedAtSlot: String(ctx.clock.slot) } },
      ["pool-launch", "launched", kind],
    );
    const { cuPrice } = txShape(rng);
    const d = new Draft(ctx, creator, 400_000, cuPrice, 0);
    let wsol: Pubkey | null = null;
    if (kind !== "meteora-dbc") {
      this.mintInstructions(d, plan);
      // The AMM v4 creator buys on an existing AMM v4 pool first (a swap beside the pool creation).
      const amm = kind === "raydium-amm-v4" ? state.tradeables.filter((t) => t.weight > 0 && t.pool.kind === kind && t.pool.quoteMint === WSOL_MINT) : [];
      const buy = amm.length ? BigInt(Math.floor(rng.logUniform(0.05, 0.5) * 1e9)) : 0n;
      wsol = d.wrapSol(creator, spec.quote + buy);
      if (buy > 0n) {
        const t = rng.pick(amm);
        const boughtInto = d.ensureAta(creator, t.pool.baseMint);
        if (!trackPoolSwap(state, d, t.pool, t.venue, creator, "buy", buy, boughtInto, wsol, false)) return null;
      }
    }
    ixs.forEach((ix, i) => {
      d.add(ix, i < ixs.length - 1 ? undefined : () => {
        ctx.store.payFor(creator, () => {
          if (kind === "meteora-dbc") {
            this.writeMint(plan, 0n);
            const created = this.create(plan);
            const m = ctx.book.mint(mint);
            m.supply = SUPPLY;
            ctx.book.writeMint(m);
            this.register(entry, created);
            return;
          }
          const created = this.create(plan);
          this.debit(userBase, created.base);
          if (wsol) this.debit(wsol, created.quote);
          this.register(entry, created);
        });
      });
    });
    if (wsol) d.unwrapSol(creator);
    state.registerMetadata(entry, { shape: "properties", broken: null }, rng);
    return d;
  }

  private register(entry: TokenEntry, created: Created): void {
    const { state } = this;
    state.tokens.set(entry.mint, entry);
    state.addPool(entry, created.pool, created.venue, 3);
    entry.details.pool = created.pool.address;
  }

  /** Runs `fn` on a journal and rolls everything back: accounts, typed token state, the venues' registries. */
  private speculate<T>(fn: () => T): T {
    const { state } = this;
    const { store, book } = state.ctx;
    const maps: Map<unknown, unknown>[] = [
      state.cpmm.pools, state.clmm.pools, state.ammV4.pools, state.pumpswap.pools, state.dlmm.pairs, state.dammV1.pools, state.dammV1.vaults,
      state.dammV2.pools, state.dbc.pools, book.mints,
    ];
    const sizes = maps.map((m) => m.size);
    const vaults = [...state.dammV1.vaults.values()].map((v) => [v, v.totalAmount] as const);
    store.begin();
    try {
      return fn();
    } finally {
      book.reload(store.rollback());
      maps.forEach((m, i) => [...m.keys()].slice(sizes[i]).forEach((k) => m.delete(k)));
      for (const [v, total] of vaults) v.totalAmount = total;
    }
  }

  /** The new SPL mint (no authorities once launched), the creator's account holding `toCreator`, and its Metaplex metadata. */
  private writeMint(p: LaunchPlan, toCreator: bigint): void {
    const { ctx } = this.state;
    ctx.book.writeMint({ address: p.mint, program: TOKEN_PROGRAM, decimals: DECIMALS, supply: 0n, mintAuthority: null, freezeAuthority: null });
    if (toCreator > 0n) {
      const acct = ctx.book.newAccount(ata(p.creator, p.mint, TOKEN_PROGRAM), p.mint, p.creator);
      ctx.book.write(acct);
      ctx.book.mintTo(acct, toCreator);
    }
    const updateAuthority = p.kind === "meteora-dbc" ? DBC_POOL_AUTHORITY : p.creator;
    ctx.store.putRentExempt(
      metaplexMetadataAddress(p.mint),
      METAPLEX_PROGRAM,
      encodeMetaplexMetadata({ updateAuthority, mint: p.mint, name: p.name, symbol: p.symbol, uri: p.uri, sellerFeeBasisPoints: 0, creators: null, primarySaleHappened: false, isMutable: true, editionNonce: null, tokenStandard: 2 }),
    );
  }

  /** Takes `amount` out of one of the creator's token accounts (the venue's create put it in the pool's reserves). */
  private debit(account: Pubkey, amount: bigint): void {
    const { book } = this.state.ctx;
    const a = book.account(account);
    if (!a || a.amount < amount) throw new Error(`pool launch: ${account} cannot pay ${amount}`);
    a.amount -= amount;
    if (a.mint === WSOL_MINT) a.lamports -= amount;
    book.write(a);
  }

  /** The venue's state change for the new pool. */
  private create(p: LaunchPlan): Created {
    const { state } = this;
    const common = { baseMint: p.mint, quoteMint: WSOL_MINT, creator: p.creator };
    let pool: PoolRef;
    let venue: PoolVenue;
    switch (p.kind) {
      case "raydium-cpmm":
        pool = state.cpmm.create({ configIndex: 0, ...common, base: p.base, quote: p.depth });
        venue = state.cpmm;
        break;
      case "raydium-amm-v4":
        pool = state.ammV4.create({ market: state.key(`openbook-market:pool-launch-${p.n}`), coinMint: p.mint, pcMint: WSOL_MINT, coin: p.base, pc: p.depth, owner: p.creator });
        venue = state.ammV4;
        break;
      case "raydium-clmm":
        pool = state.clmm.create({ configIndex: 2, ...common, price: p.price, quoteDepth: p.depth, widen: 3 });
        venue = state.clmm;
        break;
      case "meteora-dlmm":
        pool = state.dlmm.create({ ...common, binStep: 80, baseFactor: 6250, preset: 21, price: p.price, quoteDepth: p.depth, bins: 30 });
        venue = state.dlmm;
        break;
      case "meteora-damm-v1":
        pool = state.dammV1.create({ ...common, base: p.base, quote: p.depth });
        venue = state.dammV1;
        break;
      case "meteora-damm-v2":
        pool = state.dammV2.create({ config: dammV2ConfigAddress(0n), feeNumerator: 2_500_000n, ...common, price: p.price, quoteDepth: p.depth });
        venue = state.dammV2;
        break;
      case "meteora-dbc":
        pool = state.dbc.create({ config: this.dbcConfig(), baseMint: p.mint, creator: p.creator, baseSupplyInPool: SUPPLY, progress: 0 }).pool;
        venue = state.dbc;
        break;
    }
    // DAMM v1's reserves are the dynamic vaults shared by every pool of the mint: the deposit is the plan's.
    if (p.kind === "meteora-damm-v1") return { pool, venue, base: p.base, quote: p.depth };
    const sides = reserveSides(pool);
    const amountOf = (mint: Pubkey) => {
      const s = sides.find((x) => x.mint === mint)!;
      return state.ctx.book.account(s.account)?.amount ?? 0n;
    };
    return { pool, venue, base: amountOf(p.mint), quote: amountOf(WSOL_MINT) };
  }

  /** New DBC pools launch on the config of the world's first live DBC curve (a partner config hosts many pools). */
  private dbcConfig(): DbcConfig {
    const live = [...this.state.dbc.pools.values()].find((x) => !x.isMigrated);
    if (!live) throw new Error("no DBC config to launch on");
    return live.configState;
  }

  /** System CreateAccount, InitializeMint2, the creator's ATA, MintTo, Metaplex CreateMetadataAccountV3, SetAuthority(None). */
  private mintInstructions(d: Draft, p: LaunchPlan): void {
    const { state } = this;
    const userBase = ata(p.creator, p.mint, TOKEN_PROGRAM);
    const metadata = metaplexMetadataAddress(p.mint);
    const tokenIx = (accounts: Ix["accounts"], data: Uint8Array, name: string, cu: number): Ix => ({ program: TOKEN_PROGRAM, accounts, data, steps: [{ log: `Instruction: ${name}` }], cu });
    d.add({ ...systemCreateAccount(p.creator, p.mint, rentExempt(MINT_SIZE), MINT_SIZE, TOKEN_PROGRAM), accounts: [ws(p.creator), ws(p.mint)] });
    d.add(tokenIx([w(p.mint)], concat(Uint8Array.of(20, DECIMALS), keyBytes(p.creator), Uint8Array.of(0)), "InitializeMint2", 2967));
    d.add(ataCreate(p.creator, userBase, p.creator, p.mint, TOKEN_PROGRAM, 165));
    d.add({ ...tokenMintTo(TOKEN_PROGRAM, p.mint, userBase, p.creator, SUPPLY), accounts: [w(p.mint), w(userBase), rs(p.creator)] });
    d.add({
      program: METAPLEX_PROGRAM,
      accounts: [w(metadata), r(p.mint), rs(p.creator), ws(p.creator), r(p.creator), r(SYSTEM_PROGRAM)],
      data: borsh().u8(33).string(p.name).string(p.symbol).string(p.uri).u16(0).u8(0).u8(0).u8(0).bool(true).u8(0).done(),
      steps: [
        { log: "IX: Create Metadata Accounts v3" },
        { cpi: { ...systemCreateAccount(p.creator, metadata, rentExempt(METADATA_ACCOUNT_SIZE), METADATA_ACCOUNT_SIZE, METAPLEX_PROGRAM) } },
      ],
      cu: 33000,
    });
    d.add(tokenIx([w(p.mint), rs(p.creator)], hex("060000"), "SetAuthority", 2911), () => {
      state.ctx.store.payFor(p.creator, () => this.writeMint(p, SUPPLY));
    });
  }

  /** The program's create instruction(s) for the speculated pool. */
  private instructions(p: LaunchPlan, c: Created, userBase: Pubkey, userQuote: Pubkey): Ix[] {
    const { state } = this;
    const { creator, mint } = p;
    const ts = BigInt(state.ctx.clock.blockTime);
    const transferIn = (program: Pubkey, from: Pubkey, mintKey: Pubkey, to: Pubkey, amount: bigint) => ({ cpi: tokenTransferChecked(program, from, mintKey, to, creator, amount, mintKey === WSOL_MINT ? 9 : DECIMALS) });
    switch (p.kind) {
      case "raydium-cpmm": {
        const pool = c.pool as CpmmPool;
        const [a0, a1] = pool.baseIs0 ? [c.base, c.quote] : [c.quote, c.base];
        const [u0, u1] = pool.baseIs0 ? [userBase, userQuote] : [userQuote, userBase];
        const creatorLp = ata(creator, pool.lpMint, TOKEN_PROGRAM);
        return [{
          program: RAYDIUM_CPMM_PROGRAM,
          accounts: [
            ws(creator), r(pool.config.address), r(RAYDIUM_CPMM_AUTHORITY), w(pool.address), r(pool.token0), r(pool.token1), w(pool.lpMint), w(u0), w(u1), w(creatorLp),
            w(pool.vault0), w(pool.vault1), w(CPMM_CREATE_POOL_FEE_RECEIVER), w(pool.observation), r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(ATA_PROGRAM),
            r(SYSTEM_PROGRAM), r(RENT_SYSVAR),
          ],
          data: borsh().bytes(anchor("initialize")).u64(a0).u64(a1).u64(pool.openTime).done(),
          steps: [
            { log: "Instruction: Initialize" },
            { data: borsh().bytes(anchorEvent("LpChangeEvent")).pubkey(pool.address).u64(0n).u64(0n).u64(0n).u64(pool.lpSupply).u64(a0).u64(a1).u64(0n).u64(0n).u8(0).done() },
            transferIn(TOKEN_PROGRAM, u0, pool.token0, pool.vault0, a0),
            transferIn(TOKEN_PROGRAM, u1, pool.token1, pool.vault1, a1),
            { cpi: ataCreate(creator, creatorLp, creator, pool.lpMint, TOKEN_PROGRAM, 165) },
            { cpi: tokenMintTo(TOKEN_PROGRAM, pool.lpMint, creatorLp, RAYDIUM_CPMM_AUTHORITY, pool.lpSupply) },
          ],
          cu: 80000,
        }];
      }
      case "raydium-amm-v4": {
        const pool = c.pool as AmmV4Pool;
        const userLp = ata(creator, pool.lpMint, TOKEN_PROGRAM);
        const initLog = borsh().u8(0).u64(ts).u8(9).u8(DECIMALS).u64(1n).u64(1n).u64(c.quote).u64(c.base).pubkey(pool.market).done();
        return [{
          program: RAYDIUM_AMM_V4_PROGRAM,
          accounts: [
            r(TOKEN_PROGRAM), r(ATA_PROGRAM), r(SYSTEM_PROGRAM), r(RENT_SYSVAR), w(pool.address), r(RAYDIUM_AMM_V4_AUTHORITY), w(pool.openOrders), w(pool.lpMint),
            r(mint), r(WSOL_MINT), w(pool.coinVault), w(pool.pcVault), w(pool.targetOrders), r(AMM_V4_CONFIG), w(AMM_V4_CREATE_FEE_DESTINATION), r(OPENBOOK_PROGRAM),
            r(pool.market), ws(creator), w(userBase), w(userQuote), w(userLp),
          ],
          data: borsh().u8(1).u8(pool.nonce).u64(pool.openTime).u64(c.quote).u64(c.base).done(),
          steps: [
            { log: `ray_log: ${Buffer.from(initLog).toString("base64")}` },
            { cpi: tokenTransfer(TOKEN_PROGRAM, userBase, pool.coinVault, creator, c.base) },
            { cpi: tokenTransfer(TOKEN_PROGRAM, userQuote, pool.pcVault, creator, c.quote) },
            { cpi: ataCreate(creator, userLp, creator, pool.lpMint, TOKEN_PROGRAM, 165) },
            { cpi: tokenMintTo(TOKEN_PROGRAM, pool.lpMint, userLp, RAYDIUM_AMM_V4_AUTHORITY, pool.lpAmount) },
          ],
          cu: 90000,
        }];
      }
      case "raydium-clmm": {
        const pool = c.pool as ClmmPool;
        const bitmap = pda(["pool_tick_array_bitmap_extension", keyBytes(pool.address)], RAYDIUM_CLMM_PROGRAM);
        const [a0, a1] = pool.baseIs0 ? [c.base, c.quote] : [c.quote, c.base];
        const [u0, u1] = pool.baseIs0 ? [userBase, userQuote] : [userQuote, userBase];
        const nftMint = state.key(`pool-launch:${p.n}:position-nft`);
        const lower = tickAtSqrtPrice(pool.sqrtLower);
        const upper = tickAtSqrtPrice(pool.sqrtUpper);
        const span = pool.config.tickSpacing * 60;
        const arrayStart = (t: number) => Math.floor(t / span) * span;
        const tickArray = (t: number) => pda(["tick_array", keyBytes(pool.address), i32be(arrayStart(t))], RAYDIUM_CLMM_PROGRAM);
        const created = borsh().bytes(anchorEvent("PoolCreatedEvent")).pubkey(pool.mint0).pubkey(pool.mint1).u16(pool.config.tickSpacing).pubkey(pool.address)
          .u128(pool.sqrtPrice).i32(tickAtSqrtPrice(pool.sqrtPrice)).pubkey(pool.vault0).pubkey(pool.vault1).done();
        return [
          {
            program: RAYDIUM_CLMM_PROGRAM,
            accounts: [
              ws(creator), r(pool.config.address), w(pool.address), r(pool.mint0), r(pool.mint1), w(pool.vault0), w(pool.vault1), w(pool.observation), w(bitmap),
              r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM), r(RENT_SYSVAR),
            ],
            data: borsh().bytes(anchor("create_pool")).u128(pool.sqrtPrice).u64(pool.openTime).done(),
            steps: [{ log: "Instruction: CreatePool" }, { data: created }],
            cu: 60000,
          },
          {
            program: RAYDIUM_CLMM_PROGRAM,
            accounts: [
              ws(creator), r(creator), ws(nftMint), w(ata(creator, nftMint, TOKEN_2022_PROGRAM)), w(metaplexMetadataAddress(nftMint)), w(pool.address),
              w(pda(["position", keyBytes(pool.address), i32be(lower), i32be(upper)], RAYDIUM_CLMM_PROGRAM)), w(tickArray(lower)), w(tickArray(upper)),
              w(pda(["position", keyBytes(nftMint)], RAYDIUM_CLMM_PROGRAM)), w(u0), w(u1), w(pool.vault0), w(pool.vault1), r(RENT_SYSVAR), r(SYSTEM_PROGRAM),
              r(TOKEN_PROGRAM), r(ATA_PROGRAM), r(METAPLEX_PROGRAM), r(TOKEN_2022_PROGRAM), r(pool.mint0), r(pool.mint1),
            ],
            data: borsh().bytes(anchor("open_position_v2")).i32(lower).i32(upper).i32(arrayStart(lower)).i32(arrayStart(upper)).u128(pool.liquidity).u64(a0).u64(a1).bool(false).u8(0).done(),
            steps: [{ log: "Instruction: OpenPositionV2" }, transferIn(TOKEN_PROGRAM, u0, pool.mint0, pool.vault0, a0), transferIn(TOKEN_PROGRAM, u1, pool.mint1, pool.vault1, a1)],
            cu: 120000,
          },
        ];
      }
      case "meteora-dlmm": {
        const pair = c.pool as DlmmPair;
        const position = state.key(`pool-launch:${p.n}:position`);
        const [ux, uy] = pair.baseIsX ? [userBase, userQuote] : [userQuote, userBase];
        const [ax, ay] = pair.baseIsX ? [c.base, c.quote] : [c.quote, c.base];
        const ids = [...pair.bins.keys()];
        const minId = Math.min(...ids);
        const maxId = Math.max(...ids);
        const arrays = [...new Set(ids.map((id) => Math.floor(id / 70)))].map((i) => w(state.dlmm.binArrayAddress(pair, i)));
        const lbPairCreate = borsh().bytes(anchorEvent("LbPairCreate")).pubkey(pair.address).u16(pair.binStep).pubkey(pair.tokenX).pubkey(pair.tokenY).done();
        return [
          {
            program: METEORA_DLMM_PROGRAM,
            accounts: [
              w(pair.address), r(METEORA_DLMM_PROGRAM), r(pair.tokenX), r(pair.tokenY), w(pair.reserveX), w(pair.reserveY), w(pair.oracle), r(dlmmPresetParameter2(21)),
              ws(creator), r(METEORA_DLMM_PROGRAM), r(METEORA_DLMM_PROGRAM), r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM), r(dlmmEventAuthority()),
              r(METEORA_DLMM_PROGRAM),
            ],
            data: concat(borsh().bytes(anchor("initialize_lb_pair2")).i32(pair.activeId).done(), new Uint8Array(96)),
            steps: [{ log: "Instruction: InitializeLbPair2" }, { cpi: eventCpi(METEORA_DLMM_PROGRAM, dlmmEventAuthority(), lbPairCreate) }],
            cu: 50000,
          },
          {
            program: METEORA_DLMM_PROGRAM,
            accounts: [ws(creator), ws(position), r(pair.address), rs(creator), r(SYSTEM_PROGRAM), r(RENT_SYSVAR), r(dlmmEventAuthority()), r(METEORA_DLMM_PROGRAM)],
            data: borsh().bytes(anchor("initialize_position")).i32(minId).i32(maxId - minId + 1).done(),
            steps: [
              { log: "Instruction: InitializePosition" },
              { cpi: eventCpi(METEORA_DLMM_PROGRAM, dlmmEventAuthority(), borsh().bytes(anchorEvent("PositionCreate")).pubkey(pair.address).pubkey(position).pubkey(creator).done()) },
            ],
            cu: 25000,
          },
          {
            program: METEORA_DLMM_PROGRAM,
            accounts: [
              w(position), w(pair.address), r(METEORA_DLMM_PROGRAM), w(ux), w(uy), w(pair.reserveX), w(pair.reserveY), r(pair.tokenX), r(pair.tokenY), rs(creator),
              r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(dlmmEventAuthority()), r(METEORA_DLMM_PROGRAM), ...arrays,
            ],
            data: concat(
              borsh().bytes(anchor("add_liquidity_by_strategy2")).u64(ax).u64(ay).i32(pair.activeId).i32(3).i32(minId).i32(maxId).u8(6).done(),
              new Uint8Array(64),
              borsh().u32(0).done(),
            ),
            steps: [
              { log: "Instruction: AddLiquidityByStrategy2" },
              transferIn(TOKEN_PROGRAM, ux, pair.tokenX, pair.reserveX, ax),
              transferIn(TOKEN_PROGRAM, uy, pair.tokenY, pair.reserveY, ay),
              { cpi: eventCpi(METEORA_DLMM_PROGRAM, dlmmEventAuthority(), borsh().bytes(anchorEvent("AddLiquidity")).pubkey(pair.address).pubkey(creator).pubkey(position).u64(ax).u64(ay).i32(pair.activeId).done()) },
            ],
            cu: 110000,
          },
        ];
      }
      case "meteora-damm-v1": {
        const pool = c.pool as DammV1Pool;
        const v = pool.aVault;
        const payerLp = ata(creator, pool.lpMint, TOKEN_PROGRAM);
        const deposit = (vault: typeof v, from: Pubkey, lpAccount: Pubkey, amount: bigint): Ix["steps"][number] => ({
          cpi: {
            program: METEORA_VAULT_PROGRAM,
            accounts: [w(vault.address), w(vault.tokenVault), w(vault.lpMint), w(from), w(lpAccount), rs(creator), r(TOKEN_PROGRAM)],
            data: borsh().bytes(anchor("deposit")).u64(amount).u64(0n).done(),
            steps: [{ log: "Instruction: Deposit" }, { cpi: tokenTransfer(TOKEN_PROGRAM, from, vault.tokenVault, creator, amount) }],
            cu: 22000,
          },
        });
        return [
          {
            program: METEORA_VAULT_PROGRAM,
            accounts: [w(v.address), ws(creator), w(v.tokenVault), r(mint), w(v.lpMint), r(RENT_SYSVAR), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM)],
            data: anchor("initialize"),
            steps: [{ log: "Instruction: Initialize" }],
            cu: 30000,
          },
          {
            program: METEORA_DAMM_V1_PROGRAM,
            accounts: [
              w(pool.address), w(pool.lpMint), r(pool.tokenA), r(pool.tokenB), w(pool.aVault.address), w(pool.bVault.address), w(pool.aVault.tokenVault),
              w(pool.bVault.tokenVault), w(pool.aVault.lpMint), w(pool.bVault.lpMint), w(pool.aVaultLp), w(pool.bVaultLp), w(userBase), w(userQuote), w(payerLp),
              w(pool.protocolFeeA), w(pool.protocolFeeB), ws(creator), r(pool.aVaultLp), r(RENT_SYSVAR), w(metaplexMetadataAddress(pool.lpMint)), r(METAPLEX_PROGRAM),
              r(METEORA_VAULT_PROGRAM), r(TOKEN_PROGRAM), r(ATA_PROGRAM), r(SYSTEM_PROGRAM),
            ],
            data: borsh().bytes(anchor("initialize_permissionless_pool")).u8(0).u64(c.base).u64(c.quote).done(),
            steps: [
              { log: "Instruction: InitializePermissionlessPool" },
              { data: borsh().bytes(anchorEvent("PoolCreated")).pubkey(pool.lpMint).pubkey(pool.tokenA).pubkey(pool.tokenB).u8(1).pubkey(pool.address).done() },
              deposit(pool.aVault, userBase, pool.aVaultLp, c.base),
              deposit(pool.bVault, userQuote, pool.bVaultLp, c.quote),
              { cpi: ataCreate(creator, payerLp, creator, pool.lpMint, TOKEN_PROGRAM, 165) },
              { cpi: tokenMintTo(TOKEN_PROGRAM, pool.lpMint, payerLp, pool.aVaultLp, BigInt(Math.floor(Math.sqrt(Number(c.base) * Number(c.quote))))) },
            ],
            cu: 140000,
          },
        ];
      }
      case "meteora-damm-v2": {
        const pool = c.pool as DammV2Pool;
        const nftMint = state.key(`pool-launch:${p.n}:position-nft`);
        const event = borsh().bytes(anchorEvent("EvtInitializePool")).pubkey(pool.address).pubkey(pool.tokenA).pubkey(pool.tokenB).pubkey(creator).pubkey(creator)
          .u128(pool.liquidity).u128(pool.sqrtPrice).u64(c.base).u64(c.quote).done();
        return [{
          program: METEORA_DAMM_V2_PROGRAM,
          accounts: [
            r(creator), ws(nftMint), w(pda(["position_nft_account", keyBytes(nftMint)], METEORA_DAMM_V2_PROGRAM)), ws(creator), r(pool.config), r(DAMM_V2_POOL_AUTHORITY),
            w(pool.address), w(pda(["position", keyBytes(nftMint)], METEORA_DAMM_V2_PROGRAM)), r(pool.tokenA), r(pool.tokenB), w(pool.vaultA), w(pool.vaultB),
            w(userBase), w(userQuote), r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(TOKEN_2022_PROGRAM), r(SYSTEM_PROGRAM), r(dammV2EventAuthority()), r(METEORA_DAMM_V2_PROGRAM),
          ],
          data: borsh().bytes(anchor("initialize_pool")).u128(pool.liquidity).u128(pool.sqrtPrice).u8(0).done(),
          steps: [
            { log: "Instruction: InitializePool" },
            transferIn(TOKEN_PROGRAM, userBase, pool.tokenA, pool.vaultA, c.base),
            transferIn(TOKEN_PROGRAM, userQuote, pool.tokenB, pool.vaultB, c.quote),
            { cpi: eventCpi(METEORA_DAMM_V2_PROGRAM, dammV2EventAuthority(), event) },
          ],
          cu: 95000,
        }];
      }
      case "meteora-dbc": {
        const pool = c.pool as DbcPool;
        const metadata = metaplexMetadataAddress(mint);
        const event = borsh().bytes(hex("e432f655cb428625")).pubkey(pool.address).pubkey(pool.configState.address).pubkey(creator).pubkey(mint).u8(0).u64(ts).done();
        return [{
          program: METEORA_DBC_PROGRAM,
          accounts: [
            r(pool.configState.address), r(DBC_POOL_AUTHORITY), rs(creator), ws(mint), r(WSOL_MINT), w(pool.address), w(pool.baseVault), w(pool.quoteVault), w(metadata),
            r(METAPLEX_PROGRAM), ws(creator), r(TOKEN_PROGRAM), r(TOKEN_PROGRAM), r(SYSTEM_PROGRAM), r(dbcEventAuthority()), r(METEORA_DBC_PROGRAM),
          ],
          data: borsh().bytes(anchor("initialize_virtual_pool_with_spl_token")).string(p.name).string(p.symbol).string(p.uri).done(),
          steps: [
            { log: "Instruction: InitializeVirtualPoolWithSplToken" },
            { cpi: systemCreateAccount(creator, mint, rentExempt(MINT_SIZE), MINT_SIZE, TOKEN_PROGRAM) },
            { cpi: { program: TOKEN_PROGRAM, accounts: [w(mint)], data: concat(Uint8Array.of(20, DECIMALS), keyBytes(DBC_POOL_AUTHORITY), Uint8Array.of(0)), steps: [{ log: "Instruction: InitializeMint2" }], cu: 2967 } },
            {
              cpi: {
                program: METAPLEX_PROGRAM,
                accounts: [w(metadata), r(mint), r(DBC_POOL_AUTHORITY), w(creator), r(DBC_POOL_AUTHORITY), r(SYSTEM_PROGRAM)],
                data: borsh().u8(33).string(p.name).string(p.symbol).string(p.uri).u16(0).u8(0).u8(0).u8(0).bool(true).u8(0).done(),
                steps: [{ log: "IX: Create Metadata Accounts v3" }],
                cu: 33000,
              },
            },
            { cpi: tokenMintTo(TOKEN_PROGRAM, mint, pool.baseVault, DBC_POOL_AUTHORITY, SUPPLY) },
            { cpi: { program: TOKEN_PROGRAM, accounts: [w(mint), r(DBC_POOL_AUTHORITY)], data: hex("060000"), steps: [{ log: "Instruction: SetAuthority" }], cu: 2911 } },
            { cpi: eventCpi(METEORA_DBC_PROGRAM, dbcEventAuthority(), event) },
          ],
          cu: 130000,
        }];
      }
    }
  }
}
