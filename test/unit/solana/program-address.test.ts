import { createHash } from "node:crypto";
import { getAddressDecoder, getProgramDerivedAddress, isOffCurveAddress, address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { findProgramAddressSync, isOnCurve } from "../../../src/solana/program-address";

const decoder = getAddressDecoder();
const bytes = (label: string) => new Uint8Array(createHash("sha256").update(label).digest());

describe("synchronous PDAs agree with @solana/kit", () => {
  it("isOnCurve matches kit on 5,000 random 32-byte strings and the y = ±1 edge cases", () => {
    const samples = Array.from({ length: 5000 }, (_, i) => bytes(`sample-${i}`));
    const one = new Uint8Array(32);
    one[0] = 1;
    const oneNeg = one.slice();
    oneNeg[31] = 0x80;
    samples.push(one, oneNeg, new Uint8Array(32).fill(0xff));
    let onCurve = 0;
    for (const s of samples) {
      const ours = isOnCurve(s);
      expect(ours).toBe(!isOffCurveAddress(decoder.decode(s)));
      if (ours) onCurve++;
    }
    // About half of random strings are points: the test exercises both branches.
    expect(onCurve).toBeGreaterThan(2000);
    expect(onCurve).toBeLessThan(3000);
  });

  it("findProgramAddressSync equals getProgramDerivedAddress for 300 seed sets", async () => {
    const programs = ["CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C", "6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P", "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo"].map((a) => address(a));
    for (let i = 0; i < 300; i++) {
      const programAddress = programs[i % programs.length]!;
      const seeds = ["pool", bytes(`a${i}`), bytes(`b${i}`).subarray(0, i % 33)];
      const [kitPda, kitBump] = await getProgramDerivedAddress({ programAddress, seeds });
      expect(findProgramAddressSync(programAddress, seeds)).toEqual([kitPda, kitBump]);
    }
  });

  it("derives known mainnet PDAs (pump Global, Raydium AMM authority)", () => {
    expect(findProgramAddressSync(address("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P"), ["global"])[0]).toBe("4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf");
    expect(findProgramAddressSync(address("675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8"), ["amm authority"])[0]).toBe("5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1");
  });

  it("rejects seeds longer than 32 bytes like the runtime", () => {
    expect(() => findProgramAddressSync(address("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P"), [new Uint8Array(33)])).toThrow(RangeError);
  });
});
