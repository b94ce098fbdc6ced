import { getBase58Encoder } from "@solana/kit";
import { describe, expect, it } from "vitest";
import { base58Bytes } from "../../../src/solana/base58";
import { compareAddressBytes, readU64 } from "../../../src/trades/instruction-data";
import { flattenInstructions } from "../../../src/trades/instruction-tree";
import { loadTransaction } from "./transaction-fixtures";

const files = [
  "raydium-clmm/vixen_vRYNRDqs_rpcjson.json",
  "pumpfun/vixen_22K6ixTV_rpcjson.json",
  "meteora-dbc/vixen_23BXcBmn_rpcjson.json",
  "pumpfun/txparser_pumpfun_create_0.json",
];

describe("base58Bytes", () => {
  it("decodes every instruction's data of real transactions exactly as kit's codec does", () => {
    // Given the instructions (top level and inner) of real transactions
    const kit = getBase58Encoder();
    for (const file of files) {
      const tx = loadTransaction(file);
      for (const { instruction } of flattenInstructions(tx)) {
        // When decoded / Then the bytes equal kit's (leading "1"s = zero bytes included)
        expect(base58Bytes(instruction.data)).toEqual(new Uint8Array(kit.encode(instruction.data)));
      }
    }
    expect(base58Bytes("")).toEqual(new Uint8Array(0));
    expect(base58Bytes("11")).toEqual(new Uint8Array(2));
  });

  it("returns undefined (never throws) for text outside the alphabet or longer than any instruction", () => {
    for (const bad of ["0", "O", "I", "l", "abc!", "é", "1".repeat(1701)]) expect(base58Bytes(bad)).toBeUndefined();
    expect(base58Bytes(42 as unknown as string)).toBeUndefined();
  });
});

describe("readU64 and compareAddressBytes", () => {
  it("reads u64 little-endian, undefined past the end", () => {
    const data = new Uint8Array([9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1]);
    expect(readU64(data, 1)).toBe(2n ** 64n - 1n);
    expect(readU64(data, 2)).toBe(0x01ffffffffffffffn);
    expect(readU64(data, 3)).toBeUndefined();
  });

  it("orders mints by raw bytes, not by their base58 text (wSOL < Dz9m… bonk in CPMM pool Q2sPHPdU, VENUES.md §1)", () => {
    const wsol = "So11111111111111111111111111111111111111112";
    const bonk = "Dz9mQ9NzkBcCsuGPFJ3r1bS4wgqKMHBPiVuniW8Mbonk";
    expect(wsol > bonk).toBe(true); // string order says the opposite
    expect(compareAddressBytes(wsol, bonk)).toBeLessThan(0);
  });
});

describe("flattenInstructions", () => {
  it("delimits each instruction's CPI subtree by stackHeight (a routed transaction three levels deep)", () => {
    // Given the Jupiter-routed CLMM transaction: top-level arbitrage ix → Jupiter (2) → AMM / CLMM (3) → transfers (4)
    const flat = flattenInstructions(loadTransaction("raydium-clmm/vixen_vRYNRDqs_rpcjson.json"));
    const depths = flat.map((f) => f.depth);
    // Then every instruction's subtree is exactly the deeper run after it
    flat.forEach((f, i) => {
      for (let j = i + 1; j < f.end; j++) expect(depths[j]).toBeGreaterThan(f.depth);
      if (f.end < flat.length) expect(depths[f.end]).toBeLessThanOrEqual(f.depth);
    });
    expect(Math.max(...depths)).toBe(4);
  });
});
