/**
 * Pools not yet open for swaps are not priced: real mainnet pool accounts (test/fixtures) with their activation field
 * rewritten into the future, judged against the chain's Clock, as each program judges a swap (the venue descriptors'
 * activation rules), and through the price path's account read and evaluation.
 */
import { address, getAddressDecoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import type { AccountBytes } from "../../../src/solana/accounts/account-shape";
import { SYSVAR_CLOCK_ADDRESS, WSOL_MINT } from "../../../src/solana/well-known";
import { chainNowOf, notOpenYet, type ChainNow } from "../../../src/pricing/pool-activation";
import { readAndEvaluate } from "../../../src/pricing/pool-evaluation";
import type { PriceDeps } from "../../../src/pricing/price-query";
import { adapterByKind } from "../../../src/venues/pool-adapters";
import type { PoolKind } from "../../../src/venues/pool-kinds";
import { loadAccountFixture, withData } from "../../helpers/fixtures";
import { clockAccount } from "../venues/clock-account";

/** The chain at a fixed moment: slot 380,000,000, 2026-11-28T00:00:00Z. */
const NOW: ChainNow = { slot: 380_000_000n, unixTime: 1_795_824_000n };
const HOUR = 3600n;

const u64At = (offset: number, value: bigint) => (d: Uint8Array) => (new DataView(d.buffer, d.byteOffset).setBigUint64(offset, value, true), d);
const u8At = (offset: number, value: number) => (d: Uint8Array) => ((d[offset] = value), d);
const rewrite = (account: AccountBytes, ...changes: ((d: Uint8Array) => Uint8Array)[]) => withData(account, (d) => changes.reduce((x, f) => f(x), d));

const cpmm = loadAccountFixture("raydium-cpmm/pool_state_Q2sPHPdU.json");
const clmm = loadAccountFixture("raydium-clmm/pool_state_3ucNos4N_SOL_USDC.json");
const ammV4 = loadAccountFixture("raydium-amm-v4/amm_info_8WQsKRXN_ADSX_WSOL_screenerbot.json");
const dlmm = loadAccountFixture("meteora-dlmm/lb_pair_ESuD7dd6.json");
const dammV1 = loadAccountFixture("meteora-damm-v1/HcjZvfeS_pool_set/HcjZvfeSNJbNkfLD4eEcRBr96AD3w1GpmMppaeRZf7ur.json");
const dammV2 = loadAccountFixture("meteora-damm-v2/pool_6CXXieC3.json");
const dbc = loadAccountFixture("meteora-dbc/virtual_pool_fee_in_both.json");
const pumpCurve = loadAccountFixture("pumpfun/bonding_curve_HWxwYxr4.json");
const pumpSwap = loadAccountFixture("pumpswap/pool_GUXAutvX.json");

const POOL = address("Q2sPHPdUWFMg7M7wwrQKLrn619cAucfRsmhVJffodSp");
const closed = (kind: PoolKind, account: AccountBytes) => notOpenYet(kind, POOL, account, NOW);

describe("which pools are open, as their programs judge a swap", () => {
  it("the real pools, as captured, are all open now", () => {
    // Given mainnet pools whose open / activation points lie in 2022–2025
    const pools: [PoolKind, AccountBytes][] = [
      ["raydium-cpmm", cpmm], ["raydium-clmm", clmm], ["raydium-amm-v4", ammV4], ["meteora-dlmm", dlmm],
      ["meteora-damm-v1", dammV1], ["meteora-damm-v2", dammV2], ["meteora-dbc", dbc], ["pump-bonding-curve", pumpCurve], ["pumpswap", pumpSwap],
    ];
    // Then none is refused at the chain's present
    for (const [kind, account] of pools) expect(closed(kind, account), kind).toBeUndefined();
  });

  it("CPMM: refused while now < open_time, open from open_time itself (swap_base_input's check)", () => {
    // Given Q2sPHPdU with open_time (@373) one hour ahead
    const future = rewrite(cpmm, u64At(373, NOW.unixTime + HOUR));
    // Then it is refused, naming the opening time and the chain's time
    expect(closed("raydium-cpmm", future)).toBe(
      `pool ${POOL} (raydium-cpmm) is not open yet: swaps open at 2026-11-28T01:00:00.000Z (chain time now 2026-11-28T00:00:00.000Z)`,
    );
    // And at open_time exactly it trades
    expect(closed("raydium-cpmm", rewrite(cpmm, u64At(373, NOW.unixTime)))).toBeUndefined();
  });

  it("CLMM: refused until the time is strictly past open_time (require_gt!), open one second later", () => {
    expect(closed("raydium-clmm", rewrite(clmm, u64At(1080, NOW.unixTime)))).toMatch(/swaps open at 2026-11-28T00:00:01.000Z/);
    expect(closed("raydium-clmm", rewrite(clmm, u64At(1080, NOW.unixTime - 1n)))).toBeUndefined();
  });

  it("AMM v4: pool_open_time gates a WaitingTrade pool only", () => {
    // Given 8WQsKRXN (status 6 SwapOnly) with pool_open_time (@224) one hour ahead: SwapOnly ignores it
    const swapOnly = rewrite(ammV4, u64At(224, NOW.unixTime + HOUR));
    expect(closed("raydium-amm-v4", swapOnly)).toBeUndefined();
    // When its status (@0) is WaitingTrade (7) it waits for pool_open_time
    const waiting = rewrite(swapOnly, u64At(0, 7n));
    expect(closed("raydium-amm-v4", waiting)).toMatch(/^pool \S+ \(raydium-amm-v4\) is not open yet: swaps open at 2026-11-28T01:00:00.000Z/);
    expect(closed("raydium-amm-v4", rewrite(waiting, u64At(224, NOW.unixTime)))).toBeUndefined();
  });

  it("DLMM: Permission and CustomizablePermissionless pairs wait for activation_point (slot or time); other pair types do not", () => {
    // Given ESuD7dd6 (PermissionlessV2) with activation_point (@816) 100 slots ahead: not gated by the program
    const ahead = rewrite(dlmm, u64At(816, NOW.slot + 100n), u8At(86, 0));
    expect(closed("meteora-dlmm", ahead)).toBeUndefined();
    // When its pair type (@75) is CustomizablePermissionless (2), by slot (activation_type @86 = 0)
    expect(closed("meteora-dlmm", rewrite(ahead, u8At(75, 2)))).toMatch(/swaps open at slot 380000100 \(chain slot now 380000000\)$/);
    // or Permission (1), by time (activation_type 1)
    const byTime = rewrite(dlmm, u8At(75, 1), u8At(86, 1), u64At(816, NOW.unixTime + HOUR));
    expect(closed("meteora-dlmm", byTime)).toMatch(/swaps open at 2026-11-28T01:00:00.000Z/);
    // Then at the activation point itself it trades
    expect(closed("meteora-dlmm", rewrite(ahead, u8At(75, 2), u64At(816, NOW.slot)))).toBeUndefined();
  });

  it("DAMM v1: the bootstrapping activation point (@403, type @475)", () => {
    expect(closed("meteora-damm-v1", rewrite(dammV1, u64At(403, NOW.slot + 1n), u8At(475, 0)))).toMatch(/swaps open at slot 380000001/);
    expect(closed("meteora-damm-v1", rewrite(dammV1, u64At(403, NOW.unixTime + HOUR), u8At(475, 1)))).toMatch(/swaps open at 2026-11-28T01:00:00.000Z/);
    expect(closed("meteora-damm-v1", rewrite(dammV1, u64At(403, NOW.slot), u8At(475, 0)))).toBeUndefined();
  });

  it("DAMM v2: the activation point (@472, type @480)", () => {
    // 6CXXieC3 is activated by timestamp (type 1)
    expect(closed("meteora-damm-v2", rewrite(dammV2, u64At(472, NOW.unixTime + HOUR)))).toMatch(/swaps open at 2026-11-28T01:00:00.000Z/);
    expect(closed("meteora-damm-v2", rewrite(dammV2, u64At(472, NOW.slot + 5n), u8At(480, 0)))).toMatch(/swaps open at slot 380000005/);
  });

  it("DBC: its activation point only schedules fees, never refuses a swap", () => {
    expect(closed("meteora-dbc", rewrite(dbc, u64At(296, NOW.unixTime + HOUR)))).toBeUndefined();
  });

  it("an opening beyond any calendar date is still told (as a unix time)", () => {
    expect(closed("raydium-cpmm", rewrite(cpmm, u64At(373, 2n ** 64n - 1n)))).toMatch(/swaps open at unix time 18446744073709551615 /);
  });
});

describe("the chain's now", () => {
  it("comes from the Clock sysvar when the read has it, else from the snapshot's slot and the local time", () => {
    expect(chainNowOf(clockAccount(NOW.unixTime, NOW.slot), 1, 0)).toEqual(NOW);
    expect(chainNowOf(null, 123, 1_795_824_000_999)).toEqual({ slot: 123n, unixTime: 1_795_824_000n });
    expect(chainNowOf(dammV2, 7, 1_000)).toEqual({ slot: 7n, unixTime: 1n }); // not a Clock account
  });
});

describe("the price path passes over a pool not yet open", () => {
  /** An upstream that answers getMultipleAccounts from `accounts` (base64, as a node does) at one slot. */
  function fakeUpstream(accounts: Map<Address, AccountBytes>) {
    return {
      call: async <T>(method: string, params: unknown[]) => {
        expect(method).toBe("getMultipleAccounts");
        const value = (params[0] as Address[]).map((a) => {
          const acc = accounts.get(a);
          return acc ? { owner: acc.owner, lamports: 1_000_000, data: [Buffer.from(acc.data).toString("base64"), "base64"] } : null;
        });
        return { result: { context: { slot: Number(NOW.slot) }, value } as T };
      },
    };
  }

  it("a DAMM v2 pool whose activation is an hour ahead is refused with its opening time; at its activation it is priced", async () => {
    // Given the 6CXXieC3 pool (priced from its own account) with its base mint served as an SPL mint, and the Clock
    const tokenA = getAddressDecoder().decode(dammV2.data, 168);
    const mint = loadAccountFixture("spl-token/mint_Df6yfrKC_pump.json");
    const deps = (pool: AccountBytes) =>
      ({ rpc: fakeUpstream(new Map([[POOL, pool], [tokenA, mint], [SYSVAR_CLOCK_ADDRESS, clockAccount(NOW.unixTime, NOW.slot)]])) }) as unknown as PriceDeps;
    const adapter = adapterByKind.get("meteora-damm-v2")!;
    const candidates = new Map([[tokenA, [{ pool: POOL, adapter, alsoRead: [] }]]]);
    // When it is read and evaluated with its activation (@472) an hour ahead
    const future = await readAndEvaluate(deps(rewrite(dammV2, u64At(472, NOW.unixTime + HOUR))), [tokenA], candidates, [adapter], []);
    // Then it is not priced, and the reason says when it opens
    expect(future.evaluations[0]!.priced).toEqual([]);
    expect(future.evaluations[0]!.refusals).toEqual([
      `pool ${POOL} (meteora-damm-v2) is not open yet: swaps open at 2026-11-28T01:00:00.000Z (chain time now 2026-11-28T00:00:00.000Z)`,
    ]);
    // And once the chain reaches it, the same pool is priced
    const open = await readAndEvaluate(deps(rewrite(dammV2, u64At(472, NOW.unixTime))), [tokenA], candidates, [adapter], []);
    expect(open.evaluations[0]!.refusals).toEqual([]);
    expect(open.evaluations[0]!.priced.map((p) => [p.pool, p.price.quoteMint])).toEqual([[POOL, WSOL_MINT]]);
  });
});
