import { describe, expect, it } from "vitest";
import { decodeClockSysvar } from "../../../../src/solana/accounts/clock-sysvar";
import { clockAccount } from "../../venues/clock-account";
import { withData, withOwner } from "../../../helpers/fixtures";

describe("Clock sysvar", () => {
  it("decodes slot (u64 @0), epoch (u64 @16) and unix_timestamp (i64 @32) of the 40-byte bincode Clock", () => {
    // Given a Clock at slot 275,000,000 and unix time 1,719,234,101
    const clock = clockAccount(1_719_234_101n, 275_000_000n);
    // Then all three read back (epoch 636 = 275,000,000 / 432,000), and a negative i64 stays negative
    expect(decodeClockSysvar(clock)).toEqual({ slot: 275_000_000n, epoch: 636n, unixTimestamp: 1_719_234_101n });
    expect(decodeClockSysvar(clockAccount(-5n)).unixTimestamp).toBe(-5n);
  });

  it("refuses an account not owned by the Sysvar program, or of another size", () => {
    const clock = clockAccount(1n);
    expect(() => decodeClockSysvar(withOwner(clock, "11111111111111111111111111111111"))).toThrow(/ClockSysvar: owner/);
    expect(() => decodeClockSysvar(withData(clock, (d) => d.subarray(0, 39)))).toThrow(/ClockSysvar: size/);
    expect(() => decodeClockSysvar(withData(clock, () => new Uint8Array(41)))).toThrow(/ClockSysvar: size/);
  });
});
