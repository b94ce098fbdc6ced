// Trade index, block reading on one core: mainnet-sized blocks (localnet's heavy slots: ~1,100 transactions, ~70% votes)
// fetched from an in-process localnet as getBlock TEXT (json, full, maxSupportedTransactionVersion 0, rewards false), then
// JSON.parse + readBlock timed per block (process.cpuUsage and wall). Then the queue consumers mainnet would need.
// env: BLOCKS (heavy blocks, default 20), ROUNDS (timed passes over them, default 5), LATENCIES (getBlock ms, default "0,100")
import { startLocalnet } from "../localnet/src/server";
import { readBlock, type JsonBlock } from "../src/trades/block-reading";
import { limits } from "../src/limits";
import { readAnswer } from "../src/solana/upstream-answer";
import { readCappedBody } from "../src/solana/upstream-body";
import { sliceSpan } from "../src/json/json-spans";

const BLOCKS = Number(process.env.BLOCKS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const LATENCIES = (process.env.LATENCIES ?? "0,100").split(",").map(Number);
const MAINNET_BLOCKS_PER_S = 2.5; // 400 ms slots

const net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 1, maxBlockSlots: 3000 });
const rpc = async (method: string, params: unknown[]): Promise<string> => {
  const res = await fetch(net.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return res.text();
};
await net.advance(40); // a warm world (pools, oracle) before the heavy slots
const before = net.ledger.commitments.processed;
for (let left = BLOCKS + 2; left > 0; ) {
  const n = Math.min(left, 10);
  const res = await fetch(`${net.rpcUrl.replace(/\/$/, "")}/__localnet/advance?slots=${n}&heavy=1`, { method: "POST" });
  if (!res.ok) throw new Error(`advance heavy: HTTP ${res.status} ${await res.text()}`);
  left -= n;
}
await net.advance(2); // the heavy slots confirmed
const slots: number[] = JSON.parse(await rpc("getBlocks", [before + 1, net.ledger.commitments.confirmed, { commitment: "confirmed" }])).result;
const config = { encoding: "json", transactionDetails: "full", rewards: false, maxSupportedTransactionVersion: 0, commitment: "confirmed" };
const texts: { slot: number; text: string }[] = [];
for (const slot of slots) {
  const text = await rpc("getBlock", [slot, config]);
  if (text.length < 100_000) continue; // the two light slots after the heavy ones
  texts.push({ slot, text });
  if (texts.length === BLOCKS) break;
}
await net.close();
if (texts.length === 0) throw new Error("no heavy blocks (does POST /__localnet/advance take heavy=1?)");

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
// The getBlock answer is {jsonrpc, result, id}: parsing it whole is what the worker's upstream client does.
const once = (entry: { slot: number; text: string }, solUsd: number | null) => {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const block = (JSON.parse(entry.text) as { result: JsonBlock }).result;
  const c1 = process.cpuUsage();
  const w1 = performance.now();
  const read = readBlock(entry.slot, block, solUsd);
  const c2 = process.cpuUsage();
  const w2 = performance.now();
  return {
    parseCpu: cpuMs(c1) - cpuMs(c0), readCpu: cpuMs(c2) - cpuMs(c1), parseWall: w1 - w0, readWall: w2 - w1,
    txs: block.transactions.length, swaps: read.trades.length, events: read.events.length, solUsd: read.solUsd,
  };
};
// warm-up pass (JIT), not counted
let solUsd: number | null = null;
for (const e of texts) solUsd = once(e, solUsd).solUsd;
const samples: ReturnType<typeof once>[] = [];
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
for (let r = 0; r < ROUNDS; r++) {
  solUsd = null;
  for (const e of texts) {
    const s = once(e, solUsd);
    solUsd = s.solUsd;
    samples.push(s);
  }
}
const totalCpu = cpuMs(process.cpuUsage(cpuStart));
const totalWall = performance.now() - wallStart;

// The worker's own upstream client does more than JSON.parse with a getBlock answer (src/solana/upstream.ts):
// readCappedBody (strict UTF-8 decode + control-byte check), readAnswer (a validating scan of the whole answer), then
// JSON.parse of the result's span. Timed the same way (CPU), apart from the loop above.
const cap = limits.upstreamAnswerCapBytes.getBlock ?? limits.upstreamAnswerCapBytes.default;
const encoded = texts.map((e) => new TextEncoder().encode(e.text));
const clientPath = async (bytes: Uint8Array) => {
  const res = new Response(bytes);
  const c0 = process.cpuUsage();
  const body = await readCappedBody(res, cap);
  if (!body.ok) throw new Error(`readCappedBody: ${body.reason}`);
  const c1 = process.cpuUsage();
  const [response] = readAnswer(body.text, { id: 1 }, { controlFree: body.controlFree }) ?? [];
  if (!response?.result) throw new Error("readAnswer: not an answer");
  const c2 = process.cpuUsage();
  JSON.parse(sliceSpan(body.text, response.result));
  const c3 = process.cpuUsage();
  return { read: cpuMs(c1) - cpuMs(c0), scan: cpuMs(c2) - cpuMs(c1), parse: cpuMs(c3) - cpuMs(c2) };
};
for (const b of encoded) await clientPath(b); // warm-up
const client: Awaited<ReturnType<typeof clientPath>>[] = [];
for (let r = 0; r < ROUNDS; r++) for (const b of encoded) client.push(await clientPath(b));

const pct = (xs: number[], p: number) => {
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor((p / 100) * a.length))]!;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (x: number, d = 2) => x.toFixed(d);
const bytes = texts.map((e) => Buffer.byteLength(e.text));
const first = samples.slice(0, texts.length);
const perBlockCpu = samples.map((s) => s.parseCpu + s.readCpu);
const perBlockWall = samples.map((s) => s.parseWall + s.readWall);
const cpuPerBlock = totalCpu / samples.length; // every CPU ms of the loop (GC included), per block
const swapsPerBlock = mean(first.map((s) => s.swaps));

console.log(`Node ${process.version} (V8) on this ${(await import("node:os")).cpus().length}-core box, one thread: not workerd; workerd runs the same V8, its numbers may differ`);
console.log(
  `${texts.length} heavy blocks (localnet seed 1), ${ROUNDS} timed passes after one warm-up: transactions/block mean ${f(mean(first.map((s) => s.txs)), 0)} ` +
    `(min ${Math.min(...first.map((s) => s.txs))}, max ${Math.max(...first.map((s) => s.txs))}), getBlock answer bytes/block mean ${f(mean(bytes) / 1e6, 2)} MB ` +
    `(min ${f(Math.min(...bytes) / 1e6, 2)}, max ${f(Math.max(...bytes) / 1e6, 2)}), swaps/block ${f(swapsPerBlock, 1)}, pool events/block ${f(mean(first.map((s) => s.events)), 1)}`,
);
console.log(
  `ms/block CPU p50/p95: JSON.parse ${f(pct(samples.map((s) => s.parseCpu), 50))}/${f(pct(samples.map((s) => s.parseCpu), 95))}, ` +
    `readBlock ${f(pct(samples.map((s) => s.readCpu), 50))}/${f(pct(samples.map((s) => s.readCpu), 95))}, ` +
    `both ${f(pct(perBlockCpu, 50))}/${f(pct(perBlockCpu, 95))}; wall p50/p95: JSON.parse ${f(pct(samples.map((s) => s.parseWall), 50))}/${f(pct(samples.map((s) => s.parseWall), 95))}, ` +
    `readBlock ${f(pct(samples.map((s) => s.readWall), 50))}/${f(pct(samples.map((s) => s.readWall), 95))}, both ${f(pct(perBlockWall, 50))}/${f(pct(perBlockWall, 95))}`,
);
console.log(
  `one core: ${samples.length} blocks in ${f(totalCpu, 0)} ms CPU (${f(totalWall, 0)} ms wall) = ${f(cpuPerBlock)} ms CPU/block → ` +
    `${f(1000 / cpuPerBlock, 1)} blocks/s, ${f((swapsPerBlock * 1000) / cpuPerBlock, 0)} swaps/s, ${f((mean(first.map((s) => s.txs)) * 1000) / cpuPerBlock, 0)} transactions/s`,
);
const clientTotal = client.map((c) => c.read + c.scan + c.parse);
const readMean = mean(samples.map((s) => s.readCpu));
const workerCpuPerBlock = mean(clientTotal) + readMean;
console.log(
  `the worker's upstream-client path instead of a bare JSON.parse, CPU ms/block p50/p95: readCappedBody ${f(pct(client.map((c) => c.read), 50))}/${f(pct(client.map((c) => c.read), 95))}, ` +
    `readAnswer scan ${f(pct(client.map((c) => c.scan), 50))}/${f(pct(client.map((c) => c.scan), 95))}, JSON.parse of the result ${f(pct(client.map((c) => c.parse), 50))}/${f(pct(client.map((c) => c.parse), 95))}, ` +
    `all ${f(pct(clientTotal, 50))}/${f(pct(clientTotal, 95))}; with readBlock (mean ${f(readMean)}) ${f(workerCpuPerBlock)} ms CPU/block → ${f(1000 / workerCpuPerBlock, 1)} blocks/s on one core`,
);
const k = limits.tradeIngest.blockConcurrency;
console.log(
  `consumers mainnet needs: mainnet ${MAINNET_BLOCKS_PER_S} blocks/s (400 ms slots); one consumer's blocks/s = 1 / (CPU per block + getBlock latency / blockConcurrency), ` +
    `CPU per block ${f(cpuPerBlock)} ms (parse + readBlock, from above; D1 writes and the fetch's own CPU not counted), blockConcurrency ${k} (limits.tradeIngest)`,
);
for (const [label, cpu] of [["JSON.parse + readBlock", cpuPerBlock], ["worker's client path + readBlock", workerCpuPerBlock]] as const) {
  for (const latency of LATENCIES) {
    const perBlock = cpu + latency / k;
    const rate = 1000 / perBlock;
    console.log(
      `  ${label}, getBlock latency ${latency} ms: 1 / (${f(cpu)} + ${latency}/${k} = ${f(perBlock)} ms) = ${f(rate, 1)} blocks/s per consumer → ` +
        `${f(MAINNET_BLOCKS_PER_S / rate, 3)} consumers to keep up (ceil ${Math.ceil(MAINNET_BLOCKS_PER_S / rate)}), ${f(rate / MAINNET_BLOCKS_PER_S, 1)}× mainnet's pace per consumer`,
    );
  }
}
process.exit(0);
