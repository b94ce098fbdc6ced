/**
 * DAMM v2 positions read from a real mainnet Position (test/fixtures/SOURCES.md): its pool, NFT mint and the three
 * liquidity fields, from the slice the position scan reads (nft_mint @40 .. permanent_locked_liquidity's end @200).
 */
import { getAddressDecoder } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { DAMM_V2_POSITION_SIZE, decodeDammV2PositionSlice } from "../../../src/security/position-locks";
import { loadAccountFixture } from "../../helpers/fixtures";

describe("DAMM v2 positions", () => {
  const fixture = loadAccountFixture("meteora-damm-v2/position_5bYLydDX_permanent_lock.json");

  it("the mainnet position is a 408-byte Position of the pool its source subscribes it under", () => {
    expect(fixture.data.length).toBe(DAMM_V2_POSITION_SIZE);
    expect(Buffer.from(fixture.data.subarray(0, 8)).toString("hex")).toBe("aabc8fe47a40f7d0");
    expect(getAddressDecoder().decode(fixture.data, 8)).toBe("D9iJqMbgQJLFt5PAAiTJTMNsMAMueukzoe1EK2r1g3WH");
  });

  it("its slice gives the NFT mint and the liquidity: all of it permanently locked", () => {
    const p = decodeDammV2PositionSlice(fixture.address!, fixture.data.slice(40, 200))!;
    expect(p.address).toBe("5bYLydDXt1K5zroychcbrVbhGRUpheXdq5w41uccazPB");
    expect(p.nftMint).toBe("A87b7M7UnQCicj6Ui7ktCL9CoN9xnnLbp3bezoDS26uX");
    expect(p.unlocked).toBe(0n);
    expect(p.vested).toBe(0n);
    expect(p.permanent).toBe(15750252899414913517964408732526628n);
  });

  it("a slice shorter than the fields is no position", () => {
    expect(decodeDammV2PositionSlice(fixture.address!, fixture.data.slice(40, 150))).toBeNull();
  });
});

