/**
 * Localnet memory over time: a manual-slot localnet over the default world advanced SLOTS slots (default 1,500 = 10 min
 * at 400 ms, produced as fast as the world builds them), printing the process's RSS / heap and the ledger's retained
 * counts at the start, every STEP slots (default 250) and at the end. Prints numbers, asserts nothing.
 *
 *   npx tsx --expose-gc bench/localnet-memory.ts                       # 1,500 slots, default retention (3,000 slots)
 *   SLOTS=6000 RETAIN_SLOTS=1000 npx tsx --expose-gc bench/localnet-memory.ts
 *
 * With `--expose-gc` a full collection runs before each sample, so heap figures are what is retained rather than garbage
 * not yet collected (slots come much faster than 400 ms here, leaving V8 no idle time to collect).
 */
import { startLocalnet } from "../localnet/src/server.js";

const SLOTS = Number(process.env.SLOTS ?? 1_500);
const STEP = Number(process.env.STEP ?? 250);
const RETAIN_SLOTS = process.env.RETAIN_SLOTS === undefined ? undefined : Number(process.env.RETAIN_SLOTS);
const NOMINAL_SLOT_MS = 400;

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1).padStart(7);

const net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 1, maxBlockSlots: RETAIN_SLOTS });
const started = performance.now();

const collect = (globalThis as { gc?: () => void }).gc;

function report(advanced: number): void {
  collect?.();
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  const r = net.ledger.retained();
  const minutes = ((advanced * NOMINAL_SLOT_MS) / 60_000).toFixed(1).padStart(5);
  console.log(
    `slots ${String(advanced).padStart(6)} (${minutes} min at 400 ms)  rss ${mb(rss)} MB  heap ${mb(heapUsed)}/${mb(heapTotal)} MB  external ${mb(external)} MB  ` +
      `blocks ${r.blocks} txs ${r.transactions} signatures ${r.signatures} addresses ${r.addresses}/${r.addressEntries} interned ${r.internedStrings}`,
  );
}

console.log(
  `localnet memory: ${SLOTS} slots, retention ${net.ledger.retained().maxBlockSlots} slots, report every ${STEP}` +
    (collect ? " (full GC before each sample)" : " (run with --expose-gc for post-GC figures)"),
);
report(0);
for (let done = 0; done < SLOTS; ) {
  const step = Math.min(STEP, SLOTS - done);
  await net.advance(step);
  done += step;
  report(done);
}
console.log(`produced in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await net.close();
