// JSON-RPC proxy benchmark (issue 5). Standalone; bench/run.sh calls it with the env below.
//
//   BASE_URL      the worker, e.g. http://127.0.0.1:18787 (its POST /rpc is measured)
//   LOCALNET_URL  the node the worker proxies to, e.g. http://127.0.0.1:18899 (measured directly for the ratio)
//   API_KEY       a key the worker accepts
//   N             sequential requests per latency row (default 200)
//   BENCH_SECONDS duration of each throughput row (default 10)
//
// Prints a small table:
//   1. getBalance: latency (p50/p99, sequential) and req/s (50 connections) through the worker vs straight at the
//      node, with the worker/direct ratios — what the proxy adds;
//   2. getBlock of a finalized block: served from the immutable cache vs forwarded every time (same block with
//      commitment "confirmed", which is never cached) vs straight at the node;
//   3. floors in the same run, to read the above: a JSON-RPC answer that needs no upstream (unknown method, after
//      the key check) and GET /health (no key, no JSON-RPC) — what the runtime costs before the proxy does anything.
// Throughput uses wrk (-t1 -c50) when installed (`apt-get install -y wrk`), else a Node loop with 50 requests in flight.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { BASE_URL, LOCALNET_URL, API_KEY } = process.env;
if (!BASE_URL || !LOCALNET_URL || !API_KEY) {
  console.error("usage: BASE_URL=… LOCALNET_URL=… API_KEY=… node bench/rpc.mjs");
  process.exit(2);
}
const N = Number(process.env.N ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const workerRpc = `${BASE_URL}/rpc?x-api-key=${API_KEY}`;
const jsonHeaders = { "content-type": "application/json" };

/**
 * POST `body` (GET when undefined) with one retry: Node's fetch may reuse a keep-alive socket the server has just
 * closed after an idle spell.
 */
async function send(url, body) {
  const init = body === undefined ? {} : { method: "POST", headers: jsonHeaders, body };
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

async function rpc(url, method, params) {
  const res = await send(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }));
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Sequential latency of POSTing `body` to `url` (GET when no body), N times. */
async function latency(url, body) {
  const samples = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const res = await send(url, body);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status} from ${url}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

function hasWrk() {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (err) {
    return err.status === 1; // wrk --version prints its banner and exits 1
  }
}

/** Requests per second of POSTing `body` to `url` with 50 connections for SECONDS. */
async function throughput(url, body) {
  if (useWrk) {
    const dir = mkdtempSync(join(tmpdir(), "bench-rpc-"));
    const script = join(dir, "post.lua");
    writeFileSync(script, body === undefined ? "" : `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`);
    const out = execFileSync("wrk", ["-t1", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "-s", script, url], { encoding: "utf8" });
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1];
    if (non2xx) console.error(`  warning: ${non2xx} non-2xx answers from ${url}`);
    return rps;
  }
  let done = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const res = await send(url, body);
        await res.arrayBuffer();
        done++;
      }
    }),
  );
  return done / SECONDS;
}

const useWrk = hasWrk();
const fmt = (ms) => `${ms.toFixed(2)} ms`;
const row = (label, l, rps) => console.log(`${label.padEnd(44)} p50 ${fmt(l.p50).padStart(10)}   p99 ${fmt(l.p99).padStart(10)}   ${rps === undefined ? "" : `${rps.toFixed(0).padStart(7)} req/s`}`);

// A funded account and a finalized block with transactions, from the node itself.
const manifest = await (await send(`${LOCALNET_URL}/__localnet/world`)).json();
const account = manifest.wallets?.whales?.[0] ?? "So11111111111111111111111111111111111111112";
const finalized = await rpc(LOCALNET_URL, "getSlot", [{ commitment: "finalized" }]);
const blocks = await rpc(LOCALNET_URL, "getBlocks", [Math.max(0, finalized - 100), finalized]);
const block = blocks[blocks.length - 1];

console.log(`throughput: ${useWrk ? "wrk" : "node loop"}, ${CONNECTIONS} connections, ${SECONDS} s; latency: ${N} sequential requests`);

const balance = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBalance", params: [account] });
const viaWorker = { latency: await latency(workerRpc, balance), rps: await throughput(workerRpc, balance) };
const direct = { latency: await latency(LOCALNET_URL, balance), rps: await throughput(LOCALNET_URL, balance) };
row("getBalance via worker", viaWorker.latency, viaWorker.rps);
row("getBalance direct to localnet", direct.latency, direct.rps);
console.log(
  `${"  ratio worker/direct".padEnd(44)} p50 ${(viaWorker.latency.p50 / direct.latency.p50).toFixed(2).padStart(9)}x   ` +
    `p99 ${(viaWorker.latency.p99 / direct.latency.p99).toFixed(2).padStart(9)}x   ${(viaWorker.rps / direct.rps).toFixed(2).padStart(7)}x req/s`,
);

const blockConfig = { encoding: "json", maxSupportedTransactionVersion: 0, transactionDetails: "full", rewards: true };
const cachedBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBlock", params: [block, blockConfig] });
const uncachedBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getBlock", params: [block, { ...blockConfig, commitment: "confirmed" }] });
await send(workerRpc, cachedBody).then((r) => r.arrayBuffer()); // fill the cache
const size = (await (await send(LOCALNET_URL, cachedBody)).text()).length;
console.log(`getBlock ${block}: ${(size / 1024).toFixed(1)} KiB answer`);
row("getBlock finalized via worker (cache hit)", await latency(workerRpc, cachedBody), await throughput(workerRpc, cachedBody));
row("getBlock confirmed via worker (forwarded)", await latency(workerRpc, uncachedBody), await throughput(workerRpc, uncachedBody));
row("getBlock direct to localnet", await latency(LOCALNET_URL, cachedBody), await throughput(LOCALNET_URL, cachedBody));

const unknownMethod = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getNothing" });
row("floor: JSON-RPC without upstream (-32601)", await latency(workerRpc, unknownMethod), await throughput(workerRpc, unknownMethod));
row("floor: GET /health", await latency(`${BASE_URL}/health`), await throughput(`${BASE_URL}/health`));
