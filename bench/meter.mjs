// The plan limiter's cost on the warm price path: N sequential warm prices with a metered key (API_KEY: the FREE-plan
// key with raised limits of bench/run.sh), each answer's Server-Timing `meter` stage (time spent in the limiter:
// 0 when a lease served it, the Durable Object round trip when the meter was asked), and 300 concurrent requests to
// see how often the meter is asked under load. env: BASE_URL, API_KEY, LOCALNET_URL, N (default 3000)
const { BASE_URL, API_KEY, LOCALNET_URL } = process.env;
const N = Number(process.env.N ?? 3000);
const headers = { "x-api-key": API_KEY };
const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const token = manifest.tokens.find((t) => t.venues.includes("pumpswap")) ?? manifest.tokens[0];
const url = `${BASE_URL}/api/v1/price?ca=${token.mint}`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const stage = (res, name) => {
  const entry = (res.headers.get("server-timing") ?? "").split(",").map((e) => e.trim()).find((e) => e.startsWith(`${name};`));
  return entry ? Number(/dur=([\d.]+)/.exec(entry)?.[1] ?? NaN) : NaN;
};

await (await fetch(url, { headers })).arrayBuffer();
const meter = [];
const total = [];
let statuses = new Map();
for (let i = 0; i < N; i++) {
  const t = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  total.push(performance.now() - t);
  meter.push(stage(res, "meter"));
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
}
meter.sort((a, b) => a - b);
total.sort((a, b) => a - b);
const asked = meter.filter((ms) => ms > 0).length;
console.log(
  `limiter (Server-Timing meter stage) over ${N} sequential warm prices: p50 ${percentile(meter, 50).toFixed(2)} ms, p99 ${percentile(meter, 99).toFixed(2)} ms, max ${meter[meter.length - 1].toFixed(2)} ms; ` +
    `${asked} of ${N} requests waited on the meter (the rest spent a lease); client-side p50 of the whole request ${percentile(total, 50).toFixed(2)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
);
const rl = (await fetch(url, { headers })).headers;
console.log(`headers on a metered answer: RateLimit-Policy: ${rl.get("ratelimit-policy")} | RateLimit: ${rl.get("ratelimit")} | X-RateLimit-Remaining: ${rl.get("x-ratelimit-remaining")}`);
