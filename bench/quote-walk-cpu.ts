// CPU per quote, in Node's V8, the quoter built fresh each time (accounts decoded, PDAs derived) and its swap run:
// 1. the longest walks: DLMM across all 10 bin arrays a quote reads (700 bins, each crossed with its variable fee),
//    CLMM across 10 tick arrays of fully initialized ticks (600 crossed), Whirlpool across the 3 tick arrays one swap
//    can cross (the program's limit: its swap tick sequence holds three), every tick initialized (264 crossed);
// 2. with BASE_URL, LOCALNET_URL and API_KEY (bench/run.sh): every pool kind on a pool of the test world, the accounts
//    being those the worker's own quote receipt names (read back from localnet), the size the quote bench uses.
// The budget: ≤ 10 ms for a walk across 10 tick or bin arrays.
import { address, getAddressEncoder, type Address } from "@solana/kit";
import { raydiumClmmQuoter } from "../src/quote/clmm-quoter";
import { dlmmBinArrayAddress, dlmmPriceFromId, meteoraDlmmQuoter } from "../src/quote/dlmm-quoter";
import type { PoolQuoter, QuoterSpec } from "../src/quote/pool-quoter";
import { quoterByKind } from "../src/quote/quoters";
import { orcaSqrtPriceAtTick, raydiumSqrtPriceAtTick } from "../src/quote/swap-math";
import { orcaWhirlpoolQuoter, whirlpoolTickArrayAddress, whirlpoolWalkStarts } from "../src/quote/whirlpool-quoter";
import { findProgramAddressSync } from "../src/solana/program-address";
import { METEORA_DLMM_PROGRAM_ADDRESS, ORCA_WHIRLPOOL_PROGRAM_ADDRESS, RAYDIUM_CLMM_PROGRAM_ADDRESS } from "../src/solana/well-known";
import type { AccountBytes } from "../src/solana/accounts/account-shape";
import type { PoolKind } from "../src/venues/pool-kinds";

/** CPU ms of `run` over 200 runs after 30 warm-up runs: p50 and p99. */
function cpu(run: () => void): { p50: string; p99: string } {
  for (let i = 0; i < 30; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!.toFixed(2);
  return { p50: at(50), p99: at(99) };
}
const u128 = (view: DataView, at: number, value: bigint) => {
  const unsigned = value < 0n ? (1n << 128n) + value : value;
  view.setBigUint64(at, unsigned & ((1n << 64n) - 1n), true);
  view.setBigUint64(at + 8, unsigned >> 64n, true);
};

const PAIR = address("EtAdVRLFH22rjWh3mcUasKFF27WtHhsaCvK27tPFFWig");
const X = address("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");
const Y = address("So11111111111111111111111111111111111111112");
const CLOCK = address("SysvarC1ock11111111111111111111111111111111");
const BIN_STEP = 25;
const NOW = 1_800_000_000n;
const bytesOf = (a: Address) => getAddressEncoder().encode(a);

const pair = new Uint8Array(904);
const pv = new DataView(pair.buffer);
pair.set([0x21, 0x0b, 0x31, 0x62, 0xb5, 0x65, 0xb1, 0x0d], 0);
pv.setUint16(8, 4000, true);
pv.setUint16(10, 30, true);
pv.setUint16(12, 600, true);
pv.setUint16(14, 5000, true);
pv.setUint32(16, 7500, true);
pv.setUint32(20, 350_000, true);
pv.setUint16(32, 500, true);
pv.setInt32(48, 69, true);
pv.setBigInt64(56, NOW - 100n, true);
pv.setInt32(76, 69, true);
pv.setUint16(80, BIN_STEP, true);
pair.set(bytesOf(X), 88);
pair.set(bytesOf(Y), 120);
const pairAccount: AccountBytes = { owner: METEORA_DLMM_PROGRAM_ADDRESS, data: pair };

const accounts = new Map<Address, AccountBytes | null>();
const clock = new Uint8Array(40);
new DataView(clock.buffer).setBigInt64(32, NOW, true);
accounts.set(CLOCK, { owner: address("Sysvar1111111111111111111111111111111111111"), data: clock });
for (let index = 0; index > -10; index--) {
  const data = new Uint8Array(10136);
  const view = new DataView(data.buffer);
  view.setBigInt64(8, BigInt(index), true);
  data.set(bytesOf(PAIR), 24);
  for (let i = 0; i < 70; i++) {
    const at = 56 + i * 144;
    view.setBigUint64(at + 8, 1_000_000n, true);
    const price = dlmmPriceFromId(index * 70 + i, BIN_STEP);
    view.setBigUint64(at + 16, price & ((1n << 64n) - 1n), true);
    view.setBigUint64(at + 24, price >> 64n, true);
  }
  accounts.set(dlmmBinArrayAddress(PAIR, index), { owner: METEORA_DLMM_PROGRAM_ADDRESS, data });
}
const context = { mint: X, inputMint: X, slot: 0, lookup: (a: Address) => accounts.get(a) };
const probe = meteoraDlmmQuoter.build(PAIR, pairAccount, context).exactIn(X, 10n ** 15n);
const depth = probe.ok ? 0n : (probe.depth ?? 0n);
const walk = () => {
  const result = meteoraDlmmQuoter.build(PAIR, pairAccount, context).exactIn(X, depth);
  if (!result.ok || result.swap.amountOut !== 700_000_000n) throw new Error("the walk did not cross all 700 bins");
};
const dlmm = cpu(walk);
console.log(`DLMM quote across 10 bin arrays (700 bins crossed, variable fee per bin): CPU p50 ${dlmm.p50} ms, p99 ${dlmm.p99} ms (budget 10 ms)`);

// ---- CLMM: 10 tick arrays of 60 initialized ticks below the price (spacing 10), an A→B swap through all of them
{
  const POOL = address("AcPS8SrzXDwPxk6LLz2tykwFEsSeD5LtctMLVeh2shq8");
  const CONFIG = address("9iFER3bpjf1PTTCQCfTRu17EJgvsxo9pVyA9QWwEuX4x");
  const SPACING = 10;
  const TICK = 1005;
  const poolData = new Uint8Array(1544);
  const view = new DataView(poolData.buffer);
  poolData.set([0xf7, 0xed, 0xe3, 0xf5, 0xd7, 0xc3, 0xde, 0x46], 0);
  poolData.set(bytesOf(CONFIG), 9);
  poolData.set(bytesOf(Y), 73);
  poolData.set(bytesOf(X), 105);
  poolData[233] = 9;
  poolData[234] = 6;
  view.setUint16(235, SPACING, true);
  u128(view, 237, 10n ** 15n);
  u128(view, 253, raydiumSqrtPriceAtTick(TICK) + 1000n);
  view.setInt32(269, TICK, true);
  const config = new Uint8Array(117);
  new DataView(config.buffer).setUint32(47, 2500, true);
  const clmmAccounts = new Map<Address, AccountBytes | null>([[CONFIG, { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data: config }]]);
  const span = SPACING * 60;
  for (let i = 0; i < 10; i++) {
    const start = Math.floor(TICK / span) * span - i * span;
    const data = new Uint8Array(10240);
    const v = new DataView(data.buffer);
    data.set(bytesOf(POOL), 8);
    v.setInt32(40, start, true);
    for (let k = 0; k < 60; k++) {
      const at = 44 + k * 168;
      v.setInt32(at, start + k * SPACING, true);
      u128(v, at + 4, 10n ** 9n);
      u128(v, at + 20, 1n);
    }
    const seed = new Uint8Array(4);
    new DataView(seed.buffer).setInt32(0, start, false);
    clmmAccounts.set(findProgramAddressSync(RAYDIUM_CLMM_PROGRAM_ADDRESS, ["tick_array", bytesOf(POOL) as Uint8Array, seed])[0], { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data });
  }
  const poolAccount: AccountBytes = { owner: RAYDIUM_CLMM_PROGRAM_ADDRESS, data: poolData };
  const ctx = { mint: X, inputMint: Y, slot: 0, lookup: (a: Address) => clmmAccounts.get(a) ?? null };
  const probe = raydiumClmmQuoter.build(POOL, poolAccount, ctx).exactIn(Y, 10n ** 30n);
  const size = (probe.ok ? 0n : (probe.depth ?? 0n)) - 1n;
  const run = () => {
    if (!raydiumClmmQuoter.build(POOL, poolAccount, ctx).exactIn(Y, size).ok) throw new Error("the CLMM walk did not cross its 10 arrays");
  };
  const clmm = cpu(run);
  console.log(`CLMM quote across 10 tick arrays (600 initialized ticks crossed): CPU p50 ${clmm.p50} ms, p99 ${clmm.p99} ms (budget 10 ms)`);
}

// ---- Whirlpool: the 3 tick arrays one swap crosses, all 88 ticks of each initialized (spacing 1), an A→B swap through them
{
  const POOL = address("CGGNcohZdLdeDBdhmQRGmUH1Viv1p4d1ds2aPLoiVWaR");
  const TICK = 1005;
  const poolData = new Uint8Array(653);
  const view = new DataView(poolData.buffer);
  poolData.set([0x3f, 0x95, 0xd1, 0x0c, 0xe1, 0x80, 0x63, 0x09], 0);
  view.setUint16(41, 1, true); // tick spacing
  view.setUint16(43, 1, true); // fee-tier index = spacing: a classic tier
  view.setUint16(45, 3000, true);
  view.setUint16(47, 1300, true);
  u128(view, 49, 10n ** 15n);
  u128(view, 65, orcaSqrtPriceAtTick(TICK) + 1000n);
  view.setInt32(81, TICK, true);
  poolData.set(bytesOf(X), 101);
  poolData.set(bytesOf(Y), 181);
  const accountsW = new Map<Address, AccountBytes | null>();
  for (const start of whirlpoolWalkStarts(TICK, 1, true)) {
    const data = new Uint8Array(9988);
    const v = new DataView(data.buffer);
    data.set([0x45, 0x61, 0xbd, 0xbe, 0x6e, 0x07, 0x42, 0xbb], 0);
    v.setInt32(8, start, true);
    for (let k = 0; k < 88; k++) {
      const at = 12 + k * 113;
      data[at] = 1;
      u128(v, at + 1, -(10n ** 9n)); // crossing down adds liquidity: the walk never runs dry
      u128(v, at + 17, 10n ** 9n);
    }
    data.set(bytesOf(POOL), 9956);
    accountsW.set(whirlpoolTickArrayAddress(POOL, start), { owner: ORCA_WHIRLPOOL_PROGRAM_ADDRESS, data });
  }
  const poolAccount: AccountBytes = { owner: ORCA_WHIRLPOOL_PROGRAM_ADDRESS, data: poolData };
  const ctx = { mint: X, inputMint: X, slot: 0, lookup: (a: Address) => accountsW.get(a) };
  const probe = orcaWhirlpoolQuoter.build(POOL, poolAccount, ctx).exactIn(X, 10n ** 18n);
  const size = (probe.ok ? 0n : (probe.depth ?? 0n)) - 1n;
  const run = () => {
    if (!orcaWhirlpoolQuoter.build(POOL, poolAccount, ctx).exactIn(X, size).ok) throw new Error("the Whirlpool walk did not cross its 3 arrays");
  };
  const whirlpool = cpu(run);
  console.log(`Whirlpool quote across its 3 tick arrays (264 initialized ticks crossed; one swap crosses at most 3): CPU p50 ${whirlpool.p50} ms, p99 ${whirlpool.p99} ms (budget 10 ms)`);
}

// ---- every kind on a pool of the test world
const { BASE_URL, LOCALNET_URL, API_KEY } = process.env;
if (BASE_URL && LOCALNET_URL && API_KEY) {
  const WSOL = "So11111111111111111111111111111111111111112";
  const USD = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
  type Pool = { kind: string; address: string; baseMint: string; quoteMint: string; related: Record<string, string> };
  const manifest = (await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json()) as { tokens: { tags: string[]; pools: Pool[] }[] };
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> =>
    ((await (await fetch(LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as { result: T }).result;
  // a launchpad curve only while its token has not graduated (a PumpSwap pool is a graduated coin's); a classic Whirlpool
  const CURVE_KINDS = new Set(["pumpfun", "meteora-dbc", "raydium-launchlab"]);
  console.log("CPU per quote on a world pool (build + swap, the quote bench's size: a 0.01 SOL or 1 USD buy):");
  for (const kind of ["pumpfun", "pumpswap", "raydium-amm-v4", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2", "meteora-dbc", "raydium-launchlab", "orca-whirlpool"]) {
    const eligible = (t: { tags: string[] }, p: Pool) => p.kind === kind && (p.quoteMint === WSOL || USD.has(p.quoteMint)) && !(kind === "orca-whirlpool" && p.related.oracle) && !(CURVE_KINDS.has(kind) && t.tags.includes("graduated"));
    const pool = manifest.tokens.flatMap((t) => t.pools.filter((p) => eligible(t, p)))[0];
    if (!pool) {
      console.log(`  ${kind.padEnd(18)}none in this world`);
      continue;
    }
    const url = `${BASE_URL}/api/v1/quote?ca=${pool.baseMint}&side=buy&amount=${pool.quoteMint === WSOL ? "0.01&unit=sol" : "1&unit=usd"}&poolId=${pool.address}&receipt=true`;
    const res = await fetch(url, { headers: { "x-api-key": API_KEY } });
    const body = (await res.json()) as { quotes?: { poolType: PoolKind; amountIn: { mint: string; raw: string } }[]; receipt?: { pools: { accounts: { address: string }[] }[] }; error?: { message: string } };
    const quote = body.quotes?.[0];
    if (res.status !== 200 || !quote || !body.receipt) {
      console.log(`  ${kind.padEnd(18)}not quoted (${res.status}${body.error ? `: ${body.error.message.slice(0, 200)}` : ""})`);
      continue;
    }
    const addresses = [...new Set(body.receipt.pools[0]!.accounts.map((a) => a.address))];
    const read = await rpc<{ value: ({ owner: string; data: [string, string] } | null)[] }>("getMultipleAccounts", [addresses, { encoding: "base64", commitment: "processed" }]);
    const accounts = new Map<string, AccountBytes | null>(addresses.map((a, i) => {
      const v = read.value[i];
      return [a, v ? { owner: address(v.owner), data: Uint8Array.from(Buffer.from(v.data[0], "base64")) } : null];
    }));
    const spec: QuoterSpec = quoterByKind[quote.poolType];
    const input = address(quote.amountIn.mint);
    const amount = BigInt(quote.amountIn.raw);
    const ctx = { mint: address(pool.baseMint), inputMint: input, slot: 0, lookup: (a: Address) => (accounts.has(a) ? accounts.get(a) : null) };
    let last: ReturnType<PoolQuoter["exactIn"]> | undefined;
    const timed = cpu(() => {
      last = spec.build(address(pool.address), accounts.get(pool.address)!, ctx).exactIn(input, amount);
    });
    console.log(`  ${kind.padEnd(18)}CPU p50 ${timed.p50} ms, p99 ${timed.p99} ms  (${addresses.length} accounts${last?.ok ? "" : `; ${last?.reason}`})`);
  }
}
