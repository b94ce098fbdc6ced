import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { WSOL_MINT } from "../../../src/solana/well-known";
import {
  decodeMeteoraDammV1Pool,
  findMeteoraDammV1ConfigAddress,
  findMeteoraDammV1ConfigPoolAddress,
  listMeteoraDammV1PoolCandidates,
  meteoraDammV1BaseVirtualPrice,
  priceFromMeteoraDammV1Pool,
  requiredAccountsForMeteoraDammV1Pool,
  requiredVaultLpMintsForMeteoraDammV1,
} from "../../../src/venues/meteora-damm-v1";
import { decodeMeteoraVault, meteoraVaultUnlockedAmount } from "../../../src/venues/meteora-vault";
import { priceOfMint } from "../../../src/venues/pool-price";
import { clockAccount } from "./clock-account";
import { loadAccountFixture, ratioToNumber, relErr, withData, withOwner } from "../../helpers/fixtures";

const set = (name: string) => loadAccountFixture(`meteora-damm-v1/HcjZvfeS_pool_set/${name}.json`);
const poolAccount = set("HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur");
const MSOL = address("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So");
/** Marinade's State account from the same mainnet account set (the mSOL price the depeg pool reads). */
const marinadeState = set("8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC");
/** Past both vaults' last report by more than the 6 h unlock window: all profit unlocked. */
const NOW = 1_719_300_000n;
const related = {
  aVault: set("FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT"),
  bVault: set("8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm"),
  aVaultLp: set("HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD"),
  bVaultLp: set("GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g"),
  aVaultLpMint: set("FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j"),
  bVaultLpMint: set("21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb"),
  clock: clockAccount(NOW),
  depegStake: marinadeState,
};
/** The pool's depeg cache as stored (base_virtual_price u64 @900, base_cache_updated u64 @908). */
const STORED_VIRTUAL_PRICE = 1_198_483n;
const BASE_CACHE_UPDATED = 1_719_234_101n;
/** Independent of the decoders: Marinade State msol_price u64 at 512 (8-byte discriminator + the IDL's fields). */
const MARINADE_MSOL_PRICE = new DataView(marinadeState.data.buffer, marinadeState.data.byteOffset).getBigUint64(512, true);
/** The SDK's formula (stable-swap.ts getBasePoolVirtualPrice): msolPrice × 10⁶ / 2³², floor. */
const MARINADE_VIRTUAL_PRICE = (MARINADE_MSOL_PRICE * 1_000_000n) / 2n ** 32n;

/** The pool bytes with another cached virtual price written at 900 (the rest real). */
const withStoredVirtualPrice = (price: bigint) =>
  withData(poolAccount, (d) => {
    new DataView(d.buffer, d.byteOffset).setBigUint64(900, price, true);
    return d;
  });

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
      baseVirtualPrice: STORED_VIRTUAL_PRICE,
      baseCacheUpdated: BASE_CACHE_UPDATED,
      depegType: 1,
      // a Marinade pool names no SPL stake pool
      stake: "11111111111111111111111111111111",
      // bootstrapping unset (a pool older than activation points): open from the start
      activationPoint: 0n,
      activationType: 0,
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

  it("names the accounts to read in two steps: vaults, LP holdings, Clock and stake pool, then the vault LP mints", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    expect(requiredAccountsForMeteoraDammV1Pool(pool)).toEqual({
      aVault: pool.aVault,
      bVault: pool.bVault,
      aVaultLp: pool.aVaultLp,
      bVaultLp: pool.bVaultLp,
      clock: "SysvarC1ock11111111111111111111111111111111",
      depegStake: "8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC",
    });
    expect(requiredVaultLpMintsForMeteoraDammV1(decodeMeteoraVault(related.aVault), decodeMeteoraVault(related.bVault))).toEqual({
      aVaultLpMint: "FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j",
      bVaultLpMint: "21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb",
    });
  });
});

/** wSOL vault FERjPVNE: total, locked profit at last report, last report, degradation (per second, / 10¹²). */
const WSOL_VAULT = { total: 154402082133447n, lockedAtReport: 2783432316n, lastReport: 1719233007n, degradation: 46296296n };
/** Independent: the wSOL vault's unlocked amount at `now`, total − locked × (1 − elapsed × degradation / 10¹²). */
function wsolVaultUnlocked(now: bigint): bigint {
  const ratioE12 = (now - WSOL_VAULT.lastReport) * WSOL_VAULT.degradation;
  const locked = ratioE12 >= 10n ** 12n ? 0n : (WSOL_VAULT.lockedAtReport * (10n ** 12n - ratioE12)) / 10n ** 12n;
  return WSOL_VAULT.total - locked;
}
/** What the pool owns through the wSOL vault at `now` (its vault-LP shares / LP supply, from the fixtures). */
const poolShareOfWsol = (now: bigint) => (wsolVaultUnlocked(now) * 41924615981385n) / 145998019653473n;

/** Independent float model of the pool at chain time `now`: vault shares, then the stable-swap marginal price at `virtualPrice`. */
function floatStablePrice(virtualPrice = Number(MARINADE_VIRTUAL_PRICE), now = NOW): { a: number; b: number; price: number } {
  const a = (Number(wsolVaultUnlocked(now)) * 41924615981385) / 145998019653473;
  const b = (82323752629142 * 78979143181675) / 81482558527139;
  const x = a * 1e6;
  const y = b * virtualPrice;
  const ann = 2000;
  let d = x + y;
  for (let i = 0; i < 100; i++) {
    const dP = (d * d * d) / (4 * x * y);
    d = ((ann * (x + y) + 2 * dP) * d) / ((ann - 1) * d + 3 * dP);
  }
  const dydx = (ann + d ** 3 / (4 * x * x * y)) / (ann + d ** 3 / (4 * x * y * y));
  return { a, b, price: (dydx * 1e6) / virtualPrice };
}

describe("Meteora DAMM v1 pricing", () => {
  it("prices the mSOL/SOL stable pool from vault shares and the stable-swap curve", () => {
    // Given the full account set of HcjZvfeS and a Clock after the vaults' profit unlocked
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    // When priced
    const price = priceFromMeteoraDammV1Pool(pool, related, () => 9);
    // Then reserves and price agree with a float model, and mSOL trades near its virtual price
    const model = floatStablePrice();
    expect(relErr(Number(price.baseReserve), model.a)).toBeLessThan(1e-12);
    expect(relErr(Number(price.quoteLiquidity), model.b)).toBeLessThan(1e-12);
    expect(relErr(ratioToNumber(price.priceQuotePerBase), model.price)).toBeLessThanOrEqual(1e-9);
    const msolInSol = ratioToNumber(priceOfMint(price, MSOL).priceQuotePerBase);
    expect(msolInSol).toBeGreaterThan(1.19);
    expect(msolInSol).toBeLessThan(1.21);
  });

  it("prices a constant-product pool as reserve B / reserve A", () => {
    const pool = { ...decodeMeteoraDammV1Pool(poolAccount), curveType: 0 };
    const price = priceFromMeteoraDammV1Pool(pool, related, () => 9);
    const model = floatStablePrice();
    expect(relErr(ratioToNumber(price.priceQuotePerBase), model.b / model.a)).toBeLessThanOrEqual(1e-9);
  });

  it("refuses vault accounts swapped between the two sides", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    const swapped = { ...related, aVault: related.bVault, bVault: related.aVault };
    expect(() => priceFromMeteoraDammV1Pool(pool, swapped, () => 9)).toThrow(/mismatch/);
  });
});

describe("Meteora DAMM v1 depeg virtual price (BASE_CACHE_EXPIRES = 600 s, by the Clock)", () => {
  it("recomputes mSOL's virtual price from the Marinade State as the SDK does, equal to what the program cached", () => {
    // Given the pool and Marinade's State from the same mainnet snapshot, the cache 10 min + 1 s old
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    // When the price is taken
    const recomputed = meteoraDammV1BaseVirtualPrice(pool, BASE_CACHE_UPDATED + 601n, marinadeState);
    // Then it is msolPrice × 10⁶ / 2³² from the raw bytes — the value the program itself stored from that State
    expect(recomputed).toBe(MARINADE_VIRTUAL_PRICE);
    expect(recomputed).toBe(STORED_VIRTUAL_PRICE);
    expect(Number(MARINADE_MSOL_PRICE) / 2 ** 32).toBeCloseTo(1.19848308, 8);
  });

  it("uses the stored price while it is at most 600 s old by the Clock, even with the stake pool unread", () => {
    // Given a pool whose cached price differs from Marinade's (1.190000 instead of 1.198483)
    const pool = decodeMeteoraDammV1Pool(withStoredVirtualPrice(1_190_000n));
    // When the Clock is 0 s, 300 s and exactly 600 s past the cache (the program refreshes only when now > updated + 600)
    for (const age of [0n, 300n, 600n]) {
      // Then the stored price is used as is
      expect(meteoraDammV1BaseVirtualPrice(pool, BASE_CACHE_UPDATED + age, marinadeState)).toBe(1_190_000n);
      expect(meteoraDammV1BaseVirtualPrice(pool, BASE_CACHE_UPDATED + age, undefined)).toBe(1_190_000n);
    }
  });

  it("recomputes an older one from the stake pool, and refuses to price without it", () => {
    const pool = decodeMeteoraDammV1Pool(withStoredVirtualPrice(1_190_000n));
    expect(meteoraDammV1BaseVirtualPrice(pool, BASE_CACHE_UPDATED + 601n, marinadeState)).toBe(MARINADE_VIRTUAL_PRICE);
    expect(() => meteoraDammV1BaseVirtualPrice(pool, BASE_CACHE_UPDATED + 601n, undefined)).toThrow(/stake-pool account not read/);
  });

  it("prices with the stored price inside the window and the recomputed one after it (the Clock decides)", () => {
    // Given the pool with a stale cached 1.190000 and the real Marinade State
    const pool = decodeMeteoraDammV1Pool(withStoredVirtualPrice(1_190_000n));
    const fresh = priceFromMeteoraDammV1Pool(pool, { ...related, clock: clockAccount(BASE_CACHE_UPDATED + 600n) }, () => 9);
    const expired = priceFromMeteoraDammV1Pool(pool, { ...related, clock: clockAccount(BASE_CACHE_UPDATED + 601n) }, () => 9);
    // Then each follows the float model at its virtual price and chain time (mSOL ≈ 1.19 and ≈ 1.1985 SOL)
    const model = (virtualPrice: number, now: bigint) => floatStablePrice(virtualPrice, now).price;
    expect(relErr(ratioToNumber(fresh.priceQuotePerBase), model(1_190_000, BASE_CACHE_UPDATED + 600n))).toBeLessThanOrEqual(1e-9);
    expect(relErr(ratioToNumber(expired.priceQuotePerBase), model(Number(MARINADE_VIRTUAL_PRICE), BASE_CACHE_UPDATED + 601n))).toBeLessThanOrEqual(1e-9);
    const msolInSol = (p: typeof fresh) => ratioToNumber(priceOfMint(p, MSOL).priceQuotePerBase);
    expect(msolInSol(expired) / msolInSol(fresh)).toBeCloseTo(1.198483 / 1.19, 4);
  });

  it("leaves constant-product pools and pools without a depeg type alone (no stake pool, stored price unused)", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    expect(requiredAccountsForMeteoraDammV1Pool({ ...pool, curveType: 0 })).not.toHaveProperty("depegStake");
    expect(requiredAccountsForMeteoraDammV1Pool({ ...pool, depegType: 0 })).not.toHaveProperty("depegStake");
    const { depegStake: _unused, ...withoutStake } = related;
    const noDepeg = priceFromMeteoraDammV1Pool({ ...pool, depegType: 0, baseVirtualPrice: 0n }, withoutStake, () => 9);
    expect(ratioToNumber(priceOfMint(noDepeg, MSOL).priceQuotePerBase)).toBeGreaterThan(0.99);
  });

  it("names the stake pool of each depeg type: Lido's state, or the pool's own stake field for SPL stake pools", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    const jitoStakePool = address("Jito4APyf642JPZPx3hGc6WWJ8zPKtRbRs4P815Awbb");
    expect(requiredAccountsForMeteoraDammV1Pool({ ...pool, depegType: 2 }).depegStake).toBe("49Yi1TKkNyYjPAFdR9LBvoHcUjuPX4Df5T5yv39w2XTn");
    expect(requiredAccountsForMeteoraDammV1Pool({ ...pool, depegType: 3, stake: jitoStakePool }).depegStake).toBe(jitoStakePool);
  });
});

describe("Meteora DAMM v1 chain time (Clock sysvar) for the vaults' locked profit", () => {
  it("takes the Clock account's unix_timestamp: two Clock values, two amounts, each the vault formula's", () => {
    // Given the same accounts read at two chain times inside the 6 h unlock window (and inside the depeg cache window)
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    const early = BASE_CACHE_UPDATED + 10n;
    const late = BASE_CACHE_UPDATED + 500n;
    // When priced
    const atEarly = priceFromMeteoraDammV1Pool(pool, { ...related, clock: clockAccount(early) }, () => 9);
    const atLate = priceFromMeteoraDammV1Pool(pool, { ...related, clock: clockAccount(late) }, () => 9);
    // Then more profit is unlocked later, exactly as total − locked × (1 − elapsed × degradation / 10¹²)
    expect(atEarly.baseReserve).toBe(poolShareOfWsol(early));
    expect(atLate.baseReserve).toBe(poolShareOfWsol(late));
    expect(atLate.baseReserve).toBeGreaterThan(atEarly.baseReserve);
  });

  it("refuses a Clock that is not the sysvar", () => {
    const pool = decodeMeteoraDammV1Pool(poolAccount);
    expect(() => priceFromMeteoraDammV1Pool(pool, { ...related, clock: withOwner(related.clock, "11111111111111111111111111111111") }, () => 9)).toThrow(
      /ClockSysvar: owner/,
    );
  });
});
