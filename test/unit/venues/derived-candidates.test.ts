/**
 * Every venue's derived candidate pools for a set of mints, pinned. `derived-candidates.expected.json` was written by
 * the derivation as of commit ade7c53 (kit-equivalent PDAs, tested in test/unit/solana/program-address.test.ts), before
 * the derivation's CPU work: any later speed-up must give the same pools, kinds, quotes and order. Each mint has its
 * count and the SHA-256 of its lines ("kind quote pool", in order); three also list the lines, so a failure names them.
 * Mints: wSOL (derived against the USD stables), USDC, mainnet tokens whose pools are in test/fixtures, and three
 * never-seen keys (SHA-256 of "never-seen mint <i>").
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { getAddressDecoder, type Address } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { poolAdapters } from "../../../src/venues/pool-adapters";
import { WSOL_MINT } from "../../../src/solana/well-known";
import { loadAccountFixture } from "../../helpers/fixtures";

type Pinned = { count: number; sha256: string; candidates?: string[] };
const expected = JSON.parse(readFileSync(new URL("./derived-candidates.expected.json", import.meta.url), "utf8")) as Record<string, Pinned>;

async function derivedLines(mint: Address): Promise<string[]> {
  const candidates = (await Promise.all(poolAdapters.map((adapter) => adapter.candidates(mint)))).flat();
  return candidates.map((c) => `${c.kind} ${c.quoteMint} ${c.pool}`);
}

const neverSeen = Array.from({ length: 3 }, (_, i) => getAddressDecoder().decode(createHash("sha256").update(`never-seen mint ${i}`).digest()));

describe("derived candidate pools", () => {
  it("are the pinned pools for wSOL, USDC, eleven mainnet tokens and three never-seen mints", async () => {
    const mints = Object.keys(expected) as Address[];
    expect(mints).toHaveLength(14);
    for (const key of neverSeen) expect(mints).toContain(key);
    for (const mint of mints) {
      const lines = await derivedLines(mint);
      const pinned = expected[mint]!;
      if (pinned.candidates) expect(lines, mint).toEqual(pinned.candidates);
      expect(lines, mint).toHaveLength(pinned.count);
      expect(new Set(lines.map((line) => line.split(" ")[2])).size, mint).toBe(pinned.count);
      expect(createHash("sha256").update(lines.join("\n")).digest("hex"), mint).toBe(pinned.sha256);
    }
  });

  it("include the mainnet pools of test/fixtures for their tokens", async () => {
    const known: [mint: string, line: string][] = [
      ["Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk", `raydium-cpmm ${WSOL_MINT} ${loadAccountFixture("raydium-cpmm/pool_state_Q2sPHPdU.json").address}`],
      ["3Sf6oKCeEqCuco4aYtKHHDTBYLAWHiL47QjvkW1UYDEG", `pumpswap ${WSOL_MINT} ${loadAccountFixture("pumpswap/pool_GUXAutvX.json").address}`],
      ["4kzLMxfMZVf6UztzjMcAmyLfBYgFcr9FfpwusrqgEjiH", `raydium-clmm ${WSOL_MINT} AcPS8SrzXDwPxk6LLz2tykwFEsSeD5LtctMLVeh2shq8`],
      ["7uUTzNs4UFgarqY6TyRnW3ZnMFpcsw1iookL8R5KCGwA", "pump-bonding-curve null CxHfPAgH6PNLnfq5n5mq4tZK1aQCsMdeygwqaUSjsceN"],
      ["4eDf52YYzL6i6gbZ6FXqrLUPXbtP61f1gPSFM66M4XHe", `meteora-damm-v1 ${WSOL_MINT} 3LxstoarWCh6iC2NbQG4eXwvrNuSpr8kH7YyFmFu5tKZ`],
      ["Df6yfrKC8kZE3KNkrHERKzAetSxbrWeniQfyJY4Jpump", `meteora-dlmm ${WSOL_MINT} ${loadAccountFixture("meteora-dlmm/EtAdVRLF_pump_SOL/lb_pair.json").address}`],
      ["G1DXVVmqJs8Ei79QbK41dpgk2WtXSGqLtx9of7o8BAGS", `meteora-damm-v2 ${WSOL_MINT} ${loadAccountFixture("meteora-damm-v2/pool_6CXXieC3.json").address}`],
    ];
    for (const [mint, line] of known) {
      expect(expected[mint], mint).toBeDefined();
      expect(await derivedLines(mint as Address), mint).toContain(line);
    }
  });
});
