/**
 * Quoters of the reserve kinds — pump.fun curve, PumpSwap, Raydium AMM v4 and CPMM, Meteora DAMM v1 (constant product or stable):
 * one swap against two reserves, nothing to walk. Each follows its program's integer math and rounding; the sources
 * are the programs' public docs and code at the commits VENUES.md cites, encoded here as our own formulas.
 */
import { address, type Address } from "@solana/kit";
import { ratio } from "../math/fixed-point";
import { decodeMeteoraDammV1Pool, meteoraDammV1BaseVirtualPrice, meteoraDammV1PoolAdapter } from "../venues/meteora-damm-v1";
import { decodeMeteoraVault, meteoraVaultUnlockedAmount } from "../venues/meteora-vault";
import { DEPEG_PRECISION, DEPEG_TYPE } from "../venues/stake-pool-price";
import { decodeClockSysvar } from "../solana/accounts/clock-sysvar";
import { decodeMint, readVaultAmount } from "../solana/accounts/spl-token";
import type { AccountBytes } from "../solana/accounts/account-shape";
import { decodePumpBondingCurve, PUMP_GLOBAL_ADDRESS } from "../venues/pump-bonding-curve";
import { curveMarketCap, decodePumpFeeConfig, isCanonicalPumpPool, poolMarketCap, pumpFeeSchedule, PUMP_FEE_CONFIG_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS } from "../venues/pump-fees";
import { decodePumpSwapPool, type PumpSwapPool } from "../venues/pumpswap-pool";
import { decodeRaydiumAmmV4Pool } from "../venues/raydium-amm-v4";
import { decodeRaydiumCpmmPool } from "../venues/raydium-cpmm";
import { addressAt, DEFAULT_ADDRESS, u64At, u8At } from "./account-fields";
import { QuoteRefusal, required, type FeeLine, type PoolQuoter, type QuoteContext, type QuoterSpec, type SwapResult } from "./pool-quoter";
import { ceilDiv, constantProductOut, stableSwapOut } from "./swap-math";

const BPS = 10_000n;
const tooSmall = (what: string): SwapResult => ({ ok: false, reason: `${what} is too small to trade` });

// ---- pump.fun bonding curve ----

/**
 * The fee rates a pump curve's swap pays, as the program takes them: from pump's FeeConfig when it exists (the tier its
 * market cap falls in, by quote mint — venues/pump-fees.ts), else the Global account's flat fee_basis_points @105 and
 * creator_fee_basis_points @154 (the pump SDK's no-fee-config path). While Global.creator_fee_configurable @1045 is on, a
 * curve's own creator_fee_bps @115 replaces the creator rate when set (pump SDK 2.0.0 `computeFeesBps`). The creator fee
 * is charged only when the curve names a creator (@49, curves of 81 bytes and more). Offsets: pump IDL of
 * @pump-fun/pump-sdk 2.0.0 (Global 1087 B, BondingCurve 125 B; shorter accounts read the missing fields as 0 / false).
 */
function pumpCurveFees(account: AccountBytes, global: AccountBytes, context: QuoteContext, vqr: bigint, vtr: bigint): { feeBps: bigint; creatorBps: bigint; schedule: string } {
  const feeConfig = context.lookup(PUMP_FEE_CONFIG_ADDRESS);
  if (feeConfig === undefined) throw new QuoteRefusal(`pump fee config ${PUMP_FEE_CONFIG_ADDRESS} was not read`);
  let protocol: bigint;
  let creator: bigint;
  let schedule: string;
  if (feeConfig === null) {
    protocol = u64At(global, "PumpGlobal", 105);
    creator = u64At(global, "PumpGlobal", 154);
    schedule = "the Global account's flat fees (no fee config)";
  } else {
    const mayhem = account.data.length > 81 && account.data[81] !== 0;
    const storedQuote = account.data.length >= 115 ? addressAt(account, "PumpBondingCurve", 83) : DEFAULT_ADDRESS;
    const supply = mayhem ? decodeMint(required(context, context.mint, "mint")).supply : 0n;
    const choice = pumpFeeSchedule(decodePumpFeeConfig(feeConfig), { isPumpPool: true, quoteMint: storedQuote, marketCap: curveMarketCap(vqr, vtr, mayhem, supply) });
    protocol = choice.fees.protocolBps;
    creator = choice.fees.creatorBps;
    schedule = `pump's fee config, ${choice.schedule}`;
  }
  const configurable = global.data.length > 1045 && global.data[1045] !== 0;
  const ownCreatorBps = account.data.length >= 123 ? u64At(account, "PumpBondingCurve", 115) : 0n;
  if (configurable && ownCreatorBps > 0n) creator = ownCreatorBps;
  const creatorSet = account.data.length >= 81 && addressAt(account, "PumpBondingCurve", 49) !== DEFAULT_ADDRESS;
  return { feeBps: protocol, creatorBps: creatorSet ? creator : 0n, schedule };
}

export const pumpCurveQuoter: QuoterSpec = {
  kind: "pump-bonding-curve",
  // Global and the mint come with pricing, pump's fee config with the quote's first read (quote-service.ts)
  extraAccounts: async (_pool, _account, context) => [PUMP_GLOBAL_ADDRESS, PUMP_FEE_CONFIG_ADDRESS, context.mint].filter((a) => context.lookup(a) === undefined),
  build(pool, account, context) {
    const curve = decodePumpBondingCurve(account);
    const mint = context.mint;
    const quote = curve.quoteMint;
    const { virtualTokenReserves: vtr, virtualQuoteReserves: vqr, realTokenReserves: rtr, realQuoteReserves: rqr } = curve;
    const { feeBps, creatorBps, schedule } = pumpCurveFees(account, required(context, PUMP_GLOBAL_ADDRESS, "pump Global"), context, vqr, vtr);
    const fees = (cost: bigint): FeeLine[] => [
      { kind: "protocol", mint: quote, amount: ceilDiv(cost * feeBps, BPS) },
      { kind: "creator", mint: quote, amount: ceilDiv(cost * creatorBps, BPS) },
    ];
    return {
      kind: "pump-bonding-curve",
      pool,
      mints: [mint, quote],
      spot: ratio(vqr, vtr),
      reach: `the curve's virtual and real reserves (one account); a buy larger than the tokens left buys them all and completes the curve; fees: ${schedule}`,
      roles: { global: PUMP_GLOBAL_ADDRESS, feeConfig: PUMP_FEE_CONFIG_ADDRESS },
      exactIn(inputMint, amountIn): SwapResult {
        if (curve.complete) return { ok: false, reason: "the curve is complete: the token trades in its migrated pool" };
        if (inputMint === quote) {
          // buy with a budget (fees included): the pump SDK's inversion, then the program's cost of that many tokens
          // (virtual quote × tokens / (virtual tokens − tokens) + 1) and its fees, each rounded up.
          const spend = (amountIn * BPS) / (BPS + feeBps + creatorBps) - 2n;
          if (spend <= 0n) return tooSmall("the budget");
          let tokens = (vtr * spend) / (vqr + spend);
          if (tokens > rtr) tokens = rtr;
          if (tokens <= 0n) return tooSmall("the budget");
          const cost = (vqr * tokens) / (vtr - tokens) + 1n;
          const feeLines = fees(cost);
          const total = feeLines.reduce((sum, f) => sum + f.amount, cost);
          return { ok: true, swap: { amountIn: total, amountOut: tokens, fees: feeLines, priceAfter: ratio(vqr + cost, vtr - tokens) } };
        }
        // sell: quote out = virtual quote × tokens / (virtual tokens + tokens), fees rounded up and taken from it
        const gross = (vqr * amountIn) / (vtr + amountIn);
        if (gross > rqr) return { ok: false, reason: `the curve holds ${rqr} quote atoms`, depth: vqr > rqr ? (rqr * vtr) / (vqr - rqr) : undefined };
        const feeLines = fees(gross);
        const out = feeLines.reduce((left, f) => left - f.amount, gross);
        if (out <= 0n) return tooSmall("the amount");
        return { ok: true, swap: { amountIn, amountOut: out, fees: feeLines, priceAfter: ratio(vqr - gross, vtr + amountIn) } };
      },
    };
  },
};

// ---- PumpSwap ----

/** GlobalConfig PDA ["global_config"] of the PumpSwap program (VENUES.md §3). */
export const PUMPSWAP_GLOBAL_CONFIG_ADDRESS = address("ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw");

/**
 * The fee rates a PumpSwap swap pays: from PumpSwap's FeeConfig when it exists — a canonical pump pool (creator @11 =
 * pump's pool authority of the base mint) by the tier its market cap (effective quote × base mint supply / base) falls
 * in, any other pool the flat fees (venues/pump-fees.ts) — else the GlobalConfig's lp_fee_basis_points @40,
 * protocol_fee_basis_points @48 and coin_creator_fee_basis_points @313. While GlobalConfig.creator_fee_configurable
 * @940 is on, the pool's own creator_fee_bps replaces the creator rate when set (pump-swap-sdk 1.20.0 `computeFeesBps`,
 * fee config case). pump_amm IDL of @pump-fun/pump-swap-sdk 1.20.0 (GlobalConfig 949 B).
 */
function pumpSwapFees(account: AccountBytes, state: PumpSwapPool, config: AccountBytes, context: QuoteContext, base: bigint, effectiveQuote: bigint): { lpBps: bigint; protocolBps: bigint; creatorBps: bigint; schedule: string } {
  const feeConfig = context.lookup(PUMPSWAP_FEE_CONFIG_ADDRESS);
  if (feeConfig === undefined) throw new QuoteRefusal(`PumpSwap fee config ${PUMPSWAP_FEE_CONFIG_ADDRESS} was not read`);
  // coin_creator @211: canonical pools of graduated coins pay their creator; other pools have none
  const hasCoinCreator = account.data.length >= 243 && addressAt(account, "PumpSwapPool", 211) !== DEFAULT_ADDRESS;
  if (feeConfig === null) {
    const creatorBps = hasCoinCreator ? u64At(config, "PumpSwapGlobalConfig", 313) : 0n;
    return { lpBps: u64At(config, "PumpSwapGlobalConfig", 40), protocolBps: u64At(config, "PumpSwapGlobalConfig", 48), creatorBps, schedule: "the GlobalConfig's flat fees (no fee config)" };
  }
  const canonical = isCanonicalPumpPool(state.baseMint, addressAt(account, "PumpSwapPool", 11));
  const supply = state.isMayhemMode ? 0n : decodeMint(required(context, state.baseMint, "base mint")).supply;
  // an empty pool trades nothing (exactIn says so); its market cap is not defined
  const marketCap = base > 0n ? poolMarketCap(effectiveQuote, base, state.isMayhemMode, supply) : 0n;
  const choice = pumpFeeSchedule(decodePumpFeeConfig(feeConfig), { isPumpPool: canonical, quoteMint: state.quoteMint, marketCap });
  const configurable = config.data.length > 940 && config.data[940] !== 0;
  const creator = configurable && state.creatorFeeBps > 0n ? state.creatorFeeBps : choice.fees.creatorBps;
  return { lpBps: choice.fees.lpBps, protocolBps: choice.fees.protocolBps, creatorBps: hasCoinCreator ? creator : 0n, schedule: `PumpSwap's fee config, ${choice.schedule}` };
}

export const pumpSwapQuoter: QuoterSpec = {
  kind: "pumpswap",
  // both configs come with the quote's first read (quote-service.ts); the base mint (its supply) with pricing when it is the token asked about
  extraAccounts: async (_pool, account, context) => [PUMPSWAP_GLOBAL_CONFIG_ADDRESS, PUMPSWAP_FEE_CONFIG_ADDRESS, decodePumpSwapPool(account).baseMint].filter((a) => context.lookup(a) === undefined),
  build(pool, account, context) {
    const state = decodePumpSwapPool(account);
    const config = required(context, PUMPSWAP_GLOBAL_CONFIG_ADDRESS, "PumpSwap GlobalConfig");
    const base = readVaultAmount("PumpSwapPool", required(context, state.baseVault, "base vault"), state.baseMint);
    const vaultQuote = readVaultAmount("PumpSwapPool", required(context, state.quoteVault, "quote vault"), state.quoteMint);
    // the program prices against quote vault + virtual_quote_reserves, but pays out only what the vault holds
    const quote = vaultQuote + state.virtualQuoteReserves;
    const { lpBps, protocolBps, creatorBps, schedule } = pumpSwapFees(account, state, config, context, base, quote);
    const feesOf = (amount: bigint): FeeLine[] => [
      { kind: "lp", mint: state.quoteMint, amount: ceilDiv(amount * lpBps, BPS) },
      { kind: "protocol", mint: state.quoteMint, amount: ceilDiv(amount * protocolBps, BPS) },
      { kind: "creator", mint: state.quoteMint, amount: ceilDiv(amount * creatorBps, BPS) },
    ];
    return {
      kind: "pumpswap",
      pool,
      mints: [state.baseMint, state.quoteMint],
      spot: ratio(quote, base),
      reach: `the pool's two vaults, the global config and the fee config; fees: ${schedule}`,
      roles: { globalConfig: PUMPSWAP_GLOBAL_CONFIG_ADDRESS, feeConfig: PUMPSWAP_FEE_CONFIG_ADDRESS },
      exactIn(inputMint, amountIn): SwapResult {
        if (base === 0n || quote === 0n) return { ok: false, reason: "empty pool" };
        if (inputMint === state.quoteMint) {
          // buy with a budget: the SDK's inversion to base out, then the program's ceil cost of that base and its fees
          const spend = (amountIn * BPS) / (BPS + lpBps + protocolBps + creatorBps) - 3n;
          if (spend <= 0n) return tooSmall("the budget");
          const baseOut = (base * spend) / (quote + spend);
          if (baseOut <= 0n) return tooSmall("the budget");
          const cost = ceilDiv(quote * baseOut, base - baseOut);
          const feeLines = feesOf(cost);
          const total = feeLines.reduce((sum, f) => sum + f.amount, cost);
          if (total > amountIn) return tooSmall("the budget");
          const lp = feeLines[0]!.amount;
          return { ok: true, swap: { amountIn: total, amountOut: baseOut, fees: feeLines, priceAfter: ratio(quote + cost + lp, base - baseOut) } };
        }
        const gross = constantProductOut(base, quote, amountIn);
        const feeLines = feesOf(gross);
        const [lp, protocol, creator] = feeLines.map((f) => f.amount) as [bigint, bigint, bigint];
        const out = gross - lp - protocol - creator;
        if (out <= 0n) return tooSmall("the amount");
        if (out + protocol + creator > vaultQuote) return { ok: false, reason: `the quote vault holds ${vaultQuote} atoms`, depth: undefined };
        return { ok: true, swap: { amountIn, amountOut: out, fees: feeLines, priceAfter: ratio(quote - out - protocol - creator, base + amountIn) } };
      },
    };
  },
};

// ---- Raydium AMM v4 ----

/** Status values that allow swaps: Initialized, SwapOnly, WaitingTrade (raydium-amm state.rs). */
const AMM_V4_SWAPPABLE = new Set([1, 6, 7]);

export const raydiumAmmV4Quoter: QuoterSpec = {
  kind: "raydium-amm-v4",
  extraAccounts: async () => [],
  build(pool, account, context) {
    const state = decodeRaydiumAmmV4Pool(account);
    // swap_fee_numerator @176 / swap_fee_denominator @184 (AmmInfo.fees)
    const num = u64At(account, "RaydiumAmmV4Pool", 176);
    const den = u64At(account, "RaydiumAmmV4Pool", 184);
    if (den === 0n) throw new QuoteRefusal("zero swap fee denominator");
    const coin = readVaultAmount("RaydiumAmmV4Pool", required(context, state.coinVault, "coin vault"), state.coinMint) - state.needTakePnlCoin;
    const pc = readVaultAmount("RaydiumAmmV4Pool", required(context, state.pcVault, "pc vault"), state.pcMint) - state.needTakePnlPc;
    return {
      kind: "raydium-amm-v4",
      pool,
      mints: [state.coinMint, state.pcMint],
      spot: ratio(pc, coin > 0n ? coin : 1n),
      reach: "the pool's two vaults less the PnL still owed (need_take_pnl)",
      exactIn(inputMint, amountIn): SwapResult {
        if (!AMM_V4_SWAPPABLE.has(state.status)) return { ok: false, reason: `pool status ${state.status} does not allow swaps` };
        if (coin <= 0n || pc <= 0n) return { ok: false, reason: "empty pool" };
        const coinIn = inputMint === state.coinMint;
        const [rIn, rOut] = coinIn ? [coin, pc] : [pc, coin];
        // the fee is rounded up (checked_ceil_div) and stays in the pool
        const fee = ceilDiv(amountIn * num, den);
        const out = constantProductOut(rIn, rOut, amountIn - fee);
        if (out <= 0n) return tooSmall("the amount");
        const [coinAfter, pcAfter] = coinIn ? [coin + amountIn, pc - out] : [coin - out, pc + amountIn];
        return { ok: true, swap: { amountIn, amountOut: out, fees: [{ kind: "lp", mint: inputMint, amount: fee }], priceAfter: ratio(pcAfter, coinAfter) } };
      },
    };
  },
};

// ---- Raydium CPMM ----

const FEE_RATE_DENOMINATOR = 1_000_000n;

export const raydiumCpmmQuoter: QuoterSpec = {
  kind: "raydium-cpmm",
  extraAccounts: async (_pool, account, context) => {
    const config = addressAt(account, "RaydiumCpmmPool", 8);
    return context.lookup(config) === undefined ? [config] : [];
  },
  build(pool, account, context) {
    const state = decodeRaydiumCpmmPool(account);
    const config = required(context, addressAt(account, "RaydiumCpmmPool", 8), "amm config");
    // AmmConfig: trade_fee_rate @12, protocol_fee_rate @20, fund_fee_rate @28, creator_fee_rate @108 (raydium-cp-swap states/config.rs)
    const tradeRate = u64At(config, "RaydiumCpmmConfig", 12);
    const protocolRate = u64At(config, "RaydiumCpmmConfig", 20);
    const fundRate = u64At(config, "RaydiumCpmmConfig", 28);
    // creator_fee_on @389 (0 both → input token, 1 token0 only, 2 token1 only), enable_creator_fee @390
    const creatorOn = account.data.length > 390 && u8At(account, "RaydiumCpmmPool", 390) !== 0;
    const creatorRate = creatorOn && config.data.length >= 116 ? u64At(config, "RaydiumCpmmConfig", 108) : 0n;
    const creatorMode = creatorOn ? u8At(account, "RaydiumCpmmPool", 389) : 0;
    const v0 = readVaultAmount("RaydiumCpmmPool", required(context, state.vault0, "vault 0"), state.mint0);
    const v1 = readVaultAmount("RaydiumCpmmPool", required(context, state.vault1, "vault 1"), state.mint1);
    const r0 = v0 - state.protocolFees0 - state.fundFees0 - state.creatorFees0;
    const r1 = v1 - state.protocolFees1 - state.fundFees1 - state.creatorFees1;
    return {
      kind: "raydium-cpmm",
      pool,
      mints: [state.mint0, state.mint1],
      spot: ratio(r1, r0 > 0n ? r0 : 1n),
      reach: "the pool's two vaults less protocol, fund and creator fees, and its amm config",
      exactIn(inputMint, amountIn): SwapResult {
        if ((state.status & 4) !== 0) return { ok: false, reason: "swaps are disabled on this pool" };
        if (r0 <= 0n || r1 <= 0n) return { ok: false, reason: "empty pool" };
        const in0 = inputMint === state.mint0;
        const [rIn, rOut] = in0 ? [r0, r1] : [r1, r0];
        const outputMint = in0 ? state.mint1 : state.mint0;
        // the creator fee is taken from the input when its mode says so (both → input; token0/token1 → that token)
        const creatorOnInput = creatorMode === 0 || (creatorMode === 1) === in0;
        let tradeFee: bigint;
        let creatorFee = 0n;
        let out: bigint;
        if (creatorRate > 0n && creatorOnInput) {
          const total = ceilDiv(amountIn * (tradeRate + creatorRate), FEE_RATE_DENOMINATOR);
          creatorFee = (total * creatorRate) / (tradeRate + creatorRate);
          tradeFee = total - creatorFee;
          out = constantProductOut(rIn, rOut, amountIn - total);
        } else {
          tradeFee = ceilDiv(amountIn * tradeRate, FEE_RATE_DENOMINATOR);
          const swapped = constantProductOut(rIn, rOut, amountIn - tradeFee);
          creatorFee = creatorRate > 0n ? ceilDiv(swapped * creatorRate, FEE_RATE_DENOMINATOR) : 0n;
          out = swapped - creatorFee;
        }
        if (out <= 0n) return tooSmall("the amount");
        const protocol = (tradeFee * protocolRate) / FEE_RATE_DENOMINATOR;
        const fund = (tradeFee * fundRate) / FEE_RATE_DENOMINATOR;
        const creatorMint = creatorOnInput ? inputMint : outputMint;
        // what stays: the input less the fees that leave the reserves (protocol, fund, creator on input)
        const inKept = amountIn - protocol - fund - (creatorOnInput ? creatorFee : 0n);
        const outGone = out + (creatorOnInput ? 0n : creatorFee);
        const [a0, a1] = in0 ? [r0 + inKept, r1 - outGone] : [r0 - outGone, r1 + inKept];
        const fees: FeeLine[] = [
          { kind: "lp", mint: inputMint, amount: tradeFee - protocol - fund },
          { kind: "protocol", mint: inputMint, amount: protocol },
          { kind: "fund", mint: inputMint, amount: fund },
          { kind: "creator", mint: creatorMint, amount: creatorFee },
        ];
        return { ok: true, swap: { amountIn, amountOut: out, fees, priceAfter: ratio(a1, a0) } };
      },
    };
  },
};

// ---- Meteora DAMM v1 ----

/** `calculate_fee`: ⌊amount·num/den⌋, but at least one atom when both are nonzero (MeteoraAg/damm-v1-sdk dynamic-amm state.rs). */
const dammV1Fee = (amount: bigint, num: bigint, den: bigint) => {
  if (num === 0n || amount === 0n) return 0n;
  const fee = (amount * num) / den;
  return fee === 0n ? 1n : fee;
};

/**
 * Meteora DAMM v1, as the official quote does it (MeteoraAg/damm-v1-sdk @02c66a3c dynamic-amm-quote `compute_quote`):
 * the trade fee ⌊in·trade_fee⌋ (≥ 1 atom) of which the protocol takes ⌊·protocol_fee⌋ (≥ 1) before the rest goes into
 * the input vault; the pool's input is what its vault-LP share gains from that deposit (LP minted ⌊dep·supply/unlocked⌋,
 * the share's amount before and after, each rounded down) less the LP fee; the curve — constant product
 * ⌊out·in/(in + reserve)⌋ or, curve_type 1, StableSwap on amounts scaled by the token multipliers (and a depeg pool's
 * 10⁶ / virtual price) — gives the output, which is paid through the output vault's LP (⌊out·supply/unlocked⌋ LP,
 * worth ⌊LP·unlocked/supply⌋). Stable layout: amp u64 @875, token multipliers u64 @883/@891, depeg @900.
 */
export const meteoraDammV1Quoter: QuoterSpec = {
  kind: "meteora-damm-v1",
  extraAccounts: async () => [],
  build(pool, account, context) {
    // Reserves as pricing reads them: each vault's unlocked amount times the pool's share of its LP.
    const evaluation = meteoraDammV1PoolAdapter.evaluate(account, context.mint, context.lookup, () => 0);
    if (evaluation.kind !== "priced") throw new QuoteRefusal("vault accounts were not read");
    const state = decodeMeteoraDammV1Pool(account);
    const { baseMint: mintA, quoteMint: mintB, baseReserve: a, quoteLiquidity: b, tradable } = evaluation.price;
    const related = evaluation.related as Record<string, Address>;
    const get = (role: string) => required(context, related[role]!, role);
    const now = decodeClockSysvar(get("clock")).unixTimestamp;
    const side = (vaultRole: string, lpRole: string, lpMintRole: string) => {
      const vault = decodeMeteoraVault(get(vaultRole));
      return { vault, unlocked: meteoraVaultUnlockedAmount(vault, now), shares: readVaultAmount("MeteoraDammV1Pool", get(lpRole), vault.lpMint), supply: decodeMint(get(lpMintRole)).supply };
    };
    const vaultA = side("aVault", "aVaultLp", "aVaultLpMint");
    const vaultB = side("bVault", "bVaultLp", "bVaultLpMint");
    // trade_fee num/den @330/@338, protocol_trade_fee num/den @346/@354
    const tradeNum = u64At(account, "MeteoraDammV1Pool", 330);
    const tradeDen = u64At(account, "MeteoraDammV1Pool", 338);
    const protocolNum = u64At(account, "MeteoraDammV1Pool", 346);
    const protocolDen = u64At(account, "MeteoraDammV1Pool", 354);
    const stable = state.curveType !== 0;
    const depeg = stable && state.depegType !== DEPEG_TYPE.none;
    const scaleA = stable ? state.tokenAMultiplier * (depeg ? DEPEG_PRECISION : 1n) : 1n;
    const scaleB = stable ? state.tokenBMultiplier * (depeg ? meteoraDammV1BaseVirtualPrice(state, now, related.depegStake ? context.lookup(related.depegStake) ?? undefined : undefined) : 1n) : 1n;
    return {
      kind: "meteora-damm-v1",
      pool,
      mints: [mintA, mintB],
      spot: ratio(b, a > 0n ? a : 1n),
      reach: `the pool, its two dynamic vaults, its vault LP balances and the vault LP mints; curve: ${stable ? `StableSwap, amp ${state.amp}${depeg ? ", token B at its stake pool's virtual price" : ""}` : "constant product"}`,
      exactIn(inputMint, amountIn): SwapResult {
        if (!tradable) return { ok: false, reason: "the pool is disabled" };
        if (tradeDen === 0n || protocolDen === 0n) return { ok: false, reason: "zero fee denominator" };
        if (a <= 0n || b <= 0n) return { ok: false, reason: "empty pool" };
        if (stable && (state.amp === 0n || scaleA === 0n || scaleB === 0n)) return { ok: false, reason: "the stable curve has no amplification or scale" };
        const aIn = inputMint === mintA;
        const [rIn, rOut] = aIn ? [a, b] : [b, a];
        const [vIn, vOut] = aIn ? [vaultA, vaultB] : [vaultB, vaultA];
        const tradeFee = dammV1Fee(amountIn, tradeNum, tradeDen);
        const protocolFee = dammV1Fee(tradeFee, protocolNum, protocolDen);
        const lpFee = tradeFee - protocolFee;
        const deposited = amountIn - protocolFee;
        // the pool's vault share before and after the deposit (get_unmint_amount, then get_amount_by_share)
        if (vIn.unlocked === 0n || vIn.supply === 0n || vOut.unlocked === 0n || vOut.supply === 0n) return { ok: false, reason: "empty vault" };
        const lpIn = (deposited * vIn.supply) / vIn.unlocked;
        const after = ((vIn.unlocked + deposited) * (vIn.shares + lpIn)) / (vIn.supply + lpIn);
        const actualIn = after - rIn;
        if (actualIn < lpFee) return tooSmall("the amount");
        const curveIn = actualIn - lpFee;
        let swapped: bigint | undefined;
        if (!stable) swapped = constantProductOut(rIn, rOut, curveIn);
        else {
          const [sIn, sOut] = aIn ? [scaleA, scaleB] : [scaleB, scaleA];
          const normalised = stableSwapOut(state.amp, curveIn * sIn, rIn * sIn, rOut * sOut);
          swapped = normalised === undefined ? undefined : normalised / sOut;
        }
        if (swapped === undefined || swapped >= rOut) return { ok: false, reason: "the pool cannot pay this out" };
        const lpOut = (swapped * vOut.supply) / vOut.unlocked;
        const out = (lpOut * vOut.unlocked) / vOut.supply;
        if (out <= 0n) return tooSmall("the amount");
        const [aAfter, bAfter] = aIn ? [a + curveIn + lpFee, b - out] : [a - out, b + curveIn + lpFee];
        const fees: FeeLine[] = [
          { kind: "lp", mint: inputMint, amount: lpFee },
          { kind: "protocol", mint: inputMint, amount: protocolFee },
        ];
        return { ok: true, swap: { amountIn, amountOut: out, fees, priceAfter: ratio(bAfter, aAfter) } };
      },
    };
  },
};
