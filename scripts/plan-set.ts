// npm run plan:set -- --email a@b.c --plan pro
// Sets an account's plan in the local D1 and rewrites the KV records of its keys (the state `npm start` / `wrangler dev`
// use: .wrangler/state, or WRANGLER_STATE_DIR), with the same function the worker's tests run (src/accounts/plan-change.ts).
import path from "node:path";
import { parseArgs } from "node:util";
import { getPlatformProxy } from "wrangler";
import { setAccountPlan } from "../src/accounts/plan-change";
import { planIdSchema } from "../src/accounts/plans";
import { projectRoot, quietWranglerEnv } from "./lib/wrangler";

const { values } = parseArgs({ options: { email: { type: "string" }, plan: { type: "string" } } });
const plan = planIdSchema.safeParse(values.plan);
if (!values.email || !plan.success) {
  console.error("usage: npm run plan:set -- --email a@b.c --plan free|pro|advanced|dev");
  process.exit(2);
}
Object.assign(process.env, quietWranglerEnv);
const stateDir = process.env.WRANGLER_STATE_DIR;
// The bindings of wrangler.toml over the local state wrangler dev persists (`--persist-to DIR` keeps it in DIR/v3).
const proxy = await getPlatformProxy<{ DB: D1Database; API_KEYS: KVNamespace }>({
  configPath: path.join(projectRoot, "wrangler.toml"),
  persist: { path: stateDir ? path.join(stateDir, "v3") : path.join(projectRoot, ".wrangler", "state", "v3") },
});
try {
  const change = await setAccountPlan(proxy.env.DB, proxy.env.API_KEYS, values.email, plan.data);
  if (!change.ok) {
    console.error(`no account with email ${JSON.stringify(values.email)}`);
    process.exitCode = 1;
  } else {
    console.log(`${change.account}: plan ${change.previous} → ${plan.data}; ${change.keysRewritten} key record(s) rewritten (running isolates see it within the auth cache, 5 s)`);
  }
} finally {
  await proxy.dispose();
}
