// What the HTTP benches share: their required environment, one request timed with the upstream requests localnet
// counted for it, its report line, N sequential GETs of one URL, and the floor percentile their lines print.

/** The named variables of the environment; when one is missing or empty, says which are required and exits 2. */
export function requiredEnv(...names) {
  if (names.some((name) => !process.env[name])) {
    console.error(`${names.slice(0, -1).join(", ")} and ${names.at(-1)} are required`);
    process.exit(2);
  }
  return Object.fromEntries(names.map((name) => [name, process.env[name]]));
}

/** The sample at percentile `p` (0..100, rounded down) of ascending `sorted`. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * One GET of `baseUrl + path`, timed to its whole body, then the upstream JSON-RPC HTTP requests localnet counted for it
 * (by the `x-request-id` the worker answers with and forwards upstream). The stats read is not timed.
 */
export async function timedWithUpstream(baseUrl, localnetUrl, headers, path) {
  const started = performance.now();
  const res = await fetch(`${baseUrl}${path}`, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  const stats = await (await fetch(`${localnetUrl}/__localnet/stats?requestId=${res.headers.get("x-request-id")}`)).json();
  return { ms, status: res.status, requests: stats.requests };
}

/** One line for samples of timedWithUpstream: p50/p99, upstream requests per `per` (mean, max), the HTTP statuses. */
export function upstreamReport(label, width, per, samples) {
  if (samples.length === 0) return console.log(`${label.padEnd(width)} no samples`);
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const requests = samples.map((s) => s.requests);
  const mean = requests.reduce((a, b) => a + b, 0) / requests.length;
  const statuses = [...new Set(samples.map((s) => s.status))].join(",");
  console.log(
    `${label.padEnd(width)} n=${String(samples.length).padEnd(4)} p50 ${percentile(ms, 50).toFixed(1)} ms  p99 ${percentile(ms, 99).toFixed(1)} ms` +
      `   upstream requests/${per} mean ${mean.toFixed(2)} max ${Math.max(...requests)}   HTTP ${statuses}`,
  );
}

/**
 * `n` sequential GETs of `url`, one client, each timed to its whole body; `before` (not timed) runs ahead of each.
 * The times ascending, and the last answer's status and size.
 */
export async function sequentialGets(url, headers, n, before) {
  const samples = [];
  let status = 0;
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    if (before) await before();
    const t = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.arrayBuffer();
    samples.push(performance.now() - t);
    status = res.status;
    bytes = body.byteLength;
  }
  samples.sort((a, b) => a - b);
  return { samples, status, bytes };
}
