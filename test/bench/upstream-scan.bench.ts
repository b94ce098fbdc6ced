/**
 * Scanning a 4.7 MB getBlock answer (the size docs/rpc.md quotes) vs JSON.parse: the cost the upstream client pays
 * per big answer. The answer is a real mainnet block (fixture) with its transactions repeated, decoded from bytes as
 * the client gets it (a flat string). "told control-free" is what the client passes after reading the bytes.
 * Run: npx vitest bench --run --project node test/bench/upstream-scan.bench.ts
 */
import { readFileSync } from "node:fs";
import { bench, describe } from "vitest";
import { readAnswer } from "../../src/solana/upstream-answer";

const fixture = JSON.parse(readFileSync(new URL("../../../shared/fixtures/rpc-examples/real_getBlock_mainnet_slot79662905_TRIMMED_solnet.json", import.meta.url), "utf8")) as {
  result: { transactions: unknown[] };
};
const block = { ...fixture.result, transactions: [] as unknown[] };
while (JSON.stringify(block).length < 4_700_000) block.transactions.push(...fixture.result.transactions);
const text = new TextDecoder().decode(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", result: block, id: 1 })));

describe(`getBlock answer, ${(text.length / 1e6).toFixed(1)} MB`, () => {
  bench("readAnswer (validating scan)", () => {
    if (!readAnswer(text, { id: 1 })) throw new Error("refused");
  });
  bench("readAnswer, told control-free", () => {
    if (!readAnswer(text, { id: 1 }, { controlFree: true })) throw new Error("refused");
  });
  bench("JSON.parse", () => {
    JSON.parse(text);
  });
});
