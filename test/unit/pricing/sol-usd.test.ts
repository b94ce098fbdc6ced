import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PYTH_SOL_USD_FEED_ID, PYTH_SOL_USD_PRICE_ACCOUNT } from "../../../src/solana/well-known";
import { toDecimalString } from "../../../src/math/fixed-point";
import { decodeSolUsdPriceUpdate } from "../../../src/pricing/sol-usd";
import { fixturePath, flipByte, loadAccountFixture, withData, withOwner } from "../../helpers/fixtures";

const full = loadAccountFixture("pyth/price_update_v2_SOL_USD_7UVimffx_push_feed_swig.json");
const partial = loadAccountFixture("pyth/price_update_v2_SOL_USD_BAtFj4kQ_drift.json");

describe("SOL/USD from Pyth", () => {
  it("turns 7UVimffx into 167.51519922 USD per SOL, exactly", () => {
    // Given the sponsored SOL/USD feed account / When decoded
    const update = decodeSolUsdPriceUpdate(full);
    // Then price = 16751519922 × 10^-8 with its confidence, publish time and posting slot
    expect(toDecimalString(update.price, 12)).toBe("167.51519922");
    expect(toDecimalString(update.confidence, 12)).toBe("0.07865065");
    expect(update.publishTime).toBe(1749654165n);
    expect(update.postedSlot).toBe(346114524n);
  });

  it("refuses another feed, a partial update, a non-positive price and a foreign owner", () => {
    const otherFeed = flipByte(full, 41);
    const partialUnderReceiver = withOwner(partial, "rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ");
    const zeroPrice = withData(full, (d) => (d.fill(0, 73, 81), d));
    expect(() => decodeSolUsdPriceUpdate(otherFeed)).toThrow(/not SOL\/USD/);
    expect(() => decodeSolUsdPriceUpdate(partialUnderReceiver)).toThrow(/partially verified/);
    expect(() => decodeSolUsdPriceUpdate(zeroPrice)).toThrow(/non-positive/);
    expect(() => decodeSolUsdPriceUpdate(partial)).toThrow(/owner/);
  });
});

describe("the SOL/USD constants", () => {
  it("match row 1 of Pyth's official Solana push-feed list", () => {
    const url = fixturePath("accounts/pyth/pyth_docs_solana_mainnet_push_feeds.json");
    const feeds = JSON.parse(readFileSync(url, "utf8")) as { alias: string; account_address: string; id: string }[];
    const solUsd = feeds.find((feed) => feed.alias === "SOL/USD");
    expect(solUsd).toMatchObject({ account_address: PYTH_SOL_USD_PRICE_ACCOUNT, id: PYTH_SOL_USD_FEED_ID });
  });
});
