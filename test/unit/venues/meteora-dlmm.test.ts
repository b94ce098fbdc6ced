import { address, getAddressDecoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeMeteoraDlmmPair,
  dlmmBinPrice,
  findMeteoraDlmmKeyedPairAddress,
  findMeteoraDlmmPairAddress,
  findMeteoraDlmmPreset2Address,
  listMeteoraDlmmPairCandidates,
  priceFromMeteoraDlmmPair,
  requiredAccountsForMeteoraDlmmPair,
} from "../../../src/venues/meteora-dlmm";
import { decodeMint } from "../../../src/solana/accounts/spl-token";
import { flipByte, loadAccountFixture, ratioToNumber, relErr, sourceField, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";

const esud = loadAccountFixture("meteora-dlmm/lb_pair_ESuD7dd6.json");
const ESUD = address("ESuD7dd6zKM4JwNBTPiSbodt5pFQT4U2nLG72NAxccXL");
const eight = loadAccountFixture("meteora-dlmm/lb_pair_8ztFxjFP.json");
const etad = loadAccountFixture("meteora-dlmm/EtAdVRLF_pump_SOL/lb_pair.json");
const etadReserveX = loadAccountFixture("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_x_token_account.json");
const etadReserveY = loadAccountFixture("meteora-dlmm/EtAdVRLF_pump_SOL/reserve_y_token_account.json");
const etadMintX = loadAccountFixture("spl-token/mint_Df6yfrKC_pump.json");
const b5 = loadAccountFixture("meteora-dlmm/B5Eia4cE_token2022_SOL/lb_pair.json");
const b5ReserveX = loadAccountFixture("meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_x_token2022_account.json");
const b5ReserveY = loadAccountFixture("meteora-dlmm/B5Eia4cE_token2022_SOL/reserve_y_token_account.json");
const b5MintX = loadAccountFixture("token-2022/mint_B4rGSdcB_with_extensions.json");
const fjb = loadAccountFixture("meteora-dlmm/FJbEo74c/lb_pair_solana_cli.json");

describe("Meteora DLMM decoding", () => {
  it("decodes ESuD7dd6 as Carbon asserts", () => {
    expect(decodeMeteoraDlmmPair(esud)).toEqual({
      baseFactor: 62500,
      pairType: 3,
      activeId: -1054,
      binStep: 80,
      status: 0,
      tokenXMint: "FzytSxQv6nBgH3dByVJtgMVg6rANTZaZPzU6dcRbpump",
      tokenYMint: WSOL_MINT,
      reserveX: "7SWjpLPaLKxGogCY321XRFbiSiAkXSKh8q8qioGdu8N8",
      reserveY: "iiWfKZygJii3g8RrKyWVQJdc6CciK2xGpuD8aCbgqbS",
      protocolFeeX: 317260998460n,
      protocolFeeY: 240423958n,
      // a PermissionlessV2 pair: no activation point set
      activationType: 0,
      activationPoint: 0n,
    });
  });

  it("decodes 8ztFxjFP as its source's expected JSON states", () => {
    const pair = decodeMeteoraDlmmPair(eight);
    expect(pair.baseFactor).toBe(Number(sourceField(eight, "parameters", "base_factor")));
    expect(pair.activeId).toBe(Number(sourceField(eight, "active_id")));
    expect(pair.binStep).toBe(Number(sourceField(eight, "bin_step")));
    expect(pair.pairType).toBe(sourceField(eight, "pair_type"));
    expect(pair.status).toBe(sourceField(eight, "status"));
    expect(pair.activationType).toBe(sourceField(eight, "activation_type"));
    expect(pair.activationPoint).toBe(BigInt(sourceField(eight, "activation_point") as number));
    expect(pair).toMatchObject({ baseFactor: 10000, pairType: 3, activeId: 200, binStep: 20, status: 0 });
  });

  it("decodes the EtAdVRLF, B5Eia4cE and FJbEo74c pairs with the mints and reserves their tests name", () => {
    expect(decodeMeteoraDlmmPair(etad)).toMatchObject({
      tokenXMint: "Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump",
      tokenYMint: WSOL_MINT,
      reserveX: "BmW4cCRpJwwL8maFB1AoAuEQf96t64Eq5gUvXikZardM",
      reserveY: "FDZDrPtCjmSHeq14goCxp5pCJSRekSXY3XSgGz5Rvass",
      binStep: 250,
      baseFactor: 4000,
      pairType: 0,
    });
    expect(decodeMeteoraDlmmPair(b5)).toMatchObject({
      tokenXMint: "B4rGSdcBrmLEPUQXpZa91PMsRE3GqNcjLd6EMvM3yaj2",
      reserveX: "HmAJViUS3iMSzuedDs1z4QxAPitnK8oNC6dwAaNrRTBE",
      reserveY: "2LAbjR3C5pWMVKh7HUWyEZ6wwubHwHB6B91vu5jaB3mr",
    });
    expect(decodeMeteoraDlmmPair(fjb)).toMatchObject({ tokenXMint: "FQuMNJ6UcrkA3xMLsmmLL8sk47RkZYod57mX3a8w1brg", tokenYMint: WSOL_MINT });
  });

  it("rejects a wrong owner, size and discriminator", () => {
    expect(() => decodeMeteoraDlmmPair(withOwner(esud, "cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG"))).toThrow(/owner/);
    expect(() => decodeMeteoraDlmmPair(withData(esud, (d) => d.subarray(0, 903)))).toThrow(/size/);
    expect(() => decodeMeteoraDlmmPair(flipByte(esud, 7))).toThrow(/discriminator/);
  });
});

describe("Meteora DLMM derivation", () => {
  it("derives EtAdVRLF from its mints with bin_step 250 / base_factor 4000", async () => {
    const pair = decodeMeteoraDlmmPair(etad);
    expect(await findMeteoraDlmmPairAddress(pair.tokenYMint, pair.tokenXMint, { binStep: 250, baseFactor: 4000 })).toBe(etad.address);
    expect(await listMeteoraDlmmPairCandidates(pair.tokenXMint)).toContainEqual({ pool: etad.address, kind: "meteora-dlmm", quoteMint: WSOL_MINT });
  });

  it("derives the PresetParameter2 pairs ESuD7dd6 (21), 8ztFxjFP (71), B5Eia4cE and FJbEo74c (0)", async () => {
    for (const [fixture, pool, index] of [
      [esud, ESUD, 21],
      [eight, eight.address, 71],
      [b5, b5.address, 0],
      [fjb, fjb.address, 0],
    ] as const) {
      // Given the pair's stored base key and mints
      const pair = decodeMeteoraDlmmPair(fixture);
      // When the preset PDA and the keyed pair are derived
      const preset = await findMeteoraDlmmPreset2Address(index);
      // Then the preset is the pair's base_key (byte 784, not decoded for pricing) and the pair is the fixture
      expect(preset).toBe(getAddressDecoder().decode(fixture.data, 784));
      expect(await findMeteoraDlmmKeyedPairAddress(preset, pair.tokenXMint, pair.tokenYMint)).toBe(pool);
      expect(await listMeteoraDlmmPairCandidates(pair.tokenXMint)).toContainEqual({ pool, kind: "meteora-dlmm", quoteMint: WSOL_MINT });
    }
  });
});

describe("Meteora DLMM pricing", () => {
  it("prices EtAdVRLF from active bin 15 with its real reserves and mint decimals", () => {
    // Given the pair, its two reserve accounts and the pump mint (6 decimals)
    const pair = decodeMeteoraDlmmPair(etad);
    const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : decodeMint(etadMintX).decimals);
    expect(requiredAccountsForMeteoraDlmmPair(pair)).toEqual({ reserveX: pair.reserveX, reserveY: pair.reserveY });
    // When priced
    const price = priceFromMeteoraDlmmPair(pair, { reserveX: etadReserveX, reserveY: etadReserveY }, decimalsOf);
    // Then price = 1.025^15 × 10^(6 − 9) SOL per token, and depth is the reserve balances
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 1.025 ** 15 * 1e-3)).toBeLessThanOrEqual(1e-9);
    expect(price.baseMint).toBe(pair.tokenXMint);
    expect(price.quoteLiquidity).toBeGreaterThan(0n);
    expect(price.tradable).toBe(true);
  });

  it("prices ESuD7dd6 at a negative active id (-1054, bin step 80)", () => {
    // Given the pair (its fixture has no reserve accounts: balances stated here, above the protocol fees)
    const pair = decodeMeteoraDlmmPair(esud);
    const reserves = {
      reserveX: syntheticTokenAccount(pair.tokenXMint, 317260998460n + 5n),
      reserveY: syntheticTokenAccount(WSOL_MINT, 240423958n + 7n),
    };
    // When priced with a 6-decimal pump token
    const price = priceFromMeteoraDlmmPair(pair, reserves, (m) => (m === WSOL_MINT ? 9 : 6));
    // Then price = 1.008^-1054 × 10^-3 and depth excludes the protocol fees
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 1.008 ** -1054 * 1e-3)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ baseReserve: 5n, quoteLiquidity: 7n });
  });

  it("prices the Token-2022 pair B5Eia4cE with its 178-byte Token-2022 reserve", () => {
    const pair = decodeMeteoraDlmmPair(b5);
    const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : decodeMint(b5MintX).decimals);
    const price = priceFromMeteoraDlmmPair(pair, { reserveX: b5ReserveX, reserveY: b5ReserveY }, decimalsOf);
    expect(ratioToNumber(price.priceQuotePerBase)).toBe(1);
  });

  it("computes (1 + s/10⁴)^id within 1e-30 of the exact power", () => {
    for (const [binStep, id] of [[80, -1054], [250, 15], [1, 4000], [400, -1100]] as const) {
      // Given the exact rational (10⁴ + s)^|id| / 10⁴^|id|, inverted for negative ids
      const up = (10_000n + BigInt(binStep)) ** BigInt(Math.abs(id));
      const down = 10_000n ** BigInt(Math.abs(id));
      const exact = id >= 0 ? { num: up, den: down } : { num: down, den: up };
      // When the fixed-point power is computed
      const approx = dlmmBinPrice(binStep, id);
      // Then |approx − exact| / exact < 1e-30
      const diff = approx.num * exact.den - exact.num * approx.den;
      expect((diff < 0n ? -diff : diff) * 10n ** 30n < exact.num * approx.den).toBe(true);
    }
  });
});

/**
 * lb_clmm 0.12.0 (dlmm-sdk @fb02e51 idls/dlmm.json, "Sync release 0.12.0", limit orders): StaticParameters gained
 * function_type @35 (0 undetermined, 1 liquidity mining, 2 limit order) and collect_fee_mode @36 (0 input only,
 * 1 only Y); LbPair keeps 904 B with creator_pool_on_off_control @87, token_mint_x/y_program_flag @880/881 and
 * version @882. None moves the active-bin price; status @82 (0 enabled, 1 disabled) still gates swaps.
 */
describe("Meteora DLMM lb_clmm 0.12.0 fields", () => {
  const withBytes = (writes: Record<number, number>) =>
    withData(esud, (d) => {
      for (const [offset, value] of Object.entries(writes)) d[Number(offset)] = value;
      return d;
    });
  const reserves = (pair: ReturnType<typeof decodeMeteoraDlmmPair>) => ({
    reserveX: syntheticTokenAccount(pair.tokenXMint, 317260998460n + 5n),
    reserveY: syntheticTokenAccount(WSOL_MINT, 240423958n + 7n),
  });
  const decimalsOf = (m: string) => (m === WSOL_MINT ? 9 : 6);

  it("a limit-order pair collecting fees in Y only, with the creator on/off control and version set, prices as before", () => {
    // Given ESuD7dd6 with function_type 2, collect_fee_mode 1, creator_pool_on_off_control 1, token-2022 X flag, version 1
    const newer = decodeMeteoraDlmmPair(withBytes({ 35: 2, 36: 1, 87: 1, 880: 1, 882: 1 }));
    const original = decodeMeteoraDlmmPair(esud);
    // When decoded and priced / Then the pair and its price are those of the original bytes
    expect(newer).toEqual(original);
    expect(priceFromMeteoraDlmmPair(newer, reserves(newer), decimalsOf)).toEqual(
      priceFromMeteoraDlmmPair(original, reserves(original), decimalsOf),
    );
  });

  it("status 1 (disabled, e.g. by the creator's on/off control) makes the pair untradable", () => {
    const disabled = decodeMeteoraDlmmPair(withBytes({ 82: 1, 87: 1 }));
    expect(disabled.status).toBe(1);
    expect(priceFromMeteoraDlmmPair(disabled, reserves(disabled), decimalsOf).tradable).toBe(false);
  });
});
