import { env } from "cloudflare:workers";
import { getAddressDecoder } from "@solana/kit";
import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { advance, chainRpc, keyAndReadableWorld, rawAccounts, tradeTruth } from "../helpers/localnet";
import { until } from "../helpers/wait";
import type { WorldManifest, WorldPool } from "../../localnet/src/world/manifest";
import type { QuoteAnswerJson } from "../../src/quote/quote-record";
import { PUMP_FEE_CONFIG_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS } from "../../src/venues/pump-fees";

/**
 * Quotes equal execution to the atom: for every pool kind of the test world (and every Meteora fee or curve setup it
 * has), both directions, sizes from dust to half of what the pool can take, the worker's quote of a pool (`poolId`) pays
 * out exactly what localnet's own venue code pays out for the same swap on the same state at the same chain time
 * (`POST /__localnet/simulate-swap` at the block time of the slot the quote read: DLMM's variable fee depends on the time
 * since the last swap, Meteora's fee schedulers on the time since activation; nothing applied).
 * localnet computes swaps in its own code, independent of the worker's.
 */
const WSOL = "So11111111111111111111111111111111111111112";
const USD_QUOTED = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
const KINDS = ["pumpfun", "pumpswap", "raydium-amm-v4", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2", "meteora-dbc", "raydium-launchlab", "orca-whirlpool"] as const;
const POOLS_PER_KIND = 2;
const SIZES_PER_DIRECTION = 5;

interface Simulated {
  base: string;
  quote: string;
  slot: number;
}

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  ({ key, manifest } = await keyAndReadableWorld());
  // the pools that open later (the adaptive-fee Whirlpool among them) open a second after the next block, and the
  // confirmed chain time passes that: every sampled pool trades
  expect((await fetch(`${env.LOCALNET_URL}/__localnet/reopen?seconds=1`, { method: "POST" })).status).toBe(200);
  const reopenedAt = await advance(1);
  await until(
    "the confirmed chain time past the openings",
    async () => {
      await advance(2);
      const confirmed = await chainRpc<number>("getSlot", [{ commitment: "confirmed" }]);
      return (confirmed > reopenedAt && (await blockTimeOf(confirmed)) > (await blockTimeOf(reopenedAt)) + 1) || undefined;
    },
    30_000,
    100,
  );
});

async function simulate(pool: string, side: "buy" | "sell", amountIn: bigint, time?: number): Promise<{ status: number; body: Simulated & { error?: string } }> {
  const at = time === undefined ? "" : `&time=${time}`;
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/simulate-swap?pool=${pool}&side=${side}&amountIn=${amountIn}${at}`, { method: "POST" });
  return { status: res.status, body: (await res.json()) as Simulated & { error?: string } };
}

/** The block time of the slot a quote read: the chain time its Clock sysvar held. */
const blockTimeOf = (slot: number) => chainRpc<number>("getBlockTime", [slot]);

/** The world's decimals of a mint: the token's own, 9 for wSOL, 6 for the dollar stablecoins. */
function decimalsOf(mint: string): number {
  if (mint === WSOL) return 9;
  if (USD_QUOTED.has(mint)) return 6;
  const token = manifest.tokens.find((t) => t.mint === mint);
  if (!token) throw new Error(`no decimals for ${mint}`);
  return token.decimals;
}

const decimal = (raw: bigint, decimals: number) => {
  const text = raw.toString().padStart(decimals + 1, "0");
  const fraction = text.slice(text.length - decimals).replace(/0+$/, "");
  return decimals === 0 ? text : `${text.slice(0, text.length - decimals)}${fraction ? `.${fraction}` : ""}`;
};

/**
 * The smallest and largest inputs localnet's venue takes, found by doubling from 1000 atoms: the first size that pays
 * anything out (dust) and the last before it refuses (or, a buy on a curve, stops buying more once every token is bought).
 */
async function rangeOf(pool: string, side: "buy" | "sell"): Promise<{ dust: bigint; depth: bigint }> {
  let amount = 1000n;
  let dust: bigint | undefined;
  let lastOut = -1n;
  for (let i = 0; i < 80 && amount < 1n << 63n; i++, amount *= 2n) {
    const sim = await simulate(pool, side, amount);
    if (sim.status !== 200) {
      if (dust !== undefined) return { dust, depth: amount / 2n };
      continue;
    }
    const out = BigInt(side === "buy" ? sim.body.base : sim.body.quote);
    if (dust !== undefined && out === lastOut) return { dust, depth: amount / 2n };
    dust ??= amount;
    lastOut = out;
  }
  expect(dust, `${pool} ${side} takes some size`).toBeDefined();
  return { dust: dust!, depth: amount / 2n };
}

/** What a quote of `size` says of itself: a walk that reads less than localnet holds answers 422 with the depth it read. */
async function depthRead(pool: WorldPool, side: "buy" | "sell", size: bigint): Promise<bigint> {
  const [unit, amount] = quoteSize(pool, side, size);
  const res = await getJson<{ error: { message: string } }>(`/api/v1/quote?ca=${pool.baseMint}&side=${side}&amount=${amount}&unit=${unit}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
  if (res.status !== 422 || !res.body.error.message.includes("depth read")) return size;
  const read = /depth read: (\d+) atoms/.exec(res.body.error.message);
  expect(read, res.body.error.message).not.toBeNull();
  return BigInt(read![1]!) < size ? BigInt(read![1]!) : size;
}

/** The quote's unit and amount for `amountIn` atoms of the input: tokens for a sell, SOL or USD for a buy. */
function quoteSize(pool: WorldPool, side: "buy" | "sell", amountIn: bigint): [string, string] {
  if (side === "sell") return ["token", decimal(amountIn, decimalsOf(pool.baseMint))];
  return pool.quoteMint === WSOL ? ["sol", decimal(amountIn, 9)] : ["usd", decimal(amountIn, 6)];
}

/** Deterministic sizes from dust to half the depth, log-spread (one per band, at a fixed pseudo-random point in it). */
function sizes(dust: bigint, depth: bigint, salt: number): bigint[] {
  const out: bigint[] = [];
  const low = Math.log(Number(dust));
  const high = Math.log(Number(depth / 2n > dust ? depth / 2n : dust));
  for (let i = 0; i < SIZES_PER_DIRECTION; i++) {
    const f = (Math.sin(salt * 7919 + i * 104729) + 1) / 2;
    const size = BigInt(Math.floor(Math.exp(low + (high - low) * ((i + f) / SIZES_PER_DIRECTION))));
    out.push(size < dust ? dust : size > depth / 2n ? depth / 2n : size);
  }
  return out;
}

/** Pools whose state the worker reads (confirmed) equals the world's (processed): no swap in between touched them. */
async function stateSettled(pool: WorldPool, confirmedSlot: number, processedSlot: number): Promise<boolean> {
  if (processedSlot <= confirmedSlot) return true;
  const trades = await tradeTruth(confirmedSlot + 1, processedSlot);
  // DAMM v1 pools share their dynamic vaults: any DAMM v1 swap moves every pool of the mint's vault
  return !trades.some((t) => t.pool === pool.address || (pool.kind === "meteora-damm-v1" && t.kind === "meteora-damm-v1"));
}

/**
 * The slot of the state a simulation ran on, at most: its own for an answer; a refusal says none, and the processed
 * slot now is at least the state it refused on (a swap on the pool after the quote's slot — an adaptive-fee Whirlpool's
 * Oracle updated later than the quote's time — is not the quote's state).
 */
async function stateSlotOf(sim: { status: number; body: Simulated }): Promise<number> {
  return sim.status === 200 ? sim.body.slot : chainRpc<number>("getSlot", [{ commitment: "processed" }]);
}

/**
 * The first pools of a kind quoted in SOL or USD, then every pool of that kind with one of Meteora's other fee and curve
 * setups: DAMM v2 compounding, time fee scheduler, dynamic fee and rate limiter pools, DLMM limit-order pairs with
 * orders in a few bins, one taking its fee in Y only ("fee-modes"), a DBC curve with a
 * fee scheduler, a DAMM v1 stable-curve pool. LaunchLab: one curve of each type still trading mid-curve (constant
 * product, fixed price, linear). Whirlpool: pools of classic fee tiers, then the adaptive-fee pool (its fee read from its
 * Oracle at the Clock's time).
 */
const FEE_SETUP_TAGS = new Set(["fee-modes", "fee-scheduler", "stable-curve"]);

function samplePools(kind: string): WorldPool[] {
  const quoted = (p: WorldPool) => p.kind === kind && (p.quoteMint === WSOL || USD_QUOTED.has(p.quoteMint));
  if (kind === "raydium-launchlab") {
    const byCurve = new Map<string, WorldPool>();
    for (const t of manifest.tokens.filter((t) => t.tags.includes("mid"))) {
      const pool = t.pools.find(quoted);
      const curve = t.details?.curveType;
      if (pool && curve !== undefined && !byCurve.has(curve)) byCurve.set(curve, pool);
    }
    return [...byCurve.values()];
  }
  const first = manifest.tokens.flatMap((t) => t.pools.filter((p) => quoted(p) && (kind !== "orca-whirlpool" || p.related.oracle === undefined))).slice(0, POOLS_PER_KIND);
  const adaptive = kind === "orca-whirlpool" ? manifest.tokens.flatMap((t) => t.pools.filter((p) => quoted(p) && p.related.oracle !== undefined)).slice(0, 1) : [];
  const setups = manifest.tokens.filter((t) => t.tags.some((tag) => FEE_SETUP_TAGS.has(tag))).flatMap((t) => t.pools.filter(quoted));
  return [...first, ...adaptive, ...setups.filter((p) => !first.includes(p))];
}

describe("localnet's simulate-swap control", () => {
  it("refuses malformed parameters (400) and a pool the world does not have (404), and applies nothing", async () => {
    const pool = samplePools("raydium-cpmm")[0]!;
    expect((await simulate("not-a-key", "buy", 1000n)).status).toBe(400);
    expect((await simulate(pool.address, "buy", 0n)).status).toBe(400);
    expect((await fetch(`${env.LOCALNET_URL}/__localnet/simulate-swap?pool=${pool.address}&side=hold&amountIn=5`, { method: "POST" })).status).toBe(400);
    expect((await simulate("11111111111111111111111111111112", "sell", 1000n)).status).toBe(404);
    // the same swap twice gives the same answer: the first changed nothing
    const [first, second] = [await simulate(pool.address, "buy", 10n ** 9n), await simulate(pool.address, "buy", 10n ** 9n)];
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });
});

describe("quotes equal localnet's execution", () => {
  it("the world has the Meteora fee and curve setups the per-kind cases add", () => {
    const tagged = (tag: string) => manifest.tokens.filter((t) => t.tags.includes(tag)).flatMap((t) => t.pools);
    expect(tagged("fee-modes").filter((p) => p.kind === "meteora-damm-v2").length, "DAMM v2 compounding, scheduler, dynamic fee, rate limiter").toBe(4);
    expect(tagged("fee-modes").filter((p) => p.kind === "meteora-dlmm").length, "DLMM limit-order pairs, fee on the input and in Y only").toBe(2);
    expect(tagged("fee-scheduler").filter((p) => p.kind === "meteora-dbc").length, "a DBC curve with a fee scheduler").toBe(1);
    expect(tagged("stable-curve").filter((p) => p.kind === "meteora-damm-v1").length, "a DAMM v1 stable pool").toBe(1);
  });

  it("a quote of each setup names what its fee follows (so the per-kind cases test the setup, not a fixed fee)", async () => {
    // Given each pool of the fee and curve setups, When a small buy is quoted, Then its walk names the setup
    const want: [string, string, RegExp][] = [
      ["fee-modes", "meteora-damm-v2", /compounded/],
      ["fee-modes", "meteora-damm-v2", /linear fee scheduler \(\d+ \/ 10⁹ now\)/],
      ["fee-modes", "meteora-damm-v2", /dynamic fee of [1-9]\d* \/ 10⁹ from the volatility/],
      ["fee-modes", "meteora-damm-v2", /rate limiter/],
      ["fee-modes", "meteora-dlmm", /limit-order pair: orders on the output side fill/],
      ["fee-modes", "meteora-dlmm", /fee is taken in Y only/],
      ["fee-scheduler", "meteora-dbc", /exponential fee scheduler/],
      ["stable-curve", "meteora-damm-v1", /StableSwap, amp 200/],
    ];
    const walks = new Map<string, string[]>();
    for (const token of manifest.tokens.filter((t) => t.tags.some((tag) => FEE_SETUP_TAGS.has(tag)))) {
      for (const pool of token.pools) {
        const [unit, amount] = quoteSize(pool, "buy", 10_000_000n);
        const res = await getJson<QuoteAnswerJson>(`/api/v1/quote?ca=${pool.baseMint}&side=buy&amount=${amount}&unit=${unit}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const tag = token.tags.find((t) => FEE_SETUP_TAGS.has(t))!;
        walks.set(`${tag} ${pool.kind}`, [...(walks.get(`${tag} ${pool.kind}`) ?? []), res.body.quotes[0]!.walk]);
      }
    }
    for (const [tag, kind, pattern] of want) expect((walks.get(`${tag} ${kind}`) ?? []).some((w) => pattern.test(w)), `${tag} ${kind} ${pattern}: ${JSON.stringify(walks.get(`${tag} ${kind}`))}`).toBe(true);
  });

  for (const kind of KINDS) {
    it(`${kind}: both directions, dust to half the depth`, async () => {
      const pools = samplePools(kind);
      expect(pools.length, `the world has ${kind} pools`).toBeGreaterThan(kind === "raydium-launchlab" ? 2 : 0);
      let compared = 0;
      let refusedBoth = 0;
      // Whirlpool: quotes whose price moved over 5% crossed the initialized ticks of the world's narrow position (±4.6%)
      let farMoves = 0;
      // adaptive-fee Whirlpool: quotes whose price moved across several tick groups (tick_group_size u16 @62 of the Oracle)
      // and whose fee is above the static rate (the volatility the swap itself causes)
      let adaptiveMoves = 0;
      // DLMM limit-order pairs: quotes whose protocol fee is above its share of the liquidity's fee (protocol_share
      // 500 / 10⁴ of the pair, u16 @32) took the orders' half of the fee on what orders filled
      let orderFills = 0;
      for (const [p, pool] of pools.entries()) {
        // the pool's static fee_rate (u16 @45) and its Oracle's tick_group_size (u16 @62)
        const [state, oracle] = kind !== "orca-whirlpool" || pool.related.oracle === undefined ? [null, null] : (await rawAccounts([pool.address, pool.related.oracle])).data;
        const u16At = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset).getUint16(at, true);
        const [staticRate, tickGroupSize] = state && oracle ? [BigInt(u16At(state, 45)), u16At(oracle, 62)] : [0n, 0];
        for (const side of ["buy", "sell"] as const) {
          const range = await rangeOf(pool.address, side);
          const depth = await depthRead(pool, side, range.depth);
          for (const amountIn of sizes(range.dust, depth, p * 2 + (side === "buy" ? 0 : 1))) {
            // Given the pool's state, When the worker quotes the exact input
            const [unit, amount] = quoteSize(pool, side, amountIn);
            for (let attempt = 0; attempt < 5; attempt++) {
              const res = await getJson<QuoteAnswerJson>(`/api/v1/quote?ca=${pool.baseMint}&side=${side}&amount=${amount}&unit=${unit}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
              const sim = await simulate(pool.address, side, amountIn, res.status === 200 ? await blockTimeOf(res.body.slot) : undefined);
              if (res.status === 200 && !(await stateSettled(pool, res.body.slot, await stateSlotOf(sim)))) {
                await advance(1);
                continue;
              }
              // Then localnet's own swap pays out exactly the quoted amount (or both refuse)
              const label = `${kind} ${pool.address} ${side} ${amountIn}: ${JSON.stringify(res.body)} vs ${JSON.stringify(sim.body)}`;
              if (sim.status === 409) {
                expect(res.status, label).not.toBe(200);
                refusedBoth++;
              } else {
                expect(res.status, label).toBe(200);
                const quote = res.body.quotes[0]!;
                const [wantOut, wantIn] = side === "buy" ? [sim.body.base, sim.body.quote] : [sim.body.quote, sim.body.base];
                expect(quote.amountOut.raw, label).toBe(wantOut);
                expect(quote.amountIn.raw, label).toBe(wantIn);
                if (kind === "meteora-dlmm") {
                  const [protocol, lp] = (["protocol", "lp"] as const).map((k) => quote.fees.filter((f) => f.kind === k).reduce((sum, f) => sum + BigInt(f.raw), 0n));
                  if (protocol! * 20n > protocol! + lp! + 20n) orderFills++;
                }
                const moved = Number(quote.priceAfter) / Number(quote.spotPrice);
                if (moved > 1.05 || moved < 0.95) farMoves++;
                if (tickGroupSize > 0 && Math.abs(Math.log(moved)) > 3 * tickGroupSize * Math.log(1.0001)) {
                  const fee = quote.fees.filter((f) => f.kind === "lp" || f.kind === "protocol").reduce((sum, f) => sum + BigInt(f.raw), 0n);
                  const staticFee = (BigInt(quote.amountIn.raw) * staticRate) / 1_000_000n;
                  expect(fee > staticFee, `${label}: fee ${fee} above the static rate's ${staticFee}`).toBe(true);
                  adaptiveMoves++;
                }
              }
              compared++;
              break;
            }
          }
        }
      }
      // an adaptive-fee Whirlpool's receipt names the Oracle and the Clock it read and the fee rates its walk used
      const adaptivePool = kind === "orca-whirlpool" ? pools.find((p) => p.related.oracle !== undefined) : undefined;
      if (adaptivePool) {
        const [unit, amount] = quoteSize(adaptivePool, "buy", 10n ** 8n);
        const res = await getJson<QuoteAnswerJson>(`/api/v1/quote?ca=${adaptivePool.baseMint}&side=buy&amount=${amount}&unit=${unit}&poolId=${adaptivePool.address}&receipt=true`, { headers: { "x-api-key": key } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const entry = res.body.receipt!.pools[0]!;
        const roles = Object.fromEntries(entry.accounts.map((a) => [a.role, a.address]));
        expect(roles.oracle, JSON.stringify(entry.accounts)).toBe(adaptivePool.related.oracle);
        expect(roles.clock).toBe("SysvarC1ock11111111111111111111111111111111");
        expect(entry.swap).toMatch(/fee rate \d+( to \d+)? millionths: the static \d+ plus the adaptive fee of Oracle \w+ at Clock unix time \d+/);
      }
      // nearly every size is a swap both sides executed, not a refusal both agree on
      expect(compared - refusedBoth).toBeGreaterThanOrEqual(pools.length * 2 * SIZES_PER_DIRECTION - 2);
      if (kind === "meteora-dlmm") expect(orderFills, "DLMM quotes that filled limit orders").toBeGreaterThan(0);
      if (kind === "orca-whirlpool") expect(farMoves, "Whirlpool quotes that crossed initialized ticks").toBeGreaterThan(0);
      if (kind === "orca-whirlpool") expect(adaptiveMoves, "adaptive-fee Whirlpool quotes across several tick groups").toBeGreaterThan(0);
    });
  }

  for (const kind of KINDS) {
    it(`${kind}: a fixed output costs the least input localnet turns into at least that much`, async () => {
      const pool = samplePools(kind)[0]!;
      let compared = 0;
      for (const side of ["buy", "sell"] as const) {
        const range = await rangeOf(pool.address, side);
        const depth = await depthRead(pool, side, range.depth);
        // Given an output localnet gives for a mid-size input
        const probe = await simulate(pool.address, side, sizes(range.dust, depth, 3)[2]!);
        if (probe.status !== 200) continue;
        const target = BigInt(side === "buy" ? probe.body.base : probe.body.quote);
        const outMint = side === "buy" ? pool.baseMint : pool.quoteMint;
        const [unit, amount] = side === "buy" ? ["token", decimal(target, decimalsOf(outMint))] : outMint === WSOL ? ["sol", decimal(target, 9)] : ["usd", decimal(target, 6)];
        for (let attempt = 0; attempt < 5; attempt++) {
          // When the worker quotes that output (on the state localnet has: none of its swaps since the worker's read)
          const res = await getJson<QuoteAnswerJson>(`/api/v1/quote?ca=${pool.baseMint}&side=${side}&amount=${amount}&unit=${unit}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
          const readAt = res.status === 200 ? res.body.slot : probe.body.slot - 1;
          const input = res.status === 200 ? BigInt(res.body.quotes[0]!.amountIn.raw) : 1n;
          const time = res.status === 200 ? await blockTimeOf(res.body.slot) : undefined;
          const enough = await simulate(pool.address, side, input, time);
          if (!(await stateSettled(pool, readAt, enough.body.slot ?? probe.body.slot))) {
            await advance(1);
            continue;
          }
          expect(res.status, `${side} ${unit} ${amount} (probe ${JSON.stringify(probe.body)}): ${JSON.stringify(res.body)}`).toBe(200);
          const quote = res.body.quotes[0]!;
          expect(quote.exactOutput).toBe(true);
          // Then localnet gives at least the output for that input, exactly the quoted amount, and less for one atom less
          const got = (r: Awaited<ReturnType<typeof simulate>>) => (r.status !== 200 ? -1n : BigInt(side === "buy" ? r.body.base : r.body.quote));
          // (BigInts compared as booleans with the numbers in the message: vitest's report cannot serialize a BigInt)
          const out = got(enough);
          expect(out >= target, `${out} ≥ ${target}`).toBe(true);
          expect(out.toString()).toBe(quote.amountOut.raw);
          const less = got(await simulate(pool.address, side, input - 1n, time));
          expect(less < target, `one atom less in gives ${less}, under the wanted ${target}`).toBe(true);
          compared++;
          break;
        }
      }
      expect(compared).toBe(2);
    });
  }
});

/**
 * The pump programs charge the fee config's tier for the market cap before the swap (pump-fees; the world's fee configs
 * hold several tiers). Pools of the world in different tiers: each quote equals localnet's execution, and its fees are
 * the rates of the tier this test reads from the chain itself (the fee config's bytes, the pool's reserves, the mint's
 * supply), not from the worker.
 */
describe("pump fee tiers: quotes on pools in different market-cap tiers equal localnet's execution", () => {
  const FEE_CONFIG = { pumpfun: PUMP_FEE_CONFIG_ADDRESS, pumpswap: PUMPSWAP_FEE_CONFIG_ADDRESS } as const;
  type Rates = { lp: bigint; protocol: bigint; creator: bigint };
  type Tier = { threshold: bigint; rates: Rates };

  async function accountsNow(addresses: string[]): Promise<{ slot: number; data: Uint8Array[] }> {
    const res = await chainRpc<{ context: { slot: number }; value: ({ data: [string, string] } | null)[] }>("getMultipleAccounts", [addresses, { encoding: "base64", commitment: "processed" }]);
    return { slot: res.context.slot, data: res.value.map((v, i) => {
      if (!v) throw new Error(`no account ${addresses[i]}`);
      return Uint8Array.from(atob(v.data[0]), (c) => c.charCodeAt(0));
    }) };
  }
  const u64 = (d: Uint8Array, at: number) => new DataView(d.buffer, d.byteOffset).getBigUint64(at, true);
  const keyAt = (d: Uint8Array, at: number) => getAddressDecoder().decode(d, at);

  /** The SOL-quoted schedule of a FeeConfig: u32 count @65, then (u128 threshold, lp, protocol, creator u64) per tier. */
  function solTiers(d: Uint8Array): Tier[] {
    const count = new DataView(d.buffer, d.byteOffset).getUint32(65, true);
    return Array.from({ length: count }, (_, i) => {
      const at = 69 + 40 * i;
      return { threshold: u64(d, at) + (u64(d, at + 8) << 64n), rates: { lp: u64(d, at + 16), protocol: u64(d, at + 24), creator: u64(d, at + 32) } };
    });
  }
  /** The tier a market cap falls in: the last whose threshold it reaches, the first below every threshold. */
  const tierIndex = (tiers: Tier[], cap: bigint) => tiers.reduce((chosen, t, i) => (cap >= t.threshold ? i : chosen), 0);

  /** The pool's market cap from the chain (curve: vqr·10^15/vtr; PumpSwap: (quote vault + virtual)·supply/base vault), or undefined when it cannot trade. */
  async function marketCap(kind: "pumpfun" | "pumpswap", pool: WorldPool): Promise<{ slot: number; cap: bigint } | undefined> {
    if (kind === "pumpfun") {
      const { slot, data: [curve] } = await accountsNow([pool.address]);
      if (curve![48] !== 0 || curve![81] !== 0) return undefined; // complete, or mayhem mode (the world has none)
      return { slot, cap: (u64(curve!, 16) * 10n ** 15n) / u64(curve!, 8) };
    }
    const { data: [state] } = await accountsNow([pool.address]);
    const { slot, data: [baseVault, quoteVault, mint] } = await accountsNow([keyAt(state!, 139), keyAt(state!, 171), pool.baseMint]);
    const virtual = state!.length >= 261 ? u64(state!, 245) + (u64(state!, 253) << 64n) : 0n;
    return { slot, cap: ((u64(quoteVault!, 64) + virtual) * u64(mint!, 36)) / u64(baseVault!, 64) };
  }

  for (const kind of ["pumpfun", "pumpswap"] as const) {
    it(`${kind}: pools in at least two tiers, both directions, each at its tier's rates`, async () => {
      const { data: [config] } = await accountsNow([FEE_CONFIG[kind]]);
      const tiers = solTiers(config!);
      expect(tiers.length, "the world's fee config has several tiers").toBeGreaterThan(1);
      // Given one pool per tier the world's SOL-quoted pools of the kind fall in
      const byTier = new Map<number, WorldPool>();
      for (const pool of manifest.tokens.flatMap((t) => t.pools.filter((p) => p.kind === kind && p.quoteMint === WSOL))) {
        const now = await marketCap(kind, pool);
        if (now && !byTier.has(tierIndex(tiers, now.cap))) byTier.set(tierIndex(tiers, now.cap), pool);
      }
      expect(byTier.size, `tiers of the world's ${kind} pools: ${[...byTier.keys()].join(", ")}`).toBeGreaterThanOrEqual(2);
      let compared = 0;
      for (const pool of [...byTier.values()].slice(0, 3)) {
        for (const side of ["buy", "sell"] as const) {
          const amountIn = side === "buy" ? 50_000_000n : 10_000_000_000n; // 0.05 SOL; 10 000 tokens of 6 decimals
          for (let attempt = 0; attempt < 5; attempt++) {
            // When the worker quotes it, on the state whose market cap this test read
            const before = (await marketCap(kind, pool))!;
            const [unit, amount] = quoteSize(pool, side, amountIn);
            const res = await getJson<QuoteAnswerJson>(`/api/v1/quote?ca=${pool.baseMint}&side=${side}&amount=${amount}&unit=${unit}&poolId=${pool.address}`, { headers: { "x-api-key": key } });
            const sim = await simulate(pool.address, side, amountIn, res.status === 200 ? await blockTimeOf(res.body.slot) : undefined);
            if (res.status === 200 && !(await stateSettled(pool, Math.min(res.body.slot, before.slot), await stateSlotOf(sim)))) {
              await advance(1);
              continue;
            }
            // Then localnet's swap pays out exactly the quote, and the fees are the tier's rates of the swap's quote amount
            const label = `${kind} ${pool.address} ${side} ${amountIn} (tier ${tierIndex(tiers, before.cap)}, market cap ${before.cap}): ${JSON.stringify(res.body)} vs ${JSON.stringify(sim.body)}`;
            expect(res.status, label).toBe(200);
            expect(sim.status, label).toBe(200);
            const quote = res.body.quotes[0]!;
            const [wantOut, wantIn] = side === "buy" ? [sim.body.base, sim.body.quote] : [sim.body.quote, sim.body.base];
            expect(quote.amountOut.raw, label).toBe(wantOut);
            expect(quote.amountIn.raw, label).toBe(wantIn);
            const fee = (k: string) => BigInt(quote.fees.find((f) => f.kind === k)?.raw ?? "0");
            const charged = fee("lp") + fee("protocol") + fee("creator");
            // the quote amount the fees are taken on: a buy's cost before fees, a sell's proceeds before fees
            const traded = side === "buy" ? BigInt(quote.amountIn.raw) - charged : BigInt(quote.amountOut.raw) + charged;
            const rates = tiers[tierIndex(tiers, before.cap)]!.rates;
            const at = (bps: bigint) => (traded * bps + 9_999n) / 10_000n;
            expect([fee("lp"), fee("protocol"), fee("creator")].map(String), label).toEqual([kind === "pumpswap" ? at(rates.lp) : 0n, at(rates.protocol), at(rates.creator)].map(String));
            compared++;
            break;
          }
        }
      }
      expect(compared).toBe(Math.min(byTier.size, 3) * 2);
    });
  }
});
