// Live streams: push delay of the /rpc PubSub hub, price (confirmed and processed) and candle push delay of /ws, memory per idle connection.
// Run by bench/run.sh's "== streams" section against its own localnet (slots every SLOT_MS, ~300 ms) and the bundled
// worker under Miniflare (bench/serve-worker.mjs: the Durable Objects PUBSUB_HUB, STREAM_ROOM, CHAIN_TAIL bound, D1
// migrated). Prints numbers; every phase catches its own failure and says so (a bench never fails).
// env: BASE_URL, LOCALNET_URL, LOCALNET_WS_URL, API_KEY, CONTROL_URL (bench/serve-worker.mjs's control server: more
// API keys), WORKER_PGID (process group of that serve-worker: its workerd processes are measured), CLIENTS (1000),
// IDLE (2000), NOTIFICATIONS (30), PRICE_EVENTS (30; candle and processed price frames too), SLOT_MS (for the label and the
// "within one slot" count), PHASES (hub,price,processed,candle,memory),
// STREAMS_DEBUG (prints each price frame's attribution)
import { execSync } from "node:child_process";
import WebSocket from "ws";

const { BASE_URL, LOCALNET_URL, LOCALNET_WS_URL, API_KEY, CONTROL_URL, WORKER_PGID } = process.env;
const CLIENTS = Number(process.env.CLIENTS ?? 1000);
const IDLE = Number(process.env.IDLE ?? 2000);
const NOTIFICATIONS = Number(process.env.NOTIFICATIONS ?? 30);
const PRICE_EVENTS = Number(process.env.PRICE_EVENTS ?? 30);
const WS_BASE = BASE_URL.replace(/^http/, "ws");
const STABLE_OR_SOL = new Set(["So11111111111111111111111111111111111111112", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();
async function until(probe, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) return undefined;
    await sleep(20);
  }
}
const getJson = async (url, init) => (await fetch(url, init)).json();
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return "no samples";
  return `p50 ${quantile(s, 0.5).toFixed(1)} ms, p99 ${quantile(s, 0.99).toFixed(1)} ms, max ${s.at(-1).toFixed(1)} ms (${s.length} samples)`;
};
const line = (label, text) => console.log(`${label.padEnd(64)} ${text}`);

/** Opens a socket; `onText(text, receivedAt)` gets every frame as a string, the time taken first thing. */
function openSocket(url, onText) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on("message", (data) => {
    const at = now();
    onText(String(data), at);
  });
  ws.on("error", () => {});
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}
const closeAll = async (sockets) => {
  await Promise.all(sockets.map((ws) => new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    const t = setTimeout(() => (ws.terminate(), resolve()), 3000);
    ws.once("close", () => (clearTimeout(t), resolve()));
    ws.close();
  })));
};

/** Resident memory (MB) of the measured worker's workerd processes (its process group; all workerd without one). */
function workerdRssMb() {
  try {
    const cmd = WORKER_PGID ? `ps -o rss=,comm= -g ${Number(WORKER_PGID)}` : "ps -C workerd -o rss=,comm=";
    const rows = execSync(`${cmd} || true`).toString().trim().split("\n").filter(Boolean).map((l) => l.trim().split(/\s+/));
    return rows.filter(([, comm]) => comm === "workerd").reduce((sum, [kb]) => sum + Number(kb), 0) / 1024;
  } catch {
    return NaN;
  }
}

/** Upstream subscriptions localnet holds for accountSubscribe of `account` (all params forms summed). */
async function upstreamCount(account) {
  const { subscriptions } = await getJson(`${LOCALNET_URL}/__localnet/pubsub`);
  return subscriptions.filter((s) => s.method === "accountSubscribe" && Array.isArray(s.params) && s.params[0] === account).reduce((n, s) => n + s.count, 0);
}

const world = await getJson(`${LOCALNET_URL}/__localnet/world`);
console.log(`Miniflare (workerd) on a shared 2-core box; localnet, the worker and these clients share it; localnet slots every ~${process.env.SLOT_MS ?? "?"} ms`);

// ---------------------------------------------------------------------------------------------------------------------
// 1. /rpc PubSub hub: 1 and CLIENTS clients on one accountSubscribe topic, each copy's receipt time minus the receipt
//    time of the same notification on a socket straight to localnet's PubSub (same process, same clock).
// ---------------------------------------------------------------------------------------------------------------------
async function hubPhase() {
  const account = world.wellKnown.solUsdcPool;
  const params = [account, { commitment: "processed", encoding: "base64" }];
  const subscribe = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "accountSubscribe", params });
  const slotOf = (text) => Number(/"context":\{"slot":(\d+)/.exec(text)?.[1] ?? NaN);
  console.log(`-- /rpc PubSub hub: accountSubscribe (processed, base64) of ${account} (the SOL/USDC CLMM pool's state account: the arbitrage bot swaps it in most slots)`);

  const oracleAt = new Map();
  let oracleAnswered = false;
  const oracle = await openSocket(LOCALNET_WS_URL, (text, at) => {
    if (text.includes('"accountNotification"')) oracleAt.set(slotOf(text), at);
    else if (text.includes('"id":"oracle"')) oracleAnswered = true;
  });
  oracle.send(subscribe("oracle"));
  await until(() => oracleAnswered, 5000);

  const measure = async (n) => {
    const clients = [];
    let answered = 0;
    const received = []; // per client: Map slot → time
    for (let i = 0; i < n; i += 100) {
      const batch = await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, k) => {
        const got = new Map();
        received.push(got);
        return openSocket(`${WS_BASE}/rpc?x-api-key=${API_KEY}`, (text, at) => {
          if (text.includes('"accountNotification"')) got.set(slotOf(text), at);
          else if (text.includes('"result"')) answered++;
        });
      }));
      clients.push(...batch);
    }
    clients.forEach((ws, i) => ws.send(subscribe(i)));
    const allAnswered = await until(() => answered >= n, 30_000);
    if (!allAnswered) line(`  ${n} client(s)`, `only ${answered}/${n} subscribe answers in 30 s`);
    await sleep(500);
    const upstream = await upstreamCount(account);
    line(`  upstream subscriptions of the topic with ${n} client(s) (hub's)`, `${upstream - 1} (localnet holds ${upstream}: the hub's + this bench's direct socket)`);
    const firstSlot = Math.max(0, ...oracleAt.keys());
    const slots = () => [...oracleAt.keys()].filter((s) => s > firstSlot);
    await until(() => slots().length >= NOTIFICATIONS, NOTIFICATIONS * 1500 + 10_000);
    const measured = slots().slice(0, NOTIFICATIONS);
    await sleep(1500); // the last copies
    const delays = [];
    const missing = new Map(); // slot → clients without that notification
    for (const got of received) for (const s of measured) {
      const at = got.get(s);
      if (at === undefined) missing.set(s, (missing.get(s) ?? 0) + 1);
      else delays.push(at - oracleAt.get(s));
    }
    const missingText = [...missing].map(([s, k]) => `slot ${s} at ${k} client(s)`).join(", ");
    // One key is one account, so one hub shard (its sockets all go to its account's shard): this is one shard's load.
    line(`  hub capacity measured: one shard, ${n} client(s)`, `${clients.length} sockets and ${answered} subscriptions on one shard (cap ${"2,000"} sockets per shard, 16 shards)`);
    line(`  push delay behind localnet's own socket, ${n} client(s)`, `${stats(delays)} over ${measured.length} notifications${missing.size ? `; copies missing: ${missingText} (measured slots ${measured[0]}..${measured.at(-1)})` : ""}`);
    await closeAll(clients);
  };

  await measure(1);
  await sleep(1000);
  await measure(CLIENTS);
  let after = NaN;
  for (let i = 0; i < 25; i++) {
    after = (await upstreamCount(account)) - 1;
    if (after === 0) break;
    await sleep(200);
  }
  line("  upstream subscriptions of the topic after every client left", String(after));
  await closeAll([oracle]);
}

// ---------------------------------------------------------------------------------------------------------------------
// 2. /ws price stream: receipt of a price frame minus the time its pool account changed, taken from a direct localnet
//    accountSubscribe (processed) on the pool's own accounts (pool state and its vaults / reserves).
// ---------------------------------------------------------------------------------------------------------------------
const OWN_ACCOUNTS = /^(pool(Base|Quote)TokenAccount|reserve[XY]|coinVault|pcVault|token[01]Vault|tokenVault[01]|token[AB]Vault|baseVault|quoteVault|associatedBondingCurve|[ab]VaultLp)$/;
async function pricePhase() {
  // the busiest tokens of the last 100 slots that trade on one pool only (not SOL or stables; Meteora DAMM v1 pools keep
  // their reserves in shared vaults): every trade changes the pool their price is read from
  const { slot } = await getJson(`${LOCALNET_URL}/__localnet/status`);
  const { trades } = await getJson(`${LOCALNET_URL}/__localnet/trades?from=${Math.max(1, slot - 100)}&to=${slot}`);
  const onePool = new Set(world.tokens.filter((t) => t.pools.length === 1 && t.pools[0].kind !== "meteora-damm-v1").map((t) => t.mint));
  const slotsOf = new Map();
  for (const t of trades) if (!t.failed && onePool.has(t.baseMint) && !STABLE_OR_SOL.has(t.baseMint)) slotsOf.set(t.baseMint, (slotsOf.get(t.baseMint) ?? new Set()).add(t.slot));
  const busiest = [...slotsOf].sort((a, b) => b[1].size - a[1].size).slice(0, 8);
  const mints = busiest.map(([m]) => m);
  // each of their pools' own accounts → pool address
  const poolOfAccount = new Map();
  for (const t of world.tokens.filter((t) => mints.includes(t.mint))) for (const p of t.pools) {
    poolOfAccount.set(p.address, p.address);
    for (const [k, v] of Object.entries(p.related ?? {})) if (OWN_ACCOUNTS.test(k)) poolOfAccount.set(v, p.address);
  }
  console.log(`-- /ws price stream: subscribePrice of the ${mints.length} busiest one-pool tokens (${busiest.map(([, s]) => s.size).join(", ")} of the last 100 slots swapped them); their ${poolOfAccount.size} pool accounts watched on a direct localnet socket`);

  // direct socket: accountSubscribe processed and confirmed on each account; per pool, slot → first notification time
  const changedAt = { processed: new Map(), confirmed: new Map() }; // pool → Map(slot → time)
  const subKind = new Map(); // request id → [commitment, pool]; then subscription id → same
  const bySub = new Map();
  const direct = await openSocket(LOCALNET_WS_URL, (text, at) => {
    const m = JSON.parse(text);
    if (m.method === "accountNotification") {
      const [commitment, pool] = bySub.get(m.params.subscription) ?? [];
      if (!pool) return;
      const perPool = changedAt[commitment].get(pool) ?? new Map();
      changedAt[commitment].set(pool, perPool);
      const s = m.params.result.context.slot;
      if (!perPool.has(s)) perPool.set(s, at);
    } else if (m.id !== undefined && subKind.has(m.id)) bySub.set(m.result, subKind.get(m.id));
  });
  let id = 0;
  for (const [acct, pool] of poolOfAccount) for (const commitment of ["processed", "confirmed"]) {
    subKind.set(++id, [commitment, pool]);
    direct.send(JSON.stringify({ jsonrpc: "2.0", id, method: "accountSubscribe", params: [acct, { commitment, encoding: "base64", dataSlice: { offset: 0, length: 0 } }] }));
  }
  await until(() => bySub.size === id, 5000);

  const frames = [];
  let acked = false;
  const client = await openSocket(`${WS_BASE}/ws?x-api-key=${API_KEY}`, (text, at) => {
    const f = JSON.parse(text);
    if (f.type === "price") frames.push({ at, data: f.data });
    else if (f.type === "subscribePrice") acked = true;
  });
  const subscribedAt = now();
  client.send(JSON.stringify({ method: "subscribePrice", tokens: mints }));
  if (!(await until(() => acked, 10_000))) line("  subscribePrice", "no ack in 10 s");
  // the first 2 s are a warm-up: the tail starts at the tip, whose changes may predate the direct subscriptions
  const WARMUP_MS = 2000;
  const live = () => frames.filter((f) => f.at - subscribedAt >= WARMUP_MS);
  // attribute each frame: its pool's latest change (processed notification) at or before the frame's read slot and after
  // the previous frame's read slot of that mint; frames whose pool did not change in between are not counted
  const attribute = (debug) => {
    const fromProcessed = [], fromConfirmed = [];
    const lastChange = new Map(); // mint → read slot of its previous frame (every change up to it was reflected there)
    let unattributed = 0;
    for (const { data } of frames.filter((f) => f.at - subscribedAt < WARMUP_MS)) lastChange.set(data.ca, Math.max(lastChange.get(data.ca) ?? -1, data.slot));
    for (const { at, data } of live()) {
      if (fromProcessed.length >= PRICE_EVENTS) break;
      const proc = changedAt.processed.get(data.pool);
      const previous = lastChange.get(data.ca) ?? -1;
      const change = proc ? Math.max(-1, ...[...proc.keys()].filter((s) => s <= data.slot && s > previous)) : -1;
      if (debug) console.log(JSON.stringify({ ca: data.ca, pool: data.pool, slot: data.slot, previous, watched: !!proc, changes: proc ? [...proc.keys()].filter((s) => s > data.slot - 10) : [] }));
      lastChange.set(data.ca, data.slot);
      if (change < 0) { unattributed++; continue; }
      fromProcessed.push(at - proc.get(change));
      const conf = changedAt.confirmed.get(data.pool);
      const confirmedAt = conf && [...conf].filter(([s]) => s >= change).sort((a, b) => a[0] - b[0])[0];
      if (confirmedAt) fromConfirmed.push(at - confirmedAt[1]);
    }
    return { fromProcessed, fromConfirmed, unattributed };
  };
  const got = await until(() => attribute(false).fromProcessed.length >= PRICE_EVENTS, 120_000);
  await sleep(1000); // confirmed notifications of the last changes
  const { fromProcessed, fromConfirmed, unattributed } = attribute(!!process.env.STREAMS_DEBUG);
  if (!got) line("  price frames", `only ${fromProcessed.length} counted in 120 s`);
  const firstFrameS = frames.length ? ((frames[0].at - subscribedAt) / 1000).toFixed(1) : "-";
  const warmup = frames.length - live().length;
  line("  price push delay after the pool account changed (processed)", stats(fromProcessed));
  line("  same, after that change was confirmed (the tail reads confirmed blocks)", stats(fromConfirmed));
  line("  price frames", `${frames.length} received: ${warmup} in the first 2 s (warm-up, not counted), ${fromProcessed.length} counted, ${unattributed} without a change of their pool since the mint's previous frame (not counted); first frame ${firstFrameS} s after subscribing`);
  await closeAll([client, direct]);
}

// ---------------------------------------------------------------------------------------------------------------------
// 2b. /ws processed price stream (subscribePrice, commitment processed): receipt of a processed price frame minus the
//     time localnet published the change of the token's pool at processed (the first accountNotification, processed,
//     of one of the pool's own accounts in the changing slot, on a direct localnet socket: same machine, same clock),
//     with 1 and CLIENTS subscribers (each its own socket, spread over keys).
// ---------------------------------------------------------------------------------------------------------------------
async function processedPhase() {
  const { slot } = await getJson(`${LOCALNET_URL}/__localnet/status`);
  const { trades } = await getJson(`${LOCALNET_URL}/__localnet/trades?from=${Math.max(1, slot - 100)}&to=${slot}`);
  // not a launch curve: a busy curve completes and its token moves to another pool mid-measure
  const CURVES = new Set(["pumpfun", "meteora-dbc", "raydium-launchlab"]);
  const onePool = new Set(world.tokens.filter((t) => t.pools.length === 1 && t.pools[0].kind !== "meteora-damm-v1" && !CURVES.has(t.pools[0].kind) && t.pools[0].quoteMint === "So11111111111111111111111111111111111111112").map((t) => t.mint));
  const slotsOf = new Map();
  for (const t of trades) if (!t.failed && onePool.has(t.baseMint) && !STABLE_OR_SOL.has(t.baseMint)) slotsOf.set(t.baseMint, (slotsOf.get(t.baseMint) ?? new Set()).add(t.slot));
  // the busiest alone, as in the candle phase: one frame per change per subscriber (3 tokens × 1,000 sockets measured
  // this one client process's throughput more than the push delay: frames queued up to seconds on a loaded machine)
  const busiest = [...slotsOf].sort((a, b) => b[1].size - a[1].size).slice(0, 1);
  if (busiest.length === 0) return line("  processed price", "no one-pool SOL-quoted token traded in the last 100 slots");
  const mints = busiest.map(([m]) => m);
  const poolOfAccount = new Map(); // account → its pool
  const poolOfMint = new Map();
  for (const t of world.tokens.filter((t) => mints.includes(t.mint))) {
    const p = t.pools[0];
    poolOfMint.set(t.mint, p.address);
    poolOfAccount.set(p.address, p.address);
    for (const [k, v] of Object.entries(p.related ?? {})) if (OWN_ACCOUNTS.test(k)) poolOfAccount.set(v, p.address);
  }
  console.log(`-- /ws processed price stream: subscribePrice {"commitment":"processed"} of the busiest one-pool SOL-quoted token, not a launch curve (${busiest[0][1].size} of the last 100 slots swapped it); a processed price frame's receipt minus localnet's first processed accountNotification of its pool's own accounts (${poolOfAccount.size}) in the slot of the change (direct socket, same clock); "within one slot" = under SLOT_MS (${process.env.SLOT_MS ?? "?"} ms)`);
  const changedAt = new Map(); // pool → Map(slot → first processed notification time of one of its accounts)
  const poolOfSub = new Map();
  const poolOfRequest = new Map();
  const direct = await openSocket(LOCALNET_WS_URL, (text, at) => {
    const m = JSON.parse(text);
    if (m.method === "accountNotification") {
      const pool = poolOfSub.get(m.params.subscription);
      if (!pool) return;
      const perPool = changedAt.get(pool) ?? new Map();
      changedAt.set(pool, perPool);
      const s = m.params.result.context.slot;
      if (!perPool.has(s)) perPool.set(s, at);
    } else if (m.id !== undefined && poolOfRequest.has(m.id)) poolOfSub.set(m.result, poolOfRequest.get(m.id));
  });
  let id = 0;
  for (const [acct, pool] of poolOfAccount) {
    poolOfRequest.set(++id, pool);
    direct.send(JSON.stringify({ jsonrpc: "2.0", id, method: "accountSubscribe", params: [acct, { commitment: "processed", encoding: "base64", dataSlice: { offset: 0, length: 0 } }] }));
  }
  await until(() => poolOfSub.size === id, 5000);
  const perKey = 20;
  const { keys } = await getJson(`${CONTROL_URL}/__bench/api-keys?n=${Math.ceil(CLIENTS / perKey) + 1}`, { method: "POST" });
  const slotMs = Number(process.env.SLOT_MS ?? NaN);
  const changed = (ca, s) => changedAt.get(poolOfMint.get(ca))?.has(s);
  const measure = async (n) => {
    const frames = []; // { at, ca, slot } of processed price frames after the warm-up
    const seen = new Set(); // `${ca}:${slot}`
    let startedAt = Infinity;
    let acked = 0;
    let otherPool = 0;
    const sockets = [];
    for (let i = 0; i < n; i += 100) {
      const batch = await Promise.allSettled(Array.from({ length: Math.min(100, n - i) }, (_, k) =>
        openSocket(`${WS_BASE}/ws?x-api-key=${keys[Math.floor((i + k) / perKey)]}`, (text, at) => {
          if (text.includes('"type":"price"')) {
            // read by pattern, not JSON.parse: 1,000 sockets' frames go through this one client process
            if (!text.includes('"commitment":"processed"') || at - startedAt <= 2000) return;
            const ca = /"ca":"(\w+)"/.exec(text)?.[1];
            const s = Number(/"slot":(\d+)/.exec(text)?.[1]);
            // priced from another pool than the one watched: not measured (counted apart)
            if (/"pool":"(\w+)"/.exec(text)?.[1] !== poolOfMint.get(ca)) return void otherPool++;
            frames.push({ at, ca, slot: s });
            seen.add(`${ca}:${s}`);
          } else if (text.includes('"type":"subscribePrice"')) acked++;
        })));
      for (const r of batch) if (r.status === "fulfilled") sockets.push(r.value);
    }
    startedAt = now();
    sockets.forEach((ws) => ws.send(JSON.stringify({ method: "subscribePrice", tokens: mints, commitment: "processed" })));
    if (!(await until(() => acked >= sockets.length, 30_000))) line(`  ${n} subscriber(s)`, `only ${acked}/${sockets.length} acks in 30 s`);
    // the first 2 s are a warm-up (the tail starts following the tokens)
    const counted = () => [...seen].filter((k) => {
      const [ca, s] = k.split(":");
      return changed(ca, Number(s));
    }).length;
    const enough = await until(() => counted() >= PRICE_EVENTS, 120_000);
    await sleep(1000);
    // each frame against the change of its read slot (a frame read at a slot without a change of the pool, e.g. a
    // read that lagged a slot, is attributed to the pool's latest change at or before it, after the previous frame's)
    const changeOf = new Map(); // `${ca}:${slot}` → change slot
    for (const ca of mints) {
      const perPool = changedAt.get(poolOfMint.get(ca)) ?? new Map();
      let previous = -1;
      for (const s of [...new Set(frames.filter((f) => f.ca === ca).map((f) => f.slot))].sort((a, b) => a - b)) {
        const c = Math.max(-1, ...[...perPool.keys()].filter((x) => x <= s && x > previous));
        if (c >= 0) changeOf.set(`${ca}:${s}`, perPool.get(c));
        previous = s;
      }
    }
    const delays = [];
    let unattributed = 0;
    for (const f of frames) {
      const changedTime = changeOf.get(`${f.ca}:${f.slot}`);
      if (changedTime === undefined) unattributed++;
      else delays.push(f.at - changedTime);
    }
    const within = delays.filter((d) => d < slotMs).length;
    if (!enough) line(`  ${n} subscriber(s)`, `only ${seen.size} distinct frames in 120 s (the token traded less than before)`);
    line(`  processed price push delay after the pool changed (processed), ${sockets.length} subscriber(s)`, stats(delays));
    line(`  within one slot (< ${slotMs} ms), ${sockets.length} subscriber(s)`, `${within}/${delays.length} frames (${delays.length ? ((100 * within) / delays.length).toFixed(1) : "-"}%); ${unattributed} frames without a change of their pool since the previous frame's slot and ${otherPool} priced from another pool (not counted)`);
    await closeAll(sockets);
  };
  await measure(1);
  await sleep(1000);
  await measure(CLIENTS);
  await closeAll([direct]);
}

// ---------------------------------------------------------------------------------------------------------------------
// 3. /ws live candles: receipt of a forming candle frame (subscribeCandle, 1s) minus the time its block's change of the
//    token's pool was seen at processed and at confirmed on a direct localnet accountSubscribe, with 1 and CLIENTS
//    subscribers (each its own socket, spread over keys: /ws caps a key's sockets per room shard).
// ---------------------------------------------------------------------------------------------------------------------
async function candlePhase() {
  const { slot } = await getJson(`${LOCALNET_URL}/__localnet/status`);
  const { trades } = await getJson(`${LOCALNET_URL}/__localnet/trades?from=${Math.max(1, slot - 100)}&to=${slot}`);
  const onePool = new Set(world.tokens.filter((t) => t.pools.length === 1 && t.pools[0].kind !== "meteora-damm-v1").map((t) => t.mint));
  const slotsOf = new Map();
  for (const t of trades) if (!t.failed && onePool.has(t.baseMint) && !STABLE_OR_SOL.has(t.baseMint)) slotsOf.set(t.baseMint, (slotsOf.get(t.baseMint) ?? new Set()).add(t.slot));
  // the busiest token alone: one forming candle per slot per subscriber, the fan-out the price and hub phases measure too
  const mints = [...slotsOf].sort((a, b) => b[1].size - a[1].size).slice(0, 1).map(([m]) => m);
  const poolOfMint = new Map(world.tokens.filter((t) => mints.includes(t.mint)).map((t) => [t.mint, t.pools[0].address]));
  console.log(`-- /ws live candles: subscribeCandle (1s) of the busiest one-pool token; a forming candle's receipt minus the change of its pool in the candle's slot (direct localnet accountSubscribe)`);
  const changedAt = { processed: new Map(), confirmed: new Map() }; // `${pool}:${slot}` → first notification time
  const subKind = new Map();
  const bySub = new Map();
  const direct = await openSocket(LOCALNET_WS_URL, (text, at) => {
    const m = JSON.parse(text);
    if (m.method === "accountNotification") {
      const [commitment, pool] = bySub.get(m.params.subscription) ?? [];
      const k = `${pool}:${m.params.result.context.slot}`;
      if (pool && !changedAt[commitment].has(k)) changedAt[commitment].set(k, at);
    } else if (m.id !== undefined && subKind.has(m.id)) bySub.set(m.result, subKind.get(m.id));
  });
  let id = 0;
  for (const pool of poolOfMint.values()) for (const commitment of ["processed", "confirmed"]) {
    subKind.set(++id, [commitment, pool]);
    direct.send(JSON.stringify({ jsonrpc: "2.0", id, method: "accountSubscribe", params: [pool, { commitment, encoding: "base64", dataSlice: { offset: 0, length: 0 } }] }));
  }
  await until(() => bySub.size === id, 5000);
  const perKey = 20;
  const { keys } = await getJson(`${CONTROL_URL}/__bench/api-keys?n=${Math.ceil(CLIENTS / perKey) + 1}`, { method: "POST" });
  const measure = async (n) => {
    const frames = []; // { at, ca, slot }
    const seen = new Set(); // `${ca}:${slot}` of counted frames: kept as frames come, so the wait below is O(1) per poll
    let startedAt = Infinity;
    let acked = 0;
    const sockets = [];
    for (let i = 0; i < n; i += 100) {
      const batch = await Promise.allSettled(Array.from({ length: Math.min(100, n - i) }, (_, k) =>
        openSocket(`${WS_BASE}/ws?x-api-key=${keys[Math.floor((i + k) / perKey)]}`, (text, at) => {
          if (text.includes('"type":"candle"')) {
            // read by pattern, not JSON.parse: 1,000 sockets' frames go through this one client process
            if (!text.includes('"closed":false') || at - startedAt <= 2000) return;
            const ca = /"ca":"(\w+)"/.exec(text)?.[1];
            const slot = Number(/"slot":(\d+)\}\}$/.exec(text)?.[1]);
            frames.push({ at, ca, slot });
            seen.add(`${ca}:${slot}`);
          } else if (text.includes('"type":"subscribeCandle"')) acked++;
        })));
      for (const r of batch) if (r.status === "fulfilled") sockets.push(r.value);
    }
    startedAt = now();
    sockets.forEach((ws) => ws.send(JSON.stringify({ method: "subscribeCandle", tokens: mints, interval: "1s" })));
    if (!(await until(() => acked >= sockets.length, 30_000))) line(`  ${n} subscriber(s)`, `only ${acked}/${sockets.length} acks in 30 s`);
    // the first 2 s are a warm-up (the tail starts at the tip); frames whose pool change was not seen are not counted
    await until(() => seen.size >= PRICE_EVENTS, 120_000);
    await sleep(1000);
    const fromProcessed = [], fromConfirmed = [];
    for (const f of frames.filter((x) => changedAt.processed.has(`${poolOfMint.get(x.ca)}:${x.slot}`))) {
      const k = `${poolOfMint.get(f.ca)}:${f.slot}`;
      fromProcessed.push(f.at - changedAt.processed.get(k));
      if (changedAt.confirmed.has(k)) fromConfirmed.push(f.at - changedAt.confirmed.get(k));
    }
    line(`  candle push delay after the pool changed (processed), ${sockets.length} subscriber(s)`, stats(fromProcessed));
    line(`  same, after that change was confirmed, ${sockets.length} subscriber(s)`, stats(fromConfirmed));
    await closeAll(sockets);
  };
  await measure(1);
  await sleep(1000);
  await measure(CLIENTS);
  await closeAll([direct]);
}

// ---------------------------------------------------------------------------------------------------------------------
// 4. Memory per idle connection: workerd RSS before and after IDLE authenticated /ws sockets (no subscription), and
//    IDLE /rpc sockets (no subscription).
// ---------------------------------------------------------------------------------------------------------------------
async function memoryPhase() {
  console.log(`-- memory per idle connection: workerd RSS (ps, the measured worker's workerd processes) around ${IDLE} idle sockets (all Durable Objects of the worker live in that one workerd; RSS counts heap not yet collected, so an upper bound)`);
  // /ws caps a key at limits.streams.connectionsPerKeyPerShard (20) sockets per room shard: spread over keys (one account each)
  const perKey = 25;
  const { keys } = await getJson(`${CONTROL_URL}/__bench/api-keys?n=${Math.ceil(IDLE / perKey) + 10}`, { method: "POST" });
  await sleep(2000);
  const perConn = (mbFrom, mbTo, n) => `${((mbTo - mbFrom) * 1048576 / Math.max(1, n)).toFixed(0)} bytes`;
  /** Opens `n` sockets to `urlOf(i)` 100 at a time into `into`; `counter.n` counts their `connected` frames (if given). */
  const openMany = async (n, urlOf, into, counter) => {
    let refused = 0;
    for (let i = 0; i < n; i += 100) {
      const batch = await Promise.allSettled(Array.from({ length: Math.min(100, n - i) }, (_, k) =>
        openSocket(urlOf(into.length + k), (text) => { if (counter && text.includes('"connected"')) counter.n++; })));
      for (const r of batch) r.status === "fulfilled" ? into.push(r.value) : refused++;
    }
    return refused;
  };
  // Each half measured: the first half also wakes the 32 room shards (a fixed cost); the second half is the marginal cost.
  const half = Math.floor(IDLE / 2);
  const base = workerdRssMb();
  const wsSockets = [];
  const connected = { n: 0 };
  const wsUrl = (i) => `${WS_BASE}/ws?x-api-key=${keys[Math.floor(i / perKey)]}`;
  let refused = await openMany(half, wsUrl, wsSockets, connected);
  await until(() => connected.n >= wsSockets.length, 20_000);
  await sleep(3000);
  const wsHalf = workerdRssMb();
  const firstHalf = wsSockets.length;
  refused += await openMany(IDLE - half, wsUrl, wsSockets, connected);
  await until(() => connected.n >= wsSockets.length, 20_000);
  await sleep(3000);
  const withWs = workerdRssMb();
  line(`  /ws: ${wsSockets.length} idle sockets (${connected.n} connected frames, ${refused} refused), 3 s after`, `RSS ${base.toFixed(1)} → ${wsHalf.toFixed(1)} (first ${firstHalf}) → ${withWs.toFixed(1)} MB`);
  line(`  /ws memory per idle connection`, `${perConn(base, withWs, wsSockets.length)} all in (32 room shards woken included); marginal (second ${wsSockets.length - firstHalf}): ${perConn(wsHalf, withWs, wsSockets.length - firstHalf)}`);
  await sleep(12_000); // rooms idle 10 s may hibernate (workerd's RSS need not shrink)
  const hibernated = workerdRssMb();
  line(`  /ws: the same sockets 15 s later (idle rooms may hibernate)`, `RSS ${hibernated.toFixed(1)} MB = ${perConn(base, hibernated, wsSockets.length)} per connection all in`);

  const rpcSockets = [];
  const beforeRpc = workerdRssMb();
  // /rpc admits 1,000 sockets per DEV account (rpcWsConnections): spread over the same keys (one account each, so over the hub shards)
  const rpcUrl = (i) => `${WS_BASE}/rpc?x-api-key=${keys[Math.floor(i / perKey)]}`;
  let rpcRefused = await openMany(half, rpcUrl, rpcSockets);
  await sleep(3000);
  const rpcHalf = workerdRssMb();
  const rpcFirst = rpcSockets.length;
  rpcRefused += await openMany(IDLE - half, rpcUrl, rpcSockets);
  await sleep(3000);
  const withRpc = workerdRssMb();
  line(`  /rpc: ${rpcSockets.length} idle sockets (${rpcRefused} refused), 3 s after`, `RSS ${beforeRpc.toFixed(1)} → ${rpcHalf.toFixed(1)} (first ${rpcFirst}) → ${withRpc.toFixed(1)} MB`);
  line(`  /rpc memory per idle connection`, `${perConn(beforeRpc, withRpc, rpcSockets.length)} all in; marginal (second ${rpcSockets.length - rpcFirst}): ${perConn(rpcHalf, withRpc, rpcSockets.length - rpcFirst)}`);
  await closeAll([...wsSockets, ...rpcSockets]);
  await sleep(3000);
  line("  after closing all of them", `RSS ${workerdRssMb().toFixed(1)} MB`);
}

// PHASES=hub,price,processed,candle,memory (default all) picks phases
const only = (process.env.PHASES ?? "hub,price,processed,candle,memory").split(",");
for (const [name, phase] of [["hub", hubPhase], ["price", pricePhase], ["processed", processedPhase], ["candle", candlePhase], ["memory", memoryPhase]].filter(([n]) => only.includes(n))) {
  try {
    await phase();
  } catch (err) {
    console.log(`  ${name}: not measured (${err instanceof Error ? err.message : String(err)})`);
  }
}
process.exit(0);
