import { address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { findProgramAddressSync } from "../../../src/solana/program-address";
import { LOCKER_AUTHORITIES, LOCKER_PROGRAMS, lockerOf, lpLockerOf } from "../../../src/security/lockers";

const RAYDIUM_LOCK = address("LockrWmn6K5twhz3y9w1dQERbmgSaRkfnTeTKbpofwE");
const DAMM_V1 = address("Eo7WjKq67rjJQSZxS6z3YkapzY3eMj6Xy8X5EQVn5UaB");
const wallet = address("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");

describe("known lockers", () => {
  it("the Raydium locker's CPMM authority is its PDA of [\"lock_cp_authority_seed\"]", () => {
    // Given the seed the Raydium locker derives its CPMM LP authority from
    const [pda] = findProgramAddressSync(RAYDIUM_LOCK, ["lock_cp_authority_seed"]);
    // Then the table's authority is that PDA, and it belongs to the Raydium locker
    expect(LOCKER_AUTHORITIES.get(pda)).toBe("raydium-lp-lock");
    expect(LOCKER_PROGRAMS.get(RAYDIUM_LOCK)).toBe("raydium-lp-lock");
  });

  it("an owner is a locker by its authority address, or by the program owning its account", () => {
    const [authority] = findProgramAddressSync(RAYDIUM_LOCK, ["lock_cp_authority_seed"]);
    expect(lockerOf(authority, null)).toBe("raydium-lp-lock");
    expect(lockerOf(wallet, address("LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn"))).toBe("jupiter-lock");
    expect(lockerOf(wallet, address("strmRqUCoQUgGUan5YhzUZa6KqdzwX5L6FpUxfmKg5m"))).toBe("streamflow");
    expect(lockerOf(wallet, address("11111111111111111111111111111111"))).toBeUndefined();
    expect(lockerOf(wallet, null)).toBeUndefined();
  });

  it("a DAMM v1 account (a Meteora lock escrow) locks LP, but is not a locker of the token itself", () => {
    expect(lpLockerOf(wallet, DAMM_V1)).toBe("meteora-lock-escrow");
    expect(lockerOf(wallet, DAMM_V1)).toBeUndefined();
  });
});

describe("lockers beyond Jupiter, Streamflow and Raydium's CPMM lock", () => {
  it("UNCX's four Raydium locker programs and their LP storage accounts are lockers (docs.uncx.network, Solana Lockers)", () => {
    for (const program of ["GsSCS3vPWrtJ5Y9aEVVT65fmrex5P5RGHXdZvsdbWgfo", "UNCX77nZrA3TdAxMEggqG18xxpgiNGT6iqyynPwpoxN", "UNCXdvMRxvz91g3HqFmpZ5NgmL77UH4QRM4NfeL4mQB", "UNCXrB8cZXnmtYM1aSo1Wx3pQaeSZYuF2jCTesXvECs"]) {
      expect(lockerOf(wallet, address(program)), program).toBe("uncx");
    }
    for (const storage of ["BzKincxjgFQjj4FmhaWrwHES1ekBGN73YesA7JwJJo7X", "DAtFFs2mhQFvrgNLA29vEDeTLLN8vHknAaAhdLEc4SQH", "FEmGEWdxCBSJ1QFKeX5B6k7VTDPwNU3ZLdfgJkvGYrH5", "GAYWATob4bqCj3fhVm8ZxoMSqUW2fb6e6SBQ7kk5qyps"]) {
      expect(lpLockerOf(address(storage), null), storage).toBe("uncx");
    }
  });

  it("Raydium's CLMM lock authority (it holds locked CLMM position NFTs) is the Raydium locker", () => {
    expect(lockerOf(address("kN1kEznaF5Xbd8LYuqtEFcxzWSBk5Fv6ygX6SqEGJVy"), null)).toBe("raydium-lp-lock");
  });
});
