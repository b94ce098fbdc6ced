/**
 * Scanning a 4.7 MB getBlock answer (the size docs/rpc.md quotes) vs JSON.parse: the cost the upstream client pays
 * per big answer. The answer is a real mainnet block (fixture) with its transactions repeated, decoded from bytes as
 * the client gets it (a flat string). The upstream client checks the bytes for control characters as it reads them
 * and tells the scan, which then need not search strings for one: that is the second row.
 * Measured (2-core dev machine, Node 20, medians): previous scanner (brackets and strings only) ~4.7 ms; this one
 * ~8.5 ms on its own, ~6.5 ms on the client's path (1.4x); JSON.parse ~12-17 ms.
 * Run: npx vitest bench --run --project node test/bench/upstream-scan.bench.ts
 */
import { readFileSync } from "node:fs";
import { bench, describe } from "vitest";
import { readAnswer } from "../../src/solana/upstream-answer";
import { hasControlByte } from "../../src/solana/upstream-body";
import { fixturePath } from "../helpers/fixtures";

const fixture = JSON.parse(readFileSync(fixturePath("rpc-examples/real_getBlock_mainnet_slot79662905_TRIMMED_solnet.json"), "utf8")) as {
  result: { transactions: unknown[] };
};
const block = { ...fixture.result, transactions: [] as unknown[] };
while (JSON.stringify(block).length < 4_700_000) block.transactions.push(...fixture.result.transactions);
const bytes = new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", result: block, id: 1 }));
const text = new TextDecoder().decode(bytes);

describe(`getBlock answer, ${(text.length / 1e6).toFixed(1)} MB`, () => {
  bench("readAnswer (validating scan)", () => {
    if (!readAnswer(text, { id: 1 })) throw new Error("refused");
  });
  bench("control-byte check of the bytes + readAnswer told the outcome (the client's path)", () => {
    if (!readAnswer(text, { id: 1 }, { controlFree: !hasControlByte(bytes, bytes.length) })) throw new Error("refused");
  });
  bench("JSON.parse", () => {
    JSON.parse(text);
  });
});
