/**
 * Raydium CLMM, Orca Whirlpool and Meteora DLMM positions: the layout tables (venues/position-accounts.ts) against a
 * real mainnet Whirlpool Position (test/fixtures/SOURCES.md) and the Anchor discriminators, and the position scan's
 * budget: past it the figures are left out saying why, while an outage still fails.
 */
import { createHash } from "node:crypto";

import { address, getAddressEncoder } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { limits } from "../../../src/limits";
import { readConcentratedPositionLocks } from "../../../src/security/concentrated-positions";
import { UpstreamError } from "../../../src/solana/upstream";
import {
  inRange,
  METEORA_DLMM_POSITION_SCAN,
  ORCA_WHIRLPOOL_POSITION_SCAN,
  RAYDIUM_CLMM_POSITION_SCAN,
  WHIRLPOOL_LOCK_CONFIG,
  type PositionScan,
} from "../../../src/venues/position-accounts";
import { loadAccountFixture } from "../../helpers/fixtures";

const anchorDiscriminator = (name: string) => createHash("sha256").update(`account:${name}`).digest("hex").slice(0, 16);
const slice = (scan: PositionScan, data: Uint8Array) => data.slice(scan.slice.offset, scan.slice.offset + scan.slice.length);

describe("position layouts", () => {
  it("each table's discriminator is its account's Anchor discriminator", () => {
    expect(RAYDIUM_CLMM_POSITION_SCAN.discriminator).toBe(anchorDiscriminator("PersonalPositionState"));
    expect(ORCA_WHIRLPOOL_POSITION_SCAN.discriminator).toBe(anchorDiscriminator("Position"));
    expect(METEORA_DLMM_POSITION_SCAN.discriminator).toBe(anchorDiscriminator("PositionV2"));
    expect(WHIRLPOOL_LOCK_CONFIG.discriminator).toBe(anchorDiscriminator("LockConfig"));
  });

  it("a mainnet Whirlpool Position decodes from the slice the scan reads: its pool, NFT, liquidity and range", () => {
    const fixture = loadAccountFixture("orca-whirlpool/position_4t8CquCQ_carbon.json");
    expect(fixture.owner).toBe(ORCA_WHIRLPOOL_POSITION_SCAN.program);
    expect(fixture.data.length).toBe(ORCA_WHIRLPOOL_POSITION_SCAN.size);
    expect(Buffer.from(fixture.data.subarray(0, 8)).toString("hex")).toBe(ORCA_WHIRLPOOL_POSITION_SCAN.discriminator);
    // the pool the scan filters on (memcmp @poolOffset)
    expect(Buffer.from(fixture.data.subarray(8, 40))).toEqual(Buffer.from(getAddressEncoder().encode(address("C9U2Ksk6KKWvLEeo5yUQ7Xu46X7NzeBJtd9PBfuXaUSM"))));
    expect(ORCA_WHIRLPOOL_POSITION_SCAN.poolOffset).toBe(8);
    const p = ORCA_WHIRLPOOL_POSITION_SCAN.decode(address("11111111111111111111111111111111"), slice(ORCA_WHIRLPOOL_POSITION_SCAN, fixture.data))!;
    expect(p.nftMint).toBe("4t8CquCQLazH6AZHtCdqfNowTvGztBRFdQ5ewimu8bpB");
    expect(p.liquidity.toString()).toBe("27713585964");
    expect(p.ticks).toEqual({ lower: -21264, upper: -19424 });
    expect([inRange(p.ticks!, -21264), inRange(p.ticks!, -19425), inRange(p.ticks!, -19424), inRange(p.ticks!, -21265)]).toEqual([true, true, false, false]);
  });

  it("a slice shorter than the fields is no position", () => {
    for (const scan of [RAYDIUM_CLMM_POSITION_SCAN, ORCA_WHIRLPOOL_POSITION_SCAN, METEORA_DLMM_POSITION_SCAN]) {
      expect(scan.decode(address("11111111111111111111111111111111"), new Uint8Array(scan.slice.length - 1))).toBeNull();
    }
  });

  it("a DLMM position's liquidity is its shares summed over its 70 bins, its owner the first field read", () => {
    const owner = address("LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn");
    const s = new Uint8Array(METEORA_DLMM_POSITION_SCAN.slice.length);
    s.set(getAddressEncoder().encode(owner), 0);
    const view = new DataView(s.buffer);
    // bin 0: 2^64 + 5, bin 69: 7 (u128 little-endian: low u64 then high u64)
    view.setBigUint64(32, 5n, true);
    view.setBigUint64(40, 1n, true);
    view.setBigUint64(32 + 16 * 69, 7n, true);
    const p = METEORA_DLMM_POSITION_SCAN.decode(address("11111111111111111111111111111111"), s)!;
    expect(p.owner).toBe(owner);
    expect(p.liquidity.toString()).toBe((2n ** 64n + 12n).toString());
    expect(p.nftMint).toBeNull();
  });
});

describe("position scan budget", () => {
  const pool = address("C9U2Ksk6KKWvLEeo5yUQ7Xu46X7NzeBJtd9PBfuXaUSM");
  const upstream = (scanError: UpstreamError) => ({
    calls: [] as string[],
    async call<T>(method: string, params: readonly unknown[] = []): Promise<{ result: T }> {
      this.calls.push(method);
      if (method === "getProgramAccounts") throw scanError;
      if (method === "getMultipleAccounts") return { result: { context: { slot: 42 }, value: (params[0] as string[]).map(() => null) } as T };
      throw new Error(`unexpected ${method}`);
    },
  });

  for (const dex of ["raydium-clmm", "orca-whirlpool", "meteora-dlmm"]) {
    for (const kind of ["answer-too-large", "timeout"] as const) {
      it(`${dex}: a scan answered with ${kind} leaves the figures out, saying why`, async () => {
        const rpc = upstream(new UpstreamError(kind, "budget"));
        const answer = await readConcentratedPositionLocks(rpc, pool, dex);
        expect(answer.positions).toBeNull();
        expect(answer.message).toContain(`${limits.security.positionsScanMaxBytes} bytes`);
        expect(answer.source.unseen).toMatch(/scan's budget/);
        expect(rpc.calls.filter((m) => m === "getTokenLargestAccounts")).toEqual([]);
      });
    }

    it(`${dex}: an account that is not the venue's pool gives no figures, saying so`, async () => {
      const rpc = {
        async call<T>(method: string, params: readonly unknown[] = []): Promise<{ result: T }> {
          if (method === "getProgramAccounts") return { result: [] as T };
          if (method === "getMultipleAccounts") {
            const value = (params[0] as string[]).map((a) => (a === pool ? { owner: "11111111111111111111111111111111", lamports: 1, data: [btoa("x".repeat(400)), "base64"] } : null));
            return { result: { context: { slot: 42 }, value } as T };
          }
          throw new Error(`unexpected ${method}`);
        },
      };
      const answer = await readConcentratedPositionLocks(rpc, pool, dex);
      expect(answer.positions).toBeNull();
      expect(answer.message).toMatch(/could not be read as a/);
      expect(answer.source).toMatchObject({ accounts: [pool], slot: 42 });
    });

    it(`${dex}: an outage is not a budget: the read fails`, async () => {
      await expect(readConcentratedPositionLocks(upstream(new UpstreamError("unavailable", "down")), pool, dex)).rejects.toThrow(/down/);
    });
  }
});
