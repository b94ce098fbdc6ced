import { address, getAddressDecoder, getAddressEncoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { QuoteRefusal, type PoolQuoter, type QuoteContext, type SwapResult } from "../../../src/quote/pool-quoter";
import { pumpCurveQuoter, pumpSwapQuoter, PUMPSWAP_GLOBAL_CONFIG_ADDRESS } from "../../../src/quote/reserve-quoters";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { PUMP_AMM_PROGRAM_ADDRESS, USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import { PUMP_GLOBAL_ADDRESS } from "../../../src/venues/pump-bonding-curve";
import { PUMP_FEE_CONFIG_ADDRESS, PUMP_FEE_PROGRAM_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS } from "../../../src/venues/pump-fees";
import { decodePumpSwapPool, findPumpPoolAuthorityAddress } from "../../../src/venues/pumpswap-pool";
import { loadAccountFixture, syntheticMint, syntheticTokenAccount, withData } from "../../helpers/fixtures";

/**
 * The pump quoters charge the fee config's schedule the way the programs pick it (pump SDK 2.0.0 / pump-swap-sdk 1.20.0
 * `computeFeesBps`): the tier the market cap before the swap falls in, by quote mint, flat fees for non-canonical pools,
 * the Global / GlobalConfig flat fees when no fee config exists. Fees are checked against the programs' formula written
 * out here: ⌈amount · bps / 10⁴⌉ of the swap's quote amount, with the market cap computed here from the same bytes.
 */
const SOL = 1_000_000_000n;
const cdiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const fee = (amount: bigint, bps: bigint) => cdiv(amount * bps, 10_000n);
type Rates = [lp: bigint, protocol: bigint, creator: bigint];
type Tier = [threshold: bigint, ...Rates];

/** A pump-fees FeeConfig of the current 4097-byte version. */
function feeConfig(tiers: Tier[], opts: { flat?: Rates; stable?: Tier[]; exotic?: Rates } = {}): AccountBytes {
  const data = new Uint8Array(4097);
  const view = new DataView(data.buffer);
  data.set(Buffer.from("8f3492bbdb7b4c9b", "hex"), 0);
  const rates = (at: number, [lp, protocol, creator]: Rates) => [lp, protocol, creator].forEach((v, i) => view.setBigUint64(at + 8 * i, v, true));
  rates(41, opts.flat ?? [25n, 5n, 0n]);
  let at = 65;
  for (const list of [tiers, opts.stable ?? []]) {
    view.setUint32(at, list.length, true);
    at += 4;
    for (const [threshold, ...r] of list) {
      view.setBigUint64(at, threshold & ((1n << 64n) - 1n), true);
      view.setBigUint64(at + 8, threshold >> 64n, true);
      rates(at + 16, r);
      at += 40;
    }
  }
  rates(at, opts.exotic ?? [0n, 0n, 0n]);
  return { owner: PUMP_FEE_PROGRAM_ADDRESS, data };
}

const context = (mint: Address, inputMint: Address, accounts: Map<Address, AccountBytes | null>): QuoteContext => ({ mint, inputMint, slot: 0, lookup: (a) => accounts.get(a) });
const feesOf = (result: SwapResult) => {
  if (!result.ok) throw new Error(result.reason);
  return Object.fromEntries(result.swap.fees.map((f) => [f.kind, f.amount]));
};

describe("pump.fun curve quotes pay the fee config's tier", () => {
  const curve = loadAccountFixture("pumpfun/bonding_curve_HWxwYxr4.json");
  const global = loadAccountFixture("pumpfun/global_4wTV1Ymi.json");
  const mint = address("Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump");
  const pool = address("HWxwYxr4nJ8mKbsVQm8LwCCz8tfRFM9rbhwj7BBDp1Kn");
  const u64 = (a: AccountBytes, o: number) => new DataView(a.data.buffer, a.data.byteOffset).getBigUint64(o, true);
  const [vtr, vqr] = [u64(curve, 8), u64(curve, 16)];
  // the program's market cap of a curve: virtual quote × 10^15 / virtual tokens (≈ 27.96 SOL here)
  const cap = (vqr * 10n ** 15n) / vtr;
  const tokens = 10n ** 10n; // ≈ 0.28 mSOL out of the curve's 2.5 mSOL real reserve
  const gross = (c: AccountBytes) => (u64(c, 16) * tokens) / (u64(c, 8) + tokens);
  const sell = (c: AccountBytes, accounts: [Address, AccountBytes | null][]) => {
    const quoter = pumpCurveQuoter.build(pool, c, context(mint, mint, new Map<Address, AccountBytes | null>([[PUMP_GLOBAL_ADDRESS, global], ...accounts])));
    return { quoter, fees: feesOf(quoter.exactIn(mint, tokens)) };
  };
  const twoTiers = (threshold: bigint) => feeConfig([[0n, 0n, 95n, 30n], [threshold, 0n, 50n, 10n]]);

  it("under a threshold the tier below it, from the threshold on the next one", () => {
    // Given a fee config whose second tier starts one lamport above the curve's market cap, then exactly at it
    const below = sell(curve, [[PUMP_FEE_CONFIG_ADDRESS, twoTiers(cap + 1n)]]);
    const at = sell(curve, [[PUMP_FEE_CONFIG_ADDRESS, twoTiers(cap)]]);
    // Then the protocol and creator fees are the first tier's, then the second's
    expect(below.fees).toEqual({ protocol: fee(gross(curve), 95n), creator: fee(gross(curve), 30n) });
    expect(at.fees).toEqual({ protocol: fee(gross(curve), 50n), creator: fee(gross(curve), 10n) });
    expect(below.quoter.reach).toContain("tier 0 of 2");
    expect(at.quoter.roles).toEqual({ global: PUMP_GLOBAL_ADDRESS, feeConfig: PUMP_FEE_CONFIG_ADDRESS });
  });

  it("a buy pays the tier too, and its budget inversion uses the tier's rates", () => {
    const budget = 2n * SOL;
    const quoter = pumpCurveQuoter.build(pool, curve, context(mint, WSOL_MINT, new Map<Address, AccountBytes | null>([[PUMP_GLOBAL_ADDRESS, global], [PUMP_FEE_CONFIG_ADDRESS, twoTiers(cap)]])));
    const result = quoter.exactIn(WSOL_MINT, budget);
    if (!result.ok) throw new Error(result.reason);
    // the SDK's inversion at 50 + 10 bps, then the program's cost of those tokens and its fees
    const spend = (budget * 10_000n) / 10_060n - 2n;
    const bought = (vtr * spend) / (vqr + spend);
    const cost = (vqr * bought) / (vtr - bought) + 1n;
    expect(result.swap.amountOut).toBe(bought);
    expect(result.swap.amountIn).toBe(cost + fee(cost, 50n) + fee(cost, 10n));
  });

  it("no fee config on chain: the Global account's flat fees; not read: a refusal", () => {
    expect(sell(curve, [[PUMP_FEE_CONFIG_ADDRESS, null]]).fees).toEqual({ protocol: fee(gross(curve), 95n), creator: fee(gross(curve), 5n) });
    expect(() => pumpCurveQuoter.build(pool, curve, context(mint, mint, new Map([[PUMP_GLOBAL_ADDRESS, global]])))).toThrow(QuoteRefusal);
  });

  it("a USDC coin pays the stable tiers, a coin in another quote the exotic fees (the flat fees while unset)", () => {
    const quotedIn = (quote: Address) => withData(curve, (d) => (d.set(getAddressEncoder().encode(quote), 83), d));
    const config = (exotic?: Rates) => feeConfig([[0n, 0n, 95n, 30n]], { flat: [0n, 70n, 7n], stable: [[0n, 0n, 80n, 20n], [cap, 0n, 60n, 15n]], ...(exotic ? { exotic } : {}) });
    const usdc = quotedIn(USDC_MINT);
    expect(sell(usdc, [[PUMP_FEE_CONFIG_ADDRESS, config()]]).fees).toEqual({ protocol: fee(gross(usdc), 60n), creator: fee(gross(usdc), 15n) });
    const other = quotedIn(address("JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN"));
    expect(sell(other, [[PUMP_FEE_CONFIG_ADDRESS, config()]]).fees).toEqual({ protocol: fee(gross(other), 70n), creator: fee(gross(other), 7n) });
    expect(sell(other, [[PUMP_FEE_CONFIG_ADDRESS, config([0n, 40n, 4n])]]).fees).toEqual({ protocol: fee(gross(other), 40n), creator: fee(gross(other), 4n) });
  });

  it("a mayhem-mode coin's market cap counts the mint's own supply", () => {
    // Given a threshold between the cap on 10^15 tokens and on the mint's 2·10^15
    const mayhem = withData(curve, (d) => ((d[81] = 1), d));
    const config = twoTiers(cap + cap / 2n);
    expect(sell(curve, [[PUMP_FEE_CONFIG_ADDRESS, config]]).fees.protocol).toBe(fee(gross(curve), 95n));
    expect(sell(mayhem, [[PUMP_FEE_CONFIG_ADDRESS, config], [mint, syntheticMint(6, 2n * 10n ** 15n)]]).fees.protocol).toBe(fee(gross(mayhem), 50n));
  });

  it("the curve's own creator rate replaces the schedule's while Global allows it; a curve without a creator pays none", () => {
    // Given a 125-byte curve with creator_fee_bps @115 = 200, and a 1087-byte Global with creator_fee_configurable @1045
    const own = withData(curve, (d) => {
      const out = new Uint8Array(125);
      out.set(d.subarray(0, 125));
      new DataView(out.buffer).setBigUint64(115, 200n, true);
      return out;
    });
    const configurable = (on: boolean) => withData(global, (d) => {
      const out = new Uint8Array(1087);
      out.set(d);
      out[1045] = on ? 1 : 0;
      return out;
    });
    const config = twoTiers(cap + 1n);
    const withGlobal = (g: AccountBytes) => sell(own, [[PUMP_FEE_CONFIG_ADDRESS, config], [PUMP_GLOBAL_ADDRESS, g]]).fees;
    expect(withGlobal(configurable(true))).toEqual({ protocol: fee(gross(own), 95n), creator: fee(gross(own), 200n) });
    expect(withGlobal(configurable(false))).toEqual({ protocol: fee(gross(own), 95n), creator: fee(gross(own), 30n) });
    const orphan = withData(curve, (d) => (d.fill(0, 49, 81), d));
    expect(sell(orphan, [[PUMP_FEE_CONFIG_ADDRESS, config]]).fees).toEqual({ protocol: fee(gross(orphan), 95n), creator: 0n });
  });
});

describe("PumpSwap quotes pay the fee config's tier (mainnet FeeConfig 5PHirr8…)", () => {
  const poolAccount = loadAccountFixture("pumpswap/pool_GUXAutvX.json");
  const pool = address("GUXAutvXh2Cvv2avGkbY8CfcsN9v2Uiwr8VCCqpn9HiU");
  const mainnet = loadAccountFixture("pumpswap/fee_config_5PHirr8.json");
  const state = decodePumpSwapPool(poolAccount);
  const base = 2n * 10n ** 14n;
  /** GlobalConfig with flat 20 / 5 / 5 bps and, when asked, creator_fee_configurable @940 on. */
  const globalConfig = (configurable = false): AccountBytes => {
    const data = new Uint8Array(949);
    const view = new DataView(data.buffer);
    view.setBigUint64(40, 20n, true);
    view.setBigUint64(48, 5n, true);
    view.setBigUint64(313, 5n, true);
    data[940] = configurable ? 1 : 0;
    return { owner: PUMP_AMM_PROGRAM_ADDRESS, data };
  };
  const sellOn = (quote: bigint, opts: { account?: AccountBytes; config?: AccountBytes | null; global?: AccountBytes } = {}) => {
    const accounts = new Map<Address, AccountBytes | null>([
      [state.baseVault, syntheticTokenAccount(state.baseMint, base)],
      [state.quoteVault, syntheticTokenAccount(WSOL_MINT, quote)],
      [state.baseMint, syntheticMint(6, 10n ** 15n)],
      [PUMPSWAP_GLOBAL_CONFIG_ADDRESS, opts.global ?? globalConfig()],
      [PUMPSWAP_FEE_CONFIG_ADDRESS, opts.config === undefined ? mainnet : opts.config],
    ]);
    const quoter: PoolQuoter = pumpSwapQuoter.build(pool, opts.account ?? poolAccount, context(state.baseMint, state.baseMint, accounts));
    const sold = 10n ** 12n;
    const gross = (quote * sold) / (base + sold);
    return { quoter, fees: feesOf(quoter.exactIn(state.baseMint, sold)), at: (bps: Rates) => ({ lp: fee(gross, bps[0]), protocol: fee(gross, bps[1]), creator: fee(gross, bps[2]) }) };
  };

  it("a canonical pool: the tier of its market cap (quote × mint supply / base)", async () => {
    expect(state.quoteMint).toBe(WSOL_MINT);
    expect(await findPumpPoolAuthorityAddress(state.baseMint)).toBe(getAddressDecoder().decode(poolAccount.data, 11));
    // 114.5 SOL against 2·10^14 of 10^15 tokens: 572.5 SOL of market cap → tier 1; 400 SOL → 2000 SOL → tier 2
    const tier1 = sellOn(114_500_000_000n);
    expect(tier1.fees).toEqual(tier1.at([20n, 5n, 95n]));
    const tier2 = sellOn(400n * SOL);
    expect(tier2.fees).toEqual(tier2.at([20n, 5n, 90n]));
    // under 420 SOL of market cap: tier 0
    const tier0 = sellOn(80n * SOL);
    expect(tier0.fees).toEqual(tier0.at([2n, 93n, 30n]));
    expect(tier2.quoter.reach).toContain("tier 2 of 25");
    expect(tier2.quoter.roles).toEqual({ globalConfig: PUMPSWAP_GLOBAL_CONFIG_ADDRESS, feeConfig: PUMPSWAP_FEE_CONFIG_ADDRESS });
  });

  it("a pool some other creator made pays the flat fees; with no fee config the GlobalConfig's", () => {
    const other = withData(poolAccount, (d) => (d.set(getAddressEncoder().encode(WSOL_MINT), 11), d));
    const flat = sellOn(400n * SOL, { account: other });
    expect(flat.fees).toEqual(flat.at([25n, 5n, 0n]));
    const legacy = sellOn(400n * SOL, { config: null });
    expect(legacy.fees).toEqual(legacy.at([20n, 5n, 5n]));
  });

  it("the pool's own creator rate replaces the tier's while the GlobalConfig allows it", () => {
    const own = withData(poolAccount, (d) => (new DataView(d.buffer).setBigUint64(261, 7n, true), d));
    const on = sellOn(400n * SOL, { account: own, global: globalConfig(true) });
    expect(on.fees).toEqual(on.at([20n, 5n, 7n]));
    const off = sellOn(400n * SOL, { account: own });
    expect(off.fees).toEqual(off.at([20n, 5n, 90n]));
  });
});
