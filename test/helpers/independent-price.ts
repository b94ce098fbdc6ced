import { getAddressDecoder } from "@solana/kit";
import { advance, rawAccounts } from "./localnet";

/**
 * Spot prices computed straight from raw account bytes with the offsets of VENUES.md, in floating point — written apart
 * from src/venues on purpose, so a test compares two independent readings of the same chain state.
 */
const addr = getAddressDecoder();
const u8 = (b: Uint8Array, o: number) => b[o]!;
const u16 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getUint16(o, true);
const i32 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getInt32(o, true);
const u64 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getBigUint64(o, true);
const i64 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getBigInt64(o, true);
const u128 = (b: Uint8Array, o: number) => u64(b, o) + (u64(b, o + 8) << 64n);
const key = (b: Uint8Array, o: number) => addr.decode(b.subarray(o, o + 32)) as string;
const tokenAmount = (b: Uint8Array) => u64(b, 64);
const mintDecimals = (b: Uint8Array) => u8(b, 44);
const Q64 = 2 ** 64;

export interface IndependentPrice {
  slot: number;
  /** human units of `quoteMint` per 1 human unit of the mint asked for */
  price: number;
  quoteMint: string;
}

/** Slots seen by the reads of one computation: the result is only meaningful when they are all the same. */
let slotsSeen: number[] = [];

/** Where a computation reads accounts: localnet at `confirmed` by default, or what a caller serves (a receipt's accounts). */
export type AccountSource = (addresses: string[]) => Promise<{ slot: number; data: (Uint8Array | null)[] }>;
let source: AccountSource = rawAccounts;

async function read(addresses: string[]) {
  const r = await source(addresses);
  slotsSeen.push(r.slot);
  return { slot: r.slot, get: (i: number) => r.data[i]! };
}

async function decimalsOf(mints: string[]): Promise<number[]> {
  const r = await read(mints);
  return mints.map((_, i) => mintDecimals(r.get(i)));
}

/**
 * Price of `mint` from pool `pool` of `kind`. Orientation: the pool's pair is turned so that `mint` is the base. Accounts
 * come from `from` (localnet by default): the receipt test serves only the accounts a receipt names.
 */
export async function independentPrice(kind: string, pool: string, mint: string, from: AccountSource = rawAccounts): Promise<IndependentPrice> {
  source = from;
  try {
    return await priceFromAccounts(kind, pool, mint);
  } finally {
    source = rawAccounts;
  }
}

async function priceFromAccounts(kind: string, pool: string, mint: string): Promise<IndependentPrice> {
  slotsSeen = [];
  const first = await read([pool]);
  const p = first.get(0);
  let base: string, quote: string, quotePerBase: number, slot = first.slot;
  switch (kind) {
    case "pumpfun": {
      const quoteMint = p.length >= 115 ? key(p, 83) : "11111111111111111111111111111111";
      const q = quoteMint === "11111111111111111111111111111111" ? "So11111111111111111111111111111111111111112" : quoteMint;
      const [dm, dq] = await decimalsOf([mint, q]);
      base = mint;
      quote = q;
      quotePerBase = Number(u64(p, 16)) / 10 ** dq! / (Number(u64(p, 8)) / 10 ** dm!);
      break;
    }
    case "pumpswap": {
      base = key(p, 43);
      quote = key(p, 75);
      const r = await read([key(p, 139), key(p, 171), base, quote]);
      slot = r.slot;
      // The program trades against quote vault + virtual_quote_reserves (i128 LE @245; absent on pools shorter than 261 B).
      const virtualQuote = p.length >= 261 ? BigInt.asIntN(128, u128(p, 245)) : 0n;
      const effectiveQuote = Number(tokenAmount(r.get(1)) + virtualQuote);
      quotePerBase = effectiveQuote / 10 ** mintDecimals(r.get(3)) / (Number(tokenAmount(r.get(0))) / 10 ** mintDecimals(r.get(2)));
      break;
    }
    case "raydium-amm-v4": {
      base = key(p, 400);
      quote = key(p, 432);
      const r = await read([key(p, 336), key(p, 368)]);
      slot = r.slot;
      const coin = Number(tokenAmount(r.get(0)) - u64(p, 192));
      const pc = Number(tokenAmount(r.get(1)) - u64(p, 200));
      quotePerBase = pc / 10 ** Number(u64(p, 40)) / (coin / 10 ** Number(u64(p, 32)));
      break;
    }
    case "raydium-cpmm": {
      base = key(p, 168);
      quote = key(p, 200);
      const r = await read([key(p, 72), key(p, 104)]);
      slot = r.slot;
      const fees0 = u64(p, 341) + u64(p, 357) + u64(p, 397);
      const fees1 = u64(p, 349) + u64(p, 365) + u64(p, 405);
      const reserve0 = Number(tokenAmount(r.get(0)) - fees0);
      const reserve1 = Number(tokenAmount(r.get(1)) - fees1);
      quotePerBase = (reserve1 / reserve0) * 10 ** (u8(p, 331) - u8(p, 332));
      break;
    }
    case "raydium-clmm": {
      base = key(p, 73);
      quote = key(p, 105);
      quotePerBase = (Number(u128(p, 253)) / Q64) ** 2 * 10 ** (u8(p, 233) - u8(p, 234));
      break;
    }
    case "meteora-dlmm": {
      base = key(p, 88);
      quote = key(p, 120);
      const [dx, dy] = await decimalsOf([base, quote]);
      quotePerBase = (1 + u16(p, 80) / 10_000) ** i32(p, 76) * 10 ** (dx! - dy!);
      break;
    }
    case "meteora-damm-v2": {
      base = key(p, 168);
      quote = key(p, 200);
      const [da, db] = await decimalsOf([base, quote]);
      quotePerBase = (Number(u128(p, 456)) / Q64) ** 2 * 10 ** (da! - db!);
      break;
    }
    case "meteora-dbc": {
      base = key(p, 136);
      const config = (await read([key(p, 72)])).get(0);
      quote = key(config, 8);
      const [db, dq] = await decimalsOf([base, quote]);
      quotePerBase = (Number(u128(p, 280)) / Q64) ** 2 * 10 ** (db! - dq!);
      break;
    }
    case "meteora-damm-v1": {
      base = key(p, 40);
      quote = key(p, 72);
      const aVault = key(p, 104), bVault = key(p, 136);
      const r = await read([aVault, bVault, key(p, 168), key(p, 200), base, quote]);
      slot = r.slot;
      const now = BigInt(Math.floor(Date.now() / 1000));
      const held = (vault: Uint8Array, lp: Uint8Array, lpSupply: bigint) => {
        // unlocked = total − locked_profit·(1 − elapsed·degradation/1e12)
        const total = u64(vault, 11);
        const locked = u64(vault, 1203);
        const lastReport = u64(vault, 1211);
        const degradation = u64(vault, 1219);
        const ratioE12 = (now - lastReport) * degradation;
        const stillLocked = ratioE12 >= 1_000_000_000_000n ? 0n : (locked * (1_000_000_000_000n - ratioE12)) / 1_000_000_000_000n;
        return Number(total - stillLocked) * (Number(tokenAmount(lp)) / Number(lpSupply));
      };
      const lpMints = await read([key(r.get(0), 115), key(r.get(1), 115)]);
      const a = held(r.get(0), r.get(2), u64(lpMints.get(0), 36));
      const b = held(r.get(1), r.get(3), u64(lpMints.get(1), 36));
      if (u8(p, 874) !== 0) throw new Error("stable DAMM v1 pools are not computed independently here");
      quotePerBase = b / 10 ** mintDecimals(r.get(5)) / (a / 10 ** mintDecimals(r.get(4)));
      break;
    }
    case "raydium-launchlab": {
      // PoolState: status @17, decimals @18/@19, virtual_base/quote @37/@45, real_base/quote @53/@61, global_config
      // @141, base/quote mint @205/@237; GlobalConfig curve_type @16 (0 constant product, 1 fixed, 2 linear Q64 slope)
      base = key(p, 205);
      quote = key(p, 237);
      const curve = u8((await read([key(p, 141)])).get(0), 16);
      const [vb, vq, rb, rq] = [u64(p, 37), u64(p, 45), u64(p, 53), u64(p, 61)].map(Number) as [number, number, number, number];
      const raw = curve === 0 ? (vq + rq) / (vb - rb) : curve === 1 ? vq / vb : (vb * rb) / Q64;
      quotePerBase = raw * 10 ** (u8(p, 18) - u8(p, 19));
      break;
    }
    case "orca-whirlpool": {
      // Whirlpool: sqrt_price Q64.64 @65, token_mint_a @101, token_mint_b @181
      base = key(p, 101);
      quote = key(p, 181);
      const [da, db] = await decimalsOf([base, quote]);
      quotePerBase = (Number(u128(p, 65)) / Q64) ** 2 * 10 ** (da! - db!);
      break;
    }
    default:
      throw new Error(`no independent computation for ${kind}`);
  }
  // A block landed between two reads: report no slot, so the caller reads again.
  if (new Set(slotsSeen).size > 1) slot = -1;
  if (base === mint) return { slot, price: quotePerBase, quoteMint: quote };
  if (quote === mint) return { slot, price: 1 / quotePerBase, quoteMint: base };
  throw new Error(`pool ${pool} does not trade ${mint}`);
}

/** SOL/USD from the Pyth PriceUpdateV2 at its mainnet address: price × 10^expo, with its publish time. */
export async function independentSolUsd(): Promise<{ price: number; publishTime: number; slot: number }> {
  const r = await rawAccounts([PYTH_SOL_USD]);
  return { ...solUsdOfPriceUpdate(r.data[0]!), slot: r.slot };
}

export const PYTH_SOL_USD = "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE";

/** SOL/USD of a Pyth PriceUpdateV2's bytes: price × 10^expo, with its publish time. */
export function solUsdOfPriceUpdate(d: Uint8Array): { price: number; publishTime: number } {
  const o = u8(d, 40) === 1 ? 41 : 42; // verification level: Full = 1 byte, Partial = 2
  return { price: Number(i64(d, o + 32)) * 10 ** i32(d, o + 48), publishTime: Number(i64(d, o + 52)) };
}

/**
 * In manual mode the chain only moves when a test advances it, so the Pyth update ages with the wall clock; the worker
 * (rightly) stops trusting it after 60 s. Tests that check oracle-based prices produce one slot when it is getting old.
 */
export async function ensureFreshOracle(maxAgeSeconds = 30): Promise<void> {
  const { publishTime } = await independentSolUsd();
  if (Date.now() / 1000 - publishTime > maxAgeSeconds) await advance(1);
}
