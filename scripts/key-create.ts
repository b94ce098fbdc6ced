// npm run key:create -- --name "my bot" [--plan free|pro|advanced|dev] [--account acct_local]
// Creates an API key in the local KV that the running `npm start` reads (scripts/lib/local-state.ts says which) and
// prints it once, with the state it was written to.
import { parseArgs } from "node:util";
import { createApiKey, kvKeyForHash } from "../src/accounts/api-keys";
import { planSchema } from "../src/accounts/api-key-record";
import { openLocalBindings } from "./lib/local-bindings";
import { localStateOrExit } from "./lib/local-state";
import { projectRoot } from "./lib/wrangler";

const { values } = parseArgs({
  options: { name: { type: "string" }, plan: { type: "string", default: "free" }, account: { type: "string", default: "acct_local" } },
});
if (!values.name) {
  console.error('usage: npm run key:create -- --name "my bot" [--plan free|pro|advanced|dev]');
  process.exit(2);
}
const plan = planSchema.safeParse(values.plan);
if (!plan.success) {
  console.error(`unknown plan ${JSON.stringify(values.plan)}: use free, pro, advanced or dev`);
  process.exit(2);
}
const state = localStateOrExit(projectRoot);
const { key, record } = await createApiKey({ name: values.name, account: values.account, plan: plan.data });
const local = await openLocalBindings(projectRoot, state.dir);
try {
  await local.API_KEYS.put(kvKeyForHash(record.hash), JSON.stringify(record));
} catch (err) {
  process.stderr.write(local.runtimeOutput());
  throw err;
} finally {
  await local.dispose();
}
console.log(`Local state: ${state.dir} (${state.source})`);
console.log(`Created key ${record.keyId} (${record.name}, plan ${record.plan}). It is shown only once:\n\n  ${key}\n`);
