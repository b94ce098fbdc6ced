// Worker memory before and after 20,000 never-seen mints (random addresses) through the price route, 100 a request.
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";

const { BASE_URL, API_KEY } = process.env;
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const base58 = (bytes) => {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  let out = "";
  while (n > 0n) { out = ALPHABET[Number(n % 58n)] + out; n /= 58n; }
  return out;
};
// The resident memory of every workerd process (the bench's workers), in MB.
const workerdRssMb = () => {
  const lines = execSync("ps -C workerd -o rss= || true").toString().trim().split("\n").filter(Boolean);
  return lines.reduce((sum, kb) => sum + Number(kb), 0) / 1024;
};
const before = workerdRssMb();
const started = performance.now();
let ok = 0;
for (let i = 0; i < 200; i++) {
  const ca = Array.from({ length: 100 }, () => base58(randomBytes(32))).join(",");
  const res = await fetch(`${BASE_URL}/api/v1/price?ca=${ca}`, { headers: { "x-api-key": API_KEY } });
  await res.arrayBuffer();
  if (res.status === 200) ok++;
}
const seconds = (performance.now() - started) / 1000;
console.log(`20,000 never-seen mints (200 lists of 100): ${ok}/200 answered 200 in ${seconds.toFixed(1)} s (${(seconds * 1000 / 200).toFixed(0)} ms a list); workerd RSS ${before.toFixed(0)} MB → ${workerdRssMb().toFixed(0)} MB`);
