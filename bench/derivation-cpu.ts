// CPU of deriving a never-seen mint's candidate pools (the dearest CPU of a cold price), in Node's V8.
import { getAddressDecoder, type Address } from "@solana/kit";
import { randomBytes } from "node:crypto";
import { poolAdapters } from "../src/venues/pool-adapters";

const decoder = getAddressDecoder();
const freshMint = () => decoder.decode(randomBytes(32)) as Address;
const derive = async (mint: Address) => (await Promise.all(poolAdapters.map((a) => a.candidates(mint)))).flat().length;

for (let i = 0; i < 50; i++) await derive(freshMint()); // JIT warm-up on other mints
const singles: number[] = [];
let pools = 0;
for (let i = 0; i < 300; i++) {
  const started = process.cpuUsage();
  pools = await derive(freshMint());
  const used = process.cpuUsage(started);
  singles.push((used.user + used.system) / 1000);
}
singles.sort((a, b) => a - b);
const lists: number[] = [];
for (let i = 0; i < 5; i++) {
  const mints = Array.from({ length: 100 }, freshMint);
  const started = process.cpuUsage();
  for (const mint of mints) await derive(mint);
  const used = process.cpuUsage(started);
  lists.push((used.user + used.system) / 1000);
}
lists.sort((a, b) => a - b);
const at = (a: number[], p: number) => a[Math.min(a.length - 1, Math.floor((p / 100) * a.length))]!.toFixed(2);
console.log(`never-seen mint derivation (${pools} candidate pools): CPU p50 ${at(singles, 50)} ms, p99 ${at(singles, 99)} ms; a 100-mint list of never-seen mints: p50 ${at(lists, 50)} ms`);
