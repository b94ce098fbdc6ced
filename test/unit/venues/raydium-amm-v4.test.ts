import { getAddressDecoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { USDC_MINT, WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeRaydiumAmmV4Pool,
  findRaydiumAmmV4PoolAddress,
  priceFromRaydiumAmmV4Pool,
  requiredAccountsForRaydiumAmmV4Pool,
} from "../../../src/venues/raydium-amm-v4";
import { loadAccountFixture, ratioToNumber, relErr, syntheticTokenAccount, withData, withOwner } from "../../helpers/fixtures";

const solUsdc = loadAccountFixture("raydium-amm-v4/amm_info_58oQChx4_SOL_USDC_unattributed.json");
const adsx = loadAccountFixture("raydium-amm-v4/amm_info_8WQsKRXN_ADSX_WSOL_screenerbot.json");
const fora = loadAccountFixture("raydium-amm-v4/amm_info_5y2QYKY8_ForaXiBD_USDC_jupiter_docs.json");

describe("Raydium AMM v4 decoding", () => {
  it("decodes SOL/USDC 58oQChx4 as its Go test asserts", () => {
    // Given the 752-byte AmmInfo / When decoded
    const pool = decodeRaydiumAmmV4Pool(solUsdc);
    // Then status 6, decimals 9/6, need_take_pnl 183502858/21928100 and vaults DQyrAcCr…/HLmqeL62…
    expect(pool).toMatchObject({
      status: 6,
      coinDecimals: 9,
      pcDecimals: 6,
      needTakePnlCoin: 183502858n,
      needTakePnlPc: 21928100n,
      coinMint: WSOL_MINT,
      pcMint: USDC_MINT,
    });
    expect(pool.coinVault.startsWith("DQyrAcCr")).toBe(true);
    expect(pool.pcVault.startsWith("HLmqeL62")).toBe(true);
  });

  it("decodes ADSX/WSOL 8WQsKRXN and ForaXiBD/USDC 5y2QYKY8 as the collector did", () => {
    expect(decodeRaydiumAmmV4Pool(adsx)).toEqual({
      status: 6,
      coinDecimals: 9,
      pcDecimals: 9,
      needTakePnlCoin: 0n,
      needTakePnlPc: 0n,
      coinVault: "CveKgAzJW8jzyjBxDZLGtVbY251PCKcXDwQ5dtTfuefP",
      pcVault: "4pJFH98gmpF9JH2PiwF1dWRw9V9nAsrZHT2h72DDemvK",
      coinMint: "ADSXPGwP3riuvqYtwqogCD4Rfn1a6NASqaSpThpsmoon",
      pcMint: WSOL_MINT,
      poolOpenTime: 1753232465n,
    });
    expect(decodeRaydiumAmmV4Pool(fora)).toMatchObject({
      status: 1,
      coinDecimals: 9,
      pcDecimals: 6,
      needTakePnlCoin: 4566028610387n,
      needTakePnlPc: 3520673n,
      coinMint: "ForaXiBD8K3a7C1PwxV1xqDHs5aV8y8nWRmHebafdkes",
      pcMint: USDC_MINT,
    });
  });

  it("rejects a wrong owner and any size but 752 (the layout has no discriminator)", () => {
    expect(() => decodeRaydiumAmmV4Pool(withOwner(solUsdc, "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C"))).toThrow(/owner/);
    expect(() => decodeRaydiumAmmV4Pool(withData(solUsdc, (d) => d.subarray(0, 751)))).toThrow(/size/);
    expect(() => decodeRaydiumAmmV4Pool(withData(solUsdc, () => new Uint8Array(753)))).toThrow(/size/);
  });
});

describe("Raydium AMM v4 derivation", () => {
  it("derives 8WQsKRXN and 5y2QYKY8 from their markets; SOL/USDC 58oQChx4 is not a PDA", async () => {
    // Given each pool's stored market (byte 528; the collector decodes 414C4Kam… and 2HqK6oen…)
    const market = (f: typeof adsx) => getAddressDecoder().decode(f.data, 528);
    expect(market(adsx)).toBe("414C4KamXeQFnP6XToDS4AdBQ4MMyKnb7zBLKV8z8cBf");
    expect(market(fora)).toBe("2HqK6oenRGVi5kY92Q2tQUk1kBkrKHQ7ZZZ2dw9GScqP");
    // When the amm PDA is derived / Then it is the pool for the two newer ones only
    expect(await findRaydiumAmmV4PoolAddress(market(adsx))).toBe(adsx.address);
    expect(await findRaydiumAmmV4PoolAddress(market(fora))).toBe(fora.address);
    expect(await findRaydiumAmmV4PoolAddress(market(solUsdc))).not.toBe(solUsdc.address);
  });

});

describe("Raydium AMM v4 pricing", () => {
  it("prices coin in pc from vault balances minus need_take_pnl", () => {
    // Given SOL/USDC with vaults holding 100,000 SOL and 16,751,519 USDC (plus the pending PnL)
    const pool = decodeRaydiumAmmV4Pool(solUsdc);
    const related = {
      coinVault: syntheticTokenAccount(WSOL_MINT, 100_000_000_000_000n + 183502858n),
      pcVault: syntheticTokenAccount(USDC_MINT, 16_751_519_000_000n + 21928100n),
    };
    expect(requiredAccountsForRaydiumAmmV4Pool(pool)).toEqual({ coinVault: pool.coinVault, pcVault: pool.pcVault });
    // When priced
    const price = priceFromRaydiumAmmV4Pool(pool, related);
    // Then 1 SOL = 167.51519 USDC, reserves exclude the PnL, status 6 (SwapOnly) trades
    expect(relErr(ratioToNumber(price.priceQuotePerBase), 16_751_519 / 100_000)).toBeLessThanOrEqual(1e-9);
    expect(price).toMatchObject({ quoteLiquidity: 16_751_519_000_000n, baseReserve: 100_000_000_000_000n, tradable: true });
  });
});

/**
 * raydium-amm 0.3.1 @27f461d ("Remove openbook dependency", 2026-07-23): AmmInfo keeps its 752-byte layout (the
 * OpenBook and swap-statistics fields are deprecated, not moved), swaps run on vault − need_take_pnl only, and
 * `AmmStatus::swap_permission` still allows Initialized (1), SwapOnly (6) and WaitingTrade (7).
 */
describe("Raydium AMM v4 status after the OpenBook removal", () => {
  it("only statuses 1, 6 and 7 are tradable", () => {
    const related = {
      coinVault: syntheticTokenAccount(WSOL_MINT, 10n ** 15n),
      pcVault: syntheticTokenAccount(USDC_MINT, 10n ** 15n),
    };
    const tradableAt = (status: number) =>
      priceFromRaydiumAmmV4Pool(
        decodeRaydiumAmmV4Pool(withData(solUsdc, (d) => (new DataView(d.buffer, d.byteOffset).setBigUint64(0, BigInt(status), true), d))),
        related,
      ).tradable;
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter(tradableAt)).toEqual([1, 6, 7]);
  });
});
