/**
 * The holder census degrades past its scan budgets instead of failing or running into the request deadline: an
 * upstream that answers the scan with "answer too large" or a timeout gets the 20 largest accounts read instead, and
 * the census says it is partial and why. An outage is not a budget: it still fails.
 */
import { address, getAddressDecoder, getAddressEncoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";

import { limits } from "../../../src/limits";
import { censusRows, readHolderCensus, labelByAddress } from "../../../src/security/holder-census";
import { UpstreamError } from "../../../src/solana/upstream";

const TOKEN = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const mint = address("DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263");
const key = (i: number): Address => {
  const bytes = new Uint8Array(32);
  bytes[0] = 7;
  bytes[31] = i;
  return getAddressDecoder().decode(bytes);
};

function tokenAccount(owner: Address, amount: bigint): string {
  const data = new Uint8Array(165);
  data.set(getAddressEncoder().encode(mint), 0);
  data.set(getAddressEncoder().encode(owner), 32);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  data[108] = 1;
  return btoa(String.fromCharCode(...data));
}

/** An upstream of 25 wallets holding 1000..1024, whose scan fails with `scanError`. */
function fakeUpstream(scanError: UpstreamError) {
  const owners = Array.from({ length: 25 }, (_, i) => key(i + 1));
  const accountOf = new Map(owners.map((o, i) => [key(100 + i), { owner: o, amount: 1000n + BigInt(i) }]));
  const calls: string[] = [];
  return {
    calls,
    owners,
    call: async <T>(method: string, params: readonly unknown[] = []): Promise<{ result: T }> => {
      calls.push(method);
      if (method === "getProgramAccounts") throw scanError;
      if (method === "getTokenLargestAccounts") {
        const largest = [...accountOf].sort((a, b) => Number(b[1].amount - a[1].amount)).slice(0, 20);
        return { result: { value: largest.map(([address, h]) => ({ address, amount: h.amount.toString() })) } as T };
      }
      if (method === "getMultipleAccounts") {
        const addresses = params[0] as Address[];
        const value = addresses.map((a) => {
          const h = accountOf.get(a);
          return h ? { owner: TOKEN, lamports: 2039280, data: [tokenAccount(h.owner, h.amount), "base64"] } : null;
        });
        return { result: { context: { slot: 42 }, value } as T };
      }
      throw new Error(`unexpected ${method}`);
    },
  };
}

const input = { mint, tokenProgram: TOKEN, supply: 1_000_000n, decimals: 0, slot: 42, creator: null, allowScan: true };

describe("holder census budgets", () => {
  for (const [kind, reason] of [
    ["answer-too-large", /more token accounts than one scan reads/],
    ["timeout", /took longer than/],
  ] as const) {
    it(`a scan answered with ${kind} falls back to the 20 largest accounts, partial, with its reason`, async () => {
      const rpc = fakeUpstream(new UpstreamError(kind, "budget"));
      const census = await readHolderCensus(rpc, input);
      expect(rpc.calls[0]).toBe("getProgramAccounts");
      expect(rpc.calls).toContain("getTokenLargestAccounts");
      expect(census.complete).toBe(false);
      expect(census.reason).toMatch(reason);
      expect(census.rows.map((r) => r.amount)).toEqual(Array.from({ length: 20 }, (_, i) => String(1024 - i)));
    });
  }

  it("an outage is not a budget: the census fails", async () => {
    await expect(readHolderCensus(fakeUpstream(new UpstreamError("unavailable", "down")), input)).rejects.toThrow(/down/);
  });

  it("without scans the reason says the deployment does not scan", async () => {
    const rpc = fakeUpstream(new UpstreamError("unavailable", "never asked"));
    const census = await readHolderCensus(rpc, { ...input, allowScan: false });
    expect(rpc.calls).not.toContain("getProgramAccounts");
    expect(census).toMatchObject({ complete: false, accountsRead: 20 });
    expect(census.reason).toMatch(/does not scan every token account/);
  });

  it("the scan's budgets are the documented ones", () => {
    expect(limits.security.holderScanMaxBytes).toBe(16 * 1024 * 1024);
    expect(limits.security.holderScanTimeoutMs).toBeLessThan(limits.sharedTaskDeadlineMs);
  });
});

describe("census labels", () => {
  it("burn addresses, venue and locker authorities and the creator by address; the rest by their account's program", () => {
    const creator = key(9);
    expect(labelByAddress(address("1nc1nerator11111111111111111111111111111111"), null)).toEqual({ label: "burn", venue: null });
    expect(labelByAddress(address("GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL"), null)).toEqual({ label: "pool", venue: "raydium-cpmm" });
    expect(labelByAddress(address("FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM"), null)).toEqual({ label: "curve", venue: "meteora-dbc" });
    expect(labelByAddress(address("3f7GcQFG397GAaEnv51zR6tsTVihYRydnydDD1cXekxH"), null)).toEqual({ label: "locker", venue: "raydium-lp-lock" });
    expect(labelByAddress(creator, creator)).toEqual({ label: "creator", venue: null });
    const curve = key(10);
    const escrow = key(11);
    const wallet = key(12);
    const rows = censusRows(
      [
        { account: key(20), owner: curve, amount: 50n },
        { account: key(21), owner: escrow, amount: 30n },
        { account: key(22), owner: wallet, amount: 10n },
        { account: key(23), owner: wallet, amount: 5n },
        { account: key(24), owner: key(13), amount: 0n },
      ],
      null,
      new Map([
        [curve, { owner: address("6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P"), lamports: 1n, data: new Uint8Array() }],
        [escrow, { owner: address("LocpQgucEQHbqNABEYvBvwoxCPsSbG91A1QaQhQQqjn"), lamports: 1n, data: new Uint8Array() }],
        [wallet, null],
      ]),
    );
    expect(rows).toEqual([
      { owner: curve, amount: "50", label: "curve", venue: "pumpfun" },
      { owner: escrow, amount: "30", label: "locker", venue: "jupiter-lock" },
      { owner: wallet, amount: "15", label: "holder", venue: null },
    ]);
  });
});
