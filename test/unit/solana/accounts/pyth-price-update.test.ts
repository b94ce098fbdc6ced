import { address, getBase16Encoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import {
  PYTH_PUSH_ORACLE_PROGRAM_ADDRESS,
  PYTH_SOL_USD_FEED_ID,
  PYTH_SOL_USD_PRICE_ACCOUNT,
} from "../../../../src/solana/well-known";
import { findPda, u16Le } from "../../../../src/venues/pda";
import { decodePriceUpdateV2 } from "../../../../src/solana/accounts/pyth-price-update";
import { loadAccountFixture, withData, withOwner } from "../../../helpers/fixtures";

const full = loadAccountFixture("pyth/price_update_v2_SOL_USD_7UVimffx_push_feed_swig.json");
const partial = loadAccountFixture("pyth/price_update_v2_SOL_USD_BAtFj4kQ_drift.json");
const DRIFT_RECEIVER = address("G6EoTTTgpkNBtVXo96EQp2m6uwwVh2Kt6YidjkmQqoha");

describe("Pyth PriceUpdateV2", () => {
  it("decodes the fully verified SOL/USD push feed 7UVimffx (price 16751519922, expo -8)", () => {
    expect(decodePriceUpdateV2(full)).toEqual({
      writeAuthority: "7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE",
      verificationLevel: { kind: "full" },
      feedId: PYTH_SOL_USD_FEED_ID,
      price: 16751519922n,
      conf: 7865065n,
      exponent: -8,
      publishTime: 1749654165n,
      prevPublishTime: 1749654165n,
      emaPrice: 16677713600n,
      emaConf: 8437036n,
      postedSlot: 346114524n,
    });
  });

  it("decodes a partially verified update, whose fields sit one byte later", () => {
    // Given Drift's copy (Partial{2}), owned by Drift's receiver deployment
    // When decoded against that owner / Then the collector's decode comes out
    expect(decodePriceUpdateV2(partial, DRIFT_RECEIVER)).toEqual({
      writeAuthority: "BAtFj4kQttZRVep3UZS2aZRDixkGYgWsbqTBVDbnSsPF",
      verificationLevel: { kind: "partial", numSignatures: 2 },
      feedId: PYTH_SOL_USD_FEED_ID,
      price: 19618693617n,
      conf: 22929999n,
      exponent: -8,
      publishTime: 1734648611n,
      prevPublishTime: 1734648610n,
      emaPrice: 19487625600n,
      emaConf: 21738339n,
      postedSlot: 308552311n,
    });
  });

  it("rejects a foreign receiver by default, a wrong size, a wrong discriminator and an unknown level tag", () => {
    expect(() => decodePriceUpdateV2(partial)).toThrow(/owner/);
    expect(() => decodePriceUpdateV2(withOwner(full, "pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT"))).toThrow(/owner/);
    expect(() => decodePriceUpdateV2(withData(full, (d) => d.subarray(0, 133)))).toThrow(/size/);
    expect(() => decodePriceUpdateV2(withData(full, (d) => ((d[0] = 0), d)))).toThrow(/discriminator/);
    expect(() => decodePriceUpdateV2(withData(full, (d) => ((d[40] = 2), d)))).toThrow(/verification level/);
  });

  it("knows the SOL/USD push feed as the shard-0 PDA of its feed id", async () => {
    // Given the push-oracle program, shard 0 and the SOL/USD feed id / When derived / Then it is 7UVimffx
    const feed = getBase16Encoder().encode(PYTH_SOL_USD_FEED_ID);
    expect(await findPda(PYTH_PUSH_ORACLE_PROGRAM_ADDRESS, [u16Le(0), feed])).toBe(PYTH_SOL_USD_PRICE_ACCOUNT);
    expect(full.address).toBe(PYTH_SOL_USD_PRICE_ACCOUNT);
  });
});
