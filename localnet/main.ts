/**
 * CLI: `npm run localnet -- [--port P] [--ws-port W] [--seed S] [--slot-ms N] [--manual] [--latency-ms N] [--retain-slots N]
 * [--accounts DIR]... [--extras]`
 * Starts the local Solana node stand-in, prints its URLs, and closes cleanly on SIGINT/SIGTERM.
 */
import { parseArgs } from "node:util";
import { startLocalnet } from "./src/server.js";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "ws-port": { type: "string" },
    host: { type: "string" },
    seed: { type: "string" },
    "slot-ms": { type: "string" },
    manual: { type: "boolean" },
    "latency-ms": { type: "string" },
    "retain-slots": { type: "string" },
    accounts: { type: "string", multiple: true },
    extras: { type: "boolean" },
  },
});

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer, got ${text}`);
    process.exit(2);
  }
  return value;
}

const localnet = await startLocalnet({
  port: integer("port", values.port),
  wsPort: integer("ws-port", values["ws-port"]),
  host: values.host,
  seed: integer("seed", values.seed),
  slotMs: values.manual ? 0 : integer("slot-ms", values["slot-ms"]),
  latencyMs: integer("latency-ms", values["latency-ms"]),
  maxBlockSlots: integer("retain-slots", values["retain-slots"]),
  accountsDirs: values.accounts,
  extras: values.extras,
});

const { loaded, skipped } = localnet.fixtures;
console.log(`localnet RPC     ${localnet.rpcUrl}`);
console.log(`localnet PubSub  ${localnet.wsUrl}`);
console.log(`world manifest   ${localnet.rpcUrl}/__localnet/world`);
if (values.accounts) console.log(`fixture accounts ${loaded} loaded, ${skipped.length} skipped`);
console.log(values.manual ? `manual slots: curl -X POST '${localnet.rpcUrl}/__localnet/advance?slots=1'` : "slots advance automatically");

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void localnet.close().then(() => process.exit(0));
  });
}
