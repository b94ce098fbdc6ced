import { address, type Address } from "@solana/kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AccountLookup, Evaluation } from "../../../src/venues/pool-adapter";
import { adapterByKind } from "../../../src/venues/pool-adapters";
import { AccountDecodeError } from "../../../src/solana/accounts/decode-error";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { clockAccount } from "./clock-account";
import { loadAccountFixture } from "../../helpers/fixtures";

const set = (name: string) => loadAccountFixture(`meteora-damm-v1/HcjZvfeS_pool_set/${name}.json`);
const POOL = "HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur";
const MSOL = address("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So");
const CLOCK = address("SysvarC1ock11111111111111111111111111111111");
const MARINADE_STATE = address("8szGkuLTAux9XMgZ2vtY39jVSowEcpBfFfD8hXSEqdGC");
const VAULTS_AND_LP = [
  "FERjPVNEa7Udq8CEv68h6tPL46Tq7ieE49HrE2wea3XT",
  "8p1VKP45hhqq5iZG5fNGoi7ucme8nFLeChoDWNy7rWFm",
  "HWnWnLvBzvSmXH5hnHJCFmuQbDTsX3Ba2w9CPE5zf4YD",
  "GGG4DxkYa86g2v4KwtvR8Xu2tXEp1xd4BRC3yNnpve3g",
];
const LP_MINTS = ["FZN7QZ8ZUUAxMPfxYEYkH3cXUASzH8EqA6B4tyCL8f1j", "21bR3D4QR4GzopVco44PVMBXwHFpSYrbrdeNwdKk7umb"];
/** The pool cached mSOL's virtual price at this unix time (base_cache_updated @908). */
const BASE_CACHE_UPDATED = 1_719_234_101n;

const adapter = adapterByKind.get("meteora-damm-v1")!;
const poolAccount = set(POOL);

/** The upstream's answers so far, as the router's lookup sees them (undefined = not read yet, null = absent). */
function chain(clock: AccountBytes, names: readonly string[], absent: readonly Address[] = []): AccountLookup {
  const accounts = new Map<Address, AccountBytes | null>(names.map((n) => [address(n), set(n)]));
  accounts.set(CLOCK, clock);
  for (const a of absent) accounts.set(a, null);
  return (a) => accounts.get(a);
}
const evaluate = (lookup: AccountLookup): Evaluation => adapter.evaluate(poolAccount, MSOL, lookup, () => 9);
const priced = (e: Evaluation) => {
  if (e.kind !== "priced") throw new Error(`not priced: needs ${e.addresses.join(", ")}`);
  return e.price;
};

afterEach(() => vi.restoreAllMocks());

describe("DAMM v1 adapter: Clock and depeg stake pool as related accounts", () => {
  it("asks for the Clock and Marinade's State in the same read as the vaults, and remembers them with the pool", () => {
    // Given only the pool has been read
    const first = evaluate(() => undefined);
    // Then the next read is the vaults, the LP holdings, the Clock and the stake pool, together
    expect(first.kind).toBe("needs");
    expect(first.kind === "needs" && [...first.addresses].sort()).toEqual([...VAULTS_AND_LP, CLOCK, MARINADE_STATE].sort());
    // And once everything is read, the related accounts remembered for later cold reads include both
    const done = evaluate(chain(clockAccount(BASE_CACHE_UPDATED + 60n), [...VAULTS_AND_LP, ...LP_MINTS, MARINADE_STATE]));
    expect(done.kind).toBe("priced");
    expect(Object.values(done.related).sort()).toEqual([...VAULTS_AND_LP, ...LP_MINTS, CLOCK, MARINADE_STATE].sort());
  });

  it("reads time from the Clock account, not the server's clock", () => {
    // Given the same accounts, and a server clock moved by a day between two evaluations
    const lookup = chain(clockAccount(BASE_CACHE_UPDATED + 60n), [...VAULTS_AND_LP, ...LP_MINTS, MARINADE_STATE]);
    vi.spyOn(Date, "now").mockReturnValue(Number(BASE_CACHE_UPDATED) * 1000);
    const before = priced(evaluate(lookup));
    vi.spyOn(Date, "now").mockReturnValue(Number(BASE_CACHE_UPDATED + 86_400n) * 1000);
    const after = priced(evaluate(lookup));
    // Then nothing changes; a different Clock value does change the unlocked vault amount
    expect(after).toEqual(before);
    const later = priced(evaluate(chain(clockAccount(BASE_CACHE_UPDATED + 500n), [...VAULTS_AND_LP, ...LP_MINTS, MARINADE_STATE])));
    expect(later.baseReserve).toBeGreaterThan(before.baseReserve);
  });

  it("leaves the pool unpriced (a decode error the router skips) when its cache expired and the stake pool is gone", () => {
    const expired = chain(clockAccount(BASE_CACHE_UPDATED + 601n), [...VAULTS_AND_LP, ...LP_MINTS], [MARINADE_STATE]);
    expect(() => evaluate(expired)).toThrow(AccountDecodeError);
  });
});
