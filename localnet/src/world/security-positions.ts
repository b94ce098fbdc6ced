/**
 * Security tokens priced by concentrated-liquidity pools whose liquidity sits in positions, some burnt, some locked,
 * some free (`GET /__localnet/security?mint=` knows the split):
 *
 * - `positions-clmm`: a Raydium CLMM pool (config 2, wSOL) whose in-range liquidity is split over four positions —
 *   35% with its NFT in the Raydium locking program's CLMM authority's account, 20% with its NFT burnt (supply 0), 10%
 *   with its NFT at the incinerator, 35% free with the creator — plus a position out of range (NFT burnt), which holds
 *   no liquidity at the price;
 * - `positions-whirlpool`: an Orca Whirlpool (tick spacing 64, wSOL) — 30% locked in place (a LockConfig, its Token-2022
 *   NFT with the creator), 20% with its NFT in a Jupiter Lock escrow, 15% with its NFT burnt, 35% free with a wallet —
 *   plus a free position out of range;
 * - `positions-dlmm`: a Meteora DLMM pair (preset 21, wSOL, activation by unix time) with four PositionV2 accounts whose
 *   bin shares split 40% owned by the incinerator, 25% by a Streamflow escrow, 15% by the creator but locked until a
 *   release point years ahead (`lock_release_point`), 20% free with the creator.
 *
 * Position layouts (the world's own table; offsets include the 8-byte discriminator sha256("account:<Name>")[..8]):
 * Raydium CLMM PersonalPositionState (raydium-clmm, 281 B, 466f967ee60f1975): nft_mint @9, pool_id @41, ticks i32
 * @73/@77, liquidity u128 @81, at PDA(["position", nft_mint]). Orca Whirlpool Position (whirlpool 0.9.0, 216 B,
 * aabc8fe47a40f7d0): whirlpool @8, position_mint @40, liquidity u128 @72, ticks i32 @88/@92, at PDA(["position", mint]);
 * LockConfig (241 B, 6a2fee9f7c0ca0c0): position @8, position_owner @40, whirlpool @72, locked_timestamp u64 @104,
 * lock_type u8 @112, at PDA(["lock_config", position]). Meteora DLMM PositionV2 (lb_clmm 0.9.x, 8,120 B,
 * 75b0d4c7f5b485b6): lb_pair @8, owner @40, liquidity_shares [u128; 70] @72, lower/upper_bin_id i32 @7912/@7916,
 * lock_release_point u64 @7992 (in the pair's activation_type unit: the world's pairs use unix time).
 */
import type { Pubkey } from "../chain/types.js";
import { hex, FixedWriter } from "./core/bytes.js";
import { keyBytes, pda } from "./core/keys.js";
import { tickAtSqrtPrice } from "./core/math.js";
import {
  INCINERATOR,
  METEORA_DLMM_PROGRAM,
  ORCA_WHIRLPOOL_PROGRAM,
  ORCA_WHIRLPOOLS_CONFIG,
  RAYDIUM_CLMM_PROGRAM,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  WSOL_MINT,
} from "./programs.js";
import { JUPITER_LOCK_PROGRAM, STREAMFLOW_PROGRAM, type HolderLabel, type PlainMint, type PositionRow, type SecurityToken, type SecurityTokenRole } from "./security-types.js";
import { LAMPORTS, type WorldState } from "./world-state.js";

/** Raydium's locking program's CLMM authority, PDA(["locked_clmm_position_auth"]…) of LockrWmn… (raydium-sdk-v2 CLMM_LOCK_AUTH_ID). */
export const RAYDIUM_CLMM_LOCK_AUTHORITY = "kN1kEznaF5Xbd8LYuqtEFcxzWSBk5Fv6ygX6SqEGJVy";

const CLMM_POSITION = { size: 281, disc: hex("466f967ee60f1975") };
const WHIRLPOOL_POSITION = { size: 216, disc: hex("aabc8fe47a40f7d0") };
const WHIRLPOOL_LOCK_CONFIG = { size: 241, disc: hex("6a2fee9f7c0ca0c0") };
const DLMM_POSITION = { size: 8120, disc: hex("75b0d4c7f5b485b6") };

/** What the security world lends these builders. */
export interface PositionWorld {
  state: WorldState;
  fund(label: string, lamports: bigint): Pubkey;
  plainMint(role: SecurityTokenRole, creator: Pubkey, name: string, symbol: string, isMutable: boolean): PlainMint;
  holderWallets(role: string, n: number): Pubkey[];
  distribute(mint: Pubkey, amount: bigint, owners: Pubkey[], weights: number[]): void;
  register(token: SecurityToken): void;
}

type Part = { pct: bigint; holder: Pubkey | null; held: PositionRow["held"]; locker: string | null; inPlace?: boolean };

/** Splits `total` by the parts' percentages, the last part taking the remainder. */
function split(total: bigint, parts: readonly Part[]): bigint[] {
  let left = total;
  return parts.map((p, i) => {
    const share = i === parts.length - 1 ? left : (total * p.pct) / 100n;
    left -= share;
    return share;
  });
}

/** A position NFT: a 0-decimal mint, its one token with `holder` (null: burnt, the supply 0 and no account). */
function positionNft(w: PositionWorld, label: string, program: Pubkey, holder: Pubkey | null): Pubkey {
  const { ctx } = w.state;
  const nftMint = w.state.key(label);
  ctx.book.writeMint({ address: nftMint, program, decimals: 0, supply: holder === null ? 0n : 1n, mintAuthority: null, freezeAuthority: null });
  if (holder !== null) ctx.createTokenAccount(holder, nftMint, 1n);
  return nftMint;
}

/**
 * The token outside the pool (`vault` holds the pool's side) to the creator and five wallets, then the token's record:
 * the pool labelled, its position rows, how many more are out of range, what their liquidity sums.
 */
function distributeAndRegister(w: PositionWorld, plain: PlainMint, vault: Pubkey, pool: Pubkey, rows: PositionRow[], outOfRange: number, measure: string): void {
  const { mint, supply, token } = plain;
  const holders = w.holderWallets(token.role, 5);
  const inPool = w.state.ctx.tokenAccount(vault).amount;
  w.distribute(mint, supply - inPool, [token.creator, ...holders], [30, ...holders.map((_, i) => 8 - i)]);
  w.register({
    ...token,
    labels: new Map<Pubkey, HolderLabel>([[pool, "pool"]]),
    launchpad: null,
    positions: { pool, rows, outOfRange, measure },
  });
}

const row = (address: Pubkey, liquidity: bigint, part: Part, holder: Pubkey): PositionRow => ({
  address,
  unlocked: part.inPlace ? 0n : liquidity,
  vested: 0n,
  // a Whirlpool position locked in place counts as the world's "permanent" liquidity: never withdrawable
  permanent: part.inPlace ? liquidity : 0n,
  holder,
  held: part.held,
  locker: part.locker,
});

/** `positions-clmm` (see the module comment). */
export function positionsClmmToken(w: PositionWorld): void {
  const { ctx, clmm } = w.state;
  const creator = w.fund("security:positions-clmm:creator", 400n * LAMPORTS);
  const plain = w.plainMint("positions-clmm", creator, "Ranged Ray", "RRAY", true);
  const { mint, supply } = plain;
  const depth = 120n * LAMPORTS;
  const pool = clmm.create({ configIndex: 2, baseMint: mint, quoteMint: WSOL_MINT, price: Number(depth) / (Number(supply) * 0.3), quoteDepth: depth, widen: 3, creator });
  const lower = tickAtSqrtPrice(pool.sqrtLower);
  const upper = tickAtSqrtPrice(pool.sqrtUpper);
  const parts: Part[] = [
    { pct: 35n, holder: RAYDIUM_CLMM_LOCK_AUTHORITY, held: "locker", locker: "raydium-lp-lock" },
    { pct: 20n, holder: null, held: "burn", locker: null },
    { pct: 10n, holder: INCINERATOR, held: "burn", locker: null },
    { pct: 35n, holder: creator, held: "free", locker: null },
  ];
  const write = (i: number, liquidity: bigint, holder: Pubkey | null, ticks: [number, number]) => {
    const nftMint = positionNft(w, `security:positions-clmm:nft:${i}`, i % 2 === 0 ? TOKEN_PROGRAM : TOKEN_2022_PROGRAM, holder);
    const address = pda(["position", keyBytes(nftMint)], RAYDIUM_CLMM_PROGRAM);
    ctx.store.putRentExempt(
      address,
      RAYDIUM_CLMM_PROGRAM,
      new FixedWriter(CLMM_POSITION.size).raw(0, CLMM_POSITION.disc).u8(8, 255).pubkey(9, nftMint).pubkey(41, pool.address).i32(73, ticks[0]).i32(77, ticks[1]).u128(81, liquidity).bytes,
    );
    return address;
  };
  const rows = split(pool.liquidity, parts).map((liquidity, i) => row(write(i, liquidity, parts[i]!.holder, [lower, upper]), liquidity, parts[i]!, parts[i]!.holder ?? INCINERATOR));
  // Out of range (above the price): liquidity nobody meets at the current price, whatever becomes of it.
  write(parts.length, pool.liquidity * 3n, null, [upper, upper + 10 * pool.config.tickSpacing]);
  distributeAndRegister(w, plain, pool.baseIs0 ? pool.vault0 : pool.vault1, pool.address, rows, 1, "in-range-liquidity");
}

/** `positions-whirlpool` (see the module comment). */
export function positionsWhirlpoolToken(w: PositionWorld): void {
  const { ctx, whirlpool } = w.state;
  if (!ctx.store.get(ORCA_WHIRLPOOLS_CONFIG)) whirlpool.genesis();
  const creator = w.fund("security:positions-whirlpool:creator", 400n * LAMPORTS);
  const plain = w.plainMint("positions-whirlpool", creator, "Swirl Shell", "SWRL", true);
  const { mint, supply } = plain;
  const depth = 140n * LAMPORTS;
  const pool = whirlpool.create({
    baseMint: mint,
    quoteMint: WSOL_MINT,
    tickSpacing: 64,
    price: Number(depth) / (Number(supply) * 0.3),
    quoteDepth: depth,
    widen: 3,
    vaultKeys: [w.state.key("security:positions-whirlpool:vault-a"), w.state.key("security:positions-whirlpool:vault-b")],
  });
  const escrow = w.state.key("security:positions-whirlpool:jupiter-lock-escrow");
  ctx.store.putRentExempt(escrow, JUPITER_LOCK_PROGRAM, new Uint8Array(288));
  const wallet = w.fund("security:positions-whirlpool:lp-wallet", LAMPORTS);
  const parts: Part[] = [
    { pct: 30n, holder: creator, held: "free", locker: null, inPlace: true },
    { pct: 20n, holder: escrow, held: "locker", locker: "jupiter-lock" },
    { pct: 15n, holder: null, held: "burn", locker: null },
    { pct: 35n, holder: wallet, held: "free", locker: null },
  ];
  const write = (i: number, liquidity: bigint, holder: Pubkey | null, ticks: [number, number], inPlace: boolean) => {
    const nftMint = positionNft(w, `security:positions-whirlpool:nft:${i}`, TOKEN_2022_PROGRAM, holder);
    const address = pda(["position", keyBytes(nftMint)], ORCA_WHIRLPOOL_PROGRAM);
    ctx.store.putRentExempt(
      address,
      ORCA_WHIRLPOOL_PROGRAM,
      new FixedWriter(WHIRLPOOL_POSITION.size).raw(0, WHIRLPOOL_POSITION.disc).pubkey(8, pool.address).pubkey(40, nftMint).u128(72, liquidity).i32(88, ticks[0]).i32(92, ticks[1]).bytes,
    );
    if (inPlace) {
      ctx.store.putRentExempt(
        pda(["lock_config", keyBytes(address)], ORCA_WHIRLPOOL_PROGRAM),
        ORCA_WHIRLPOOL_PROGRAM,
        new FixedWriter(WHIRLPOOL_LOCK_CONFIG.size).raw(0, WHIRLPOOL_LOCK_CONFIG.disc).pubkey(8, address).pubkey(40, holder!).pubkey(72, pool.address).u64(104, BigInt(ctx.clock.blockTime)).u8(112, 0).bytes,
      );
    }
    return address;
  };
  const rows = split(pool.liquidity, parts).map((liquidity, i) => row(write(i, liquidity, parts[i]!.holder, [pool.lowerTick, pool.upperTick], parts[i]!.inPlace === true), liquidity, parts[i]!, parts[i]!.holder ?? INCINERATOR));
  // Out of range (below the price), free.
  write(parts.length, pool.liquidity * 2n, wallet, [pool.lowerTick - 20 * pool.tickSpacing, pool.lowerTick], false);
  distributeAndRegister(w, plain, pool.baseIsA ? pool.vaultA : pool.vaultB, pool.address, rows, 1, "in-range-liquidity");
}

/** `positions-dlmm` (see the module comment). */
export function positionsDlmmToken(w: PositionWorld): void {
  const { ctx, dlmm } = w.state;
  const creator = w.fund("security:positions-dlmm:creator", 400n * LAMPORTS);
  const plain = w.plainMint("positions-dlmm", creator, "Binned Bay", "BBAY", true);
  const { mint, supply } = plain;
  const depth = 100n * LAMPORTS;
  const pair = dlmm.create({ baseMint: mint, quoteMint: WSOL_MINT, binStep: 80, baseFactor: 6250, preset: 21, price: Number(depth) / (Number(supply) * 0.3), quoteDepth: depth, bins: 30, creator });
  const escrow = w.state.key("security:positions-dlmm:streamflow-escrow");
  ctx.store.putRentExempt(escrow, STREAMFLOW_PROGRAM, new Uint8Array(64));
  const parts: Part[] = [
    { pct: 40n, holder: INCINERATOR, held: "burn", locker: null },
    { pct: 25n, holder: escrow, held: "locker", locker: "streamflow" },
    { pct: 15n, holder: creator, held: "free", locker: null, inPlace: true },
    { pct: 20n, holder: creator, held: "free", locker: null },
  ];
  // ten years past the world's clock: the lock outlives any run
  const releasePoint = BigInt(ctx.clock.blockTime) + 10n * 365n * 86_400n;
  // Shares in Q64.64 units of value, as the program mints them: 30 bins around the active one, the position's share
  // spread over them with a rising weight (any split: the figures sum them).
  const bins = 30;
  const lowerBin = pair.activeId - bins / 2;
  const totalShares = depth * 2n * (1n << 64n);
  const rows = split(totalShares, parts).map((shares, i) => {
    const part = parts[i]!;
    const address = w.state.key(`security:positions-dlmm:position:${i}`);
    const data = new FixedWriter(DLMM_POSITION.size).raw(0, DLMM_POSITION.disc).pubkey(8, pair.address).pubkey(40, part.holder!).i32(7912, lowerBin).i32(7916, lowerBin + 69);
    if (part.inPlace) data.u64(7992, releasePoint);
    const weights = Array.from({ length: bins }, (_, b) => BigInt(b + 1));
    const weightSum = weights.reduce((a, b) => a + b, 0n);
    let left = shares;
    weights.forEach((wt, b) => {
      const s = b === bins - 1 ? left : (shares * wt) / weightSum;
      left -= s;
      data.u128(72 + 16 * b, s);
    });
    ctx.store.putRentExempt(address, METEORA_DLMM_PROGRAM, data.bytes);
    return row(address, shares, part, part.holder!);
  });
  distributeAndRegister(w, plain, pair.baseIsX ? pair.reserveX : pair.reserveY, pair.address, rows, 0, "bin-shares");
}
