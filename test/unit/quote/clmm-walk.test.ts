import { describe, expect, it } from "vitest";
import { address, getAddressEncoder, type Address } from "@solana/kit";
import { raydiumClmmQuoter } from "../../../src/quote/clmm-quoter";
import type { QuoteContext } from "../../../src/quote/pool-quoter";
import { findProgramAddressSync } from "../../../src/solana/program-address";
import { RAYDIUM_CLMM_PROGRAM_ADDRESS } from "../../../src/solana/well-known";
import { raydiumSqrtPriceAtTick } from "../../../src/quote/swap-math";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";

/**
 * The CLMM walk across initialized ticks, on accounts built field by field in the program's layouts (PoolState 1544 B,
 * AmmConfig 117 B, TickArrayState 10240 B): crossing a tick changes the liquidity by its liquidity_net, the walk stops
 * at the arrays read, and a walk over 10 arrays of fully initialized ticks stays inside the CPU budget of a quote.
 */
const POOL = address("AcPS8SrzXDwPxk6LLz2tykwFEsSeD5LtctMLVeh2shq8");
const CONFIG = address("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");
const MINT0 = address("So11111111111111111111111111111111111111112");
const MINT1 = address("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
const SPACING = 10;
const keyBytes = (a: Address) => getAddressEncoder().encode(a);

function poolAccount(tick: number, liquidity: bigint): AccountBytes {
  const data = new Uint8Array(1544);
  const view = new DataView(data.buffer);
  data.set([0xf7, 0xed, 0xe3, 0xf5, 0xd7, 0xc3, 0xde, 0x46], 0);
  data.set(keyBytes(CONFIG), 9);
  data.set(keyBytes(MINT0), 73);
  data.set(keyBytes(MINT1), 105);
  data[233] = 9;
  data[234] = 6;
  view.setUint16(235, SPACING, true);
  view.setBigUint64(237, liquidity & ((1n << 64n) - 1n), true);
  view.setBigUint64(245, liquidity >> 64n, true);
  const sqrt = raydiumSqrtPriceAtTick(tick) + 1000n; // inside the tick, not on it
  view.setBigUint64(253, sqrt & ((1n << 64n) - 1n), true);
  view.setBigUint64(261, sqrt >> 64n, true);
  view.setInt32(269, tick, true);
  return { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data };
}

function configAccount(tradeRate: number): AccountBytes {
  const data = new Uint8Array(117);
  new DataView(data.buffer).setUint32(47, tradeRate, true);
  return { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data };
}

/** A tick array starting at `start` with the given initialized ticks (tick → liquidity_net). */
function tickArray(start: number, nets: Map<number, bigint>): AccountBytes {
  const data = new Uint8Array(10240);
  const view = new DataView(data.buffer);
  data.set(keyBytes(POOL), 8);
  view.setInt32(40, start, true);
  for (let i = 0; i < 60; i++) {
    const tick = start + i * SPACING;
    const net = nets.get(tick);
    if (net === undefined) continue;
    const at = 44 + i * 168;
    view.setInt32(at, tick, true);
    const unsigned = net < 0n ? (1n << 128n) + net : net;
    view.setBigUint64(at + 4, unsigned & ((1n << 64n) - 1n), true);
    view.setBigUint64(at + 12, unsigned >> 64n, true);
    view.setBigUint64(at + 20, 1n, true); // liquidity_gross ≠ 0: initialized
  }
  return { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data };
}

const arrayAddress = (start: number) => {
  const seed = new Uint8Array(4);
  new DataView(seed.buffer).setInt32(0, start, false);
  return findProgramAddressSync(RAYDIUM_CLMM_PROGRAM_ADDRESS, ["tick_array", keyBytes(POOL) as Uint8Array, seed])[0];
};

/** The quoter of a pool at `tick` whose arrays (down from the current one) hold `nets`; other arrays absent. */
function quoter(tick: number, liquidity: bigint, nets: Map<number, bigint>) {
  const accounts = new Map<string, AccountBytes | null>([[CONFIG, configAccount(2500)]]);
  const span = SPACING * 60;
  const first = Math.floor(tick / span) * span;
  for (let i = 0; i < 10; i++) accounts.set(arrayAddress(first - i * span), tickArray(first - i * span, nets));
  const context: QuoteContext = { mint: MINT0, inputMint: MINT0, slot: 0, lookup: (a) => accounts.get(a) ?? null };
  return raydiumClmmQuoter.build(POOL, poolAccount(tick, liquidity), context);
}

describe("the CLMM tick walk", () => {
  const L = 10n ** 15n;
  it("crossing a tick whose liquidity_net removes liquidity gives less than the same swap at constant liquidity", () => {
    // Given one initialized tick 50 ticks below the price, removing half the liquidity when crossed downwards
    const crossing = quoter(1005, L, new Map([[950, L / 2n]]));
    const flat = quoter(1005, L, new Map());
    // When a small swap stays above it, Then both pools pay the same
    const small = 10n ** 9n;
    const a = crossing.exactIn(MINT0, small);
    const b = flat.exactIn(MINT0, small);
    expect(a.ok && b.ok && a.swap.amountOut === b.swap.amountOut).toBe(true);
    // When a large swap crosses it, Then the thinner liquidity below pays less, and the price falls further
    const large = 10n ** 13n;
    const c = crossing.exactIn(MINT0, large);
    const d = flat.exactIn(MINT0, large);
    expect(c.ok && d.ok).toBe(true);
    if (!c.ok || !d.ok) return;
    expect(c.swap.amountOut).toBeLessThan(d.swap.amountOut);
    expect(c.swap.priceAfter.num * d.swap.priceAfter.den).toBeLessThan(d.swap.priceAfter.num * c.swap.priceAfter.den);
  });

  it("amount out never falls as the input grows across the tick", () => {
    const crossing = quoter(1005, L, new Map([[950, L / 2n]]));
    let last = 0n;
    for (let amount = 10n ** 9n; amount < 10n ** 14n; amount = (amount * 13n) / 10n) {
      const result = crossing.exactIn(MINT0, amount);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.swap.amountOut).toBeGreaterThanOrEqual(last);
      last = result.swap.amountOut;
    }
  });

  it("a swap past the 10 arrays read is refused with the input they can take", () => {
    const result = quoter(1005, L, new Map()).exactIn(MINT0, 10n ** 30n);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toContain("past the 10 tick arrays read");
    expect(result.depth).toBeGreaterThan(0n);
  });

  it("walks 600 initialized ticks over 10 arrays within the 10 ms a quote may spend", () => {
    // Given every tick of the 10 arrays below the price initialized (small nets keep the liquidity positive)
    const span = SPACING * 60;
    const nets = new Map<number, bigint>();
    for (let t = 1000 - 9 * span; t <= 1000; t += SPACING) nets.set(t, 10n ** 9n);
    const walker = quoter(1005, L, nets);
    const depth = walker.exactIn(MINT0, 10n ** 30n);
    expect(depth.ok).toBe(false);
    const almostAll = (depth as { depth: bigint }).depth - 1n;
    // When the swap walks through all of them (best of 5), timed in CPU time — what the budget counts — so other work
    // on a shared machine does not count against it
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.cpuUsage();
      const result = walker.exactIn(MINT0, almostAll);
      const used = process.cpuUsage(started);
      best = Math.min(best, (used.user + used.system) / 1000);
      expect(result.ok).toBe(true);
    }
    expect(best).toBeLessThan(10);
  });
});
