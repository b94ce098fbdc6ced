import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeMeteoraDammV1Pool,
  findMeteoraDammV1ConfigAddress,
  findMeteoraDammV1ConfigPoolAddress,
  listMeteoraDammV1PoolCandidates,
  priceFromMeteoraDammV1Pool,
  requiredAccountsForMeteoraDammV1Pool,
  requiredVaultLpMintsForMeteoraDammV1,
} from "../../../src/venues/meteora-damm-v1";
import { decodeMeteoraVault, meteoraVaultUnlockedAmount } from "../../../src/venues/meteora-vault";
import { priceOfMint } from "../../../src/venues/pool-price";
import { loadAccountFixture, ratioToNumber, relativeError, withData, withOwner } from "./load-fixture";

const set = (name: string) => loadAccountFixture(`meteora-damm-v1/HcjZvfeS_pool_set/${name}.json`);
const poolAccount = set("HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur");
const MSOL = address("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So");
const related = {
  aVault: set("FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT"),
  bVault: set("8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm"),
  aVaultLp: set("HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD"),
  bVaultLp: set("GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g"),
  aVaultLpMint: set("FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j"),
  bVaultLpMint: set("21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb"),
};
/** Past both vaults' last report by more than the 6 h unlock window: all profit unlocked. */
const NOW = 1_719_300_000n;

describe("Meteora DAMM v1 decoding", () => {
  it("decodes the mSOL/SOL stable pool HcjZvfeS (collector decode; vault addresses as in its account set)", () => {
    expect(decodeMeteoraDammV1Pool(poolAccount)).toEqual({
      tokenAMint: WSOL_MINT,
      tokenBMint: MSOL,
      aVault: "FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT",
      bVault: "8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm",
      aVaultLp: "HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD",
      bVaultLp: "GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g",
      enabled: true,
      curveType: 1,
      amp: 1000n,
      tokenAMultiplier: 1n,
      tokenBMultiplier: 1n,
      baseVirtualPrice: 1198483n,
      depegType: 1,
    });
  });

  it("decodes both vaults, whose LP mints are the non-PDA ones of the SDK's exception table", () => {
    const wsolVault = decodeMeteoraVault(related.aVault);
    const msolVault = decodeMeteoraVault(related.bVault);
    expect(wsolVault).toMatchObject({ tokenMint: WSOL_MINT, lpMint: "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j", totalAmount: 154402082133447n });
    expect(msolVault).toMatchObject({ tokenMint: MSOL, lpMint: "21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb", totalAmount: 82323752629142n });
    // Locked profit decays linearly to zero: at last_report it is all locked, 6 h later none is
    expect(meteoraVaultUnlockedAmount(wsolVault, wsolVault.lastReport)).toBe(154402082133447n - 2783432316n);
    expect(meteoraVaultUnlockedAmount(wsolVault, NOW)).toBe(154402082133447n);
  });

  it("rejects the PumpSwap owner, a short pool and a vault passed as a pool", () => {
    expect(() => decodeMeteoraDammV1Pool(withOwner(poolAccount, "pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA"))).toThrow(/owner/);
    expect(() => decodeMeteoraDammV1Pool(withData(poolAccount, (d) => d.subarray(0, 916)))).toThrow(/size/);
    expect(() => decodeMeteoraDammV1Pool(withOwner(related.aVault, "Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB"))).toThrow(/discriminator/);
    expect(() => decodeMeteoraVault(poolAccount)).toThrow(/owner/);
  });
});

describe("Meteora DAMM v1 derivation", () => {
  it("derives pool 3Lxsto… (4eDf52…/SOL, swap tx 2mHGPXMz) from config index 29", async () => {
    const config = await findMeteoraDammV1ConfigAddress(29);
    expect(config).toBe("DzE3A8Yjuqk61Z4gQ71f2Jx8MgcX7RpxwWzYU3mKCvyh");
    const token = address("4eDf52YYzL6i6gbZ6FXqrLUPXbtP61f1gPSFM66M4XHe");
    expect(await findMeteoraDammV1ConfigPoolAddress(config, WSOL_MINT, token)).toBe("3LxstoarWCh6iC2NbQG4eXwvrNuSpr8kH7YyFmFu5tKZ");
    expect(await listMeteoraDammV1PoolCandidates(token)).toContainEqual({
      pool: "3LxstoarWCh6iC2NbQG4eXwvrNuSpr8kH7YyFmFu5tKZ",
      kind: "meteora-damm-v1",
      quoteMint: WSOL_MINT,
    });
  });

  it("cannot derive the permissioned HcjZvfeS", async () => {
    const pools = (await listMeteoraDammV1PoolCandidates(MSOL, [WSOL_MINT])).map((c) => c.pool);
    expect(pools).not.toContain(poolAccount.address);
  });

  it("names the accounts to read in two steps: vaults and LP holdings, then the vault LP mints", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    expect(requiredAccountsForMeteoraDammV1Pool(pool)).toEqual({
      aVault: pool.aVault,
      bVault: pool.bVault,
      aVaultLp: pool.aVaultLp,
      bVaultLp: pool.bVaultLp,
    });
    expect(requiredVaultLpMintsForMeteoraDammV1(decodeMeteoraVault(related.aVault), decodeMeteoraVault(related.bVault))).toEqual({
      aVaultLpMint: "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j",
      bVaultLpMint: "21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb",
    });
  });
});

/** Independent float model of the pool: vault shares, then the stable-swap marginal price. */
function floatStablePrice(): { a: number; b: number; price: number } {
  const a = (154402082133447 * 41924615981385) / 145998019653473;
  const b = (82323752629142 * 78979143181675) / 81482558527139;
  const x = a * 1e6;
  const y = b * 1198483;
  const ann = 2000;
  let d = x + y;
  for (let i = 0; i < 100; i++) {
    const dP = (d * d * d) / (4 * x * y);
    d = ((ann * (x + y) + 2 * dP) * d) / ((ann - 1) * d + 3 * dP);
  }
  const dydx = (ann + d ** 3 / (4 * x * x * y)) / (ann + d ** 3 / (4 * x * y * y));
  return { a, b, price: (dydx * 1e6) / 1198483 };
}

describe("Meteora DAMM v1 pricing", () => {
  it("prices the mSOL/SOL stable pool from vault shares and the stable-swap curve", () => {
    // Given the full account set of HcjZvfeS and a time after the vaults' profit unlocked
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    // When priced
    const price = priceFromMeteoraDammV1Pool(pool, related, () => 9, NOW);
    // Then reserves and price agree with a float model, and mSOL trades near its virtual price
    const model = floatStablePrice();
    expect(relativeError(Number(price.baseReserve), model.a)).toBeLessThan(1e-12);
    expect(relativeError(Number(price.quoteLiquidity), model.b)).toBeLessThan(1e-12);
    expect(relativeError(ratioToNumber(price.priceQuotePerBase), model.price)).toBeLessThanOrEqual(1e-9);
    const msolInSol = ratioToNumber(priceOfMint(price, MSOL).priceQuotePerBase);
    expect(msolInSol).toBeGreaterThan(1.19);
    expect(msolInSol).toBeLessThan(1.21);
  });

  it("prices a constant-product pool as reserve B / reserve A", () => {
    const pool = { ...decodeMeteoraDammV1Pool(poolAccount), curveType: 0 };
    const price = priceFromMeteoraDammV1Pool(pool, related, () => 9, NOW);
    const model = floatStablePrice();
    expect(relativeError(ratioToNumber(price.priceQuotePerBase), model.b / model.a)).toBeLessThanOrEqual(1e-9);
  });

  it("refuses vault accounts swapped between the two sides", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    const swapped = { ...related, aVault: related.bVault, bVault: related.aVault };
    expect(() => priceFromMeteoraDammV1Pool(pool, swapped, () => 9, NOW)).toThrow(/mismatch/);
  });
});
