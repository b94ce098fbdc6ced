// npm run plan:set -- --email a@b.c --plan pro
// Sets an account's plan in the local D1 and rewrites the KV records of its keys, in the state the running `npm start`
// reads (scripts/lib/local-state.ts says which), with the same function the worker's tests run
// (src/accounts/plan-change.ts).
import { parseArgs } from "node:util";
import { setAccountPlan } from "../src/accounts/plan-change";
import { planIdSchema } from "../src/accounts/plans";
import { openLocalBindings, retryWhileBusy } from "./lib/local-bindings";
import { localStateOrExit } from "./lib/local-state";
import { projectRoot } from "./lib/wrangler";

const { values } = parseArgs({ options: { email: { type: "string" }, plan: { type: "string" } } });
const plan = planIdSchema.safeParse(values.plan);
if (!values.email || !plan.success) {
  console.error("usage: npm run plan:set -- --email a@b.c --plan free|pro|advanced|dev");
  process.exit(2);
}
const state = localStateOrExit(projectRoot);
console.log(`Local state: ${state.dir} (${state.source})`);
const local = await openLocalBindings(projectRoot, state.dir);
try {
  // the running npm start writes the same D1 file: a busy database is waited for (setting a plan twice is harmless)
  const change = await retryWhileBusy(() => setAccountPlan(local.DB, local.API_KEYS, values.email!, plan.data));
  if (!change.ok) {
    console.error(`no account with email ${JSON.stringify(values.email)} in this state`);
    process.exitCode = 1;
  } else {
    console.log(`${change.account}: plan ${change.previous} → ${plan.data}; ${change.keysRewritten} key record(s) rewritten (running isolates see it within the auth cache, 5 s)`);
  }
} catch (err) {
  // A state no `npm start` has run on has no tables yet (npm start applies the migrations).
  if (!/no such table/.test(String((err as Error).message))) {
    process.stderr.write(local.runtimeOutput());
    throw err;
  }
  console.error(`the local D1 in ${state.dir} has no accounts table: run npm start once with this state (it applies the migrations)`);
  process.exitCode = 1;
} finally {
  await local.dispose();
}
