// CPU of deriving never-seen mints' candidate pools (the dearest CPU of a cold price), in Node's V8.
// Workers bill the CPU of the isolate's own thread; V8's background compiler and GC helpers run on other threads. So
// lists are timed twice: the main thread alone (Linux: /proc/self/task/<pid>/stat, 10 ms ticks, hence many lists per
// figure) and the whole process (process.cpuUsage: every thread). "Cold" is the first list in a fresh process (code
// still interpreted and compiled on the way, as in a fresh isolate); "warm" follows 2,000 mints (an isolate that has
// served a while).
import { getAddressDecoder, type Address } from "@solana/kit";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { poolAdapters } from "../src/venues/pool-adapters";

const decoder = getAddressDecoder();
const freshMint = () => decoder.decode(randomBytes(32)) as Address;
const derive = async (mint: Address) => (await Promise.all(poolAdapters.map((a) => a.candidates(mint)))).flat().length;
/** The main thread's CPU in ms, or undefined where /proc is not there. */
const mainThreadMs = (): number | undefined => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in 100 Hz ticks
  } catch {
    return undefined;
  }
};
const processMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const list = () => Array.from({ length: 100 }, freshMint);
const fmt = (ms: number | undefined) => (ms === undefined ? "n/a" : `${ms.toFixed(1)} ms`);

// Cold: the first 100-mint list of this process.
const coldMints = list();
let thread0 = mainThreadMs();
let process0 = process.cpuUsage();
for (const mint of coldMints) await derive(mint);
const coldProcess = processMs(process0);
const coldThread = thread0 === undefined ? undefined : mainThreadMs()! - thread0;

for (let i = 0; i < 2000; i++) await derive(freshMint()); // an isolate that has served a while

const singles: number[] = [];
let pools = 0;
for (let i = 0; i < 300; i++) {
  const started = process.cpuUsage();
  pools = await derive(freshMint());
  singles.push(processMs(started));
}
singles.sort((a, b) => a - b);

const LISTS = 40;
const lists = Array.from({ length: LISTS }, list);
thread0 = mainThreadMs();
process0 = process.cpuUsage();
const perList: number[] = [];
for (const mints of lists) {
  const started = process.cpuUsage();
  for (const mint of mints) await derive(mint);
  perList.push(processMs(started));
}
const warmProcess = processMs(process0) / LISTS;
const warmThread = thread0 === undefined ? undefined : (mainThreadMs()! - thread0) / LISTS;
perList.sort((a, b) => a - b);
const at = (a: number[], p: number) => a[Math.min(a.length - 1, Math.floor((p / 100) * a.length))]!.toFixed(2);
console.log(`never-seen mint derivation (${pools} candidate pools), warm, whole process: CPU p50 ${at(singles, 50)} ms, p99 ${at(singles, 99)} ms`);
console.log(`a 100-mint list of never-seen mints, warm: main thread ${fmt(warmThread)} a list (mean of ${LISTS}); whole process mean ${warmProcess.toFixed(1)} ms, p50 ${at(perList, 50)} ms, p99 ${at(perList, 99)} ms`);
console.log(`the first 100-mint list of a fresh process (cold): main thread ${fmt(coldThread)}, whole process ${coldProcess.toFixed(1)} ms`);
