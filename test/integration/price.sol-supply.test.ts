/**
 * SOL's supply is the chain's (getSupply), not the wSOL mint's (which counts only wrapped SOL): its price record's
 * market cap is the circulating supply at its price, and its overview shows the total and circulating supply —
 * checked against localnet's own getSupply.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";
import { chainRpc } from "../helpers/localnet";
import { relErr } from "../helpers/numbers";

const WSOL = "So11111111111111111111111111111111111111112";
let key = "";
beforeAll(async () => {
  key = await newApiKey();
});
const auth = () => ({ headers: { "x-api-key": key } });

/** The chain's truth, asked straight of localnet. */
async function chainSupply(): Promise<{ total: number; circulating: number }> {
  return (await chainRpc<{ value: { total: number; circulating: number } }>("getSupply", [{ commitment: "confirmed", excludeNonCirculatingAccountsList: true }])).value;
}

describe("SOL's supply", () => {
  it("the price record's market cap is SOL's circulating supply at SOL's price", async () => {
    // Given the chain's circulating SOL
    const truth = await chainSupply();
    expect(truth.circulating).toBeGreaterThan(0);
    // When SOL is priced
    const { status, body } = await getJson<{ priceInUsd: string; marketCap: string }>(`/api/v1/price?ca=${WSOL}`, auth());
    expect(status).toBe(200);
    // Then its market cap is that supply (in SOL) times its USD price (airdrops and fee burns elsewhere move it by far less than 1e-6)
    const expected = (truth.circulating / 1e9) * Number(body.priceInUsd);
    expect(relErr(Number(body.marketCap), expected)).toBeLessThan(1e-6);
  });

  it("the overview's supply and circulating supply are the chain's, in lamports", async () => {
    const truth = await chainSupply();
    const { status, body } = await getJson<{ supply: string; circulatingSupply: string; decimals: string; marketCap?: string }>(`/api/v1/overview?ca=${WSOL}`, auth());
    expect(status).toBe(200);
    expect(body.decimals).toBe("9");
    expect(relErr(Number(body.supply), truth.total)).toBeLessThan(1e-6);
    expect(relErr(Number(body.circulatingSupply), truth.circulating)).toBeLessThan(1e-6);
    // the wSOL mint's own supply (wrapped SOL only) is far below SOL's
    const wrapped = (await chainRpc<{ value: { amount: string } }>("getTokenSupply", [WSOL])).value.amount;
    expect(Number(body.supply)).toBeGreaterThan(Number(wrapped));
  });
});
