// npm run deploy [-- --dry-run] [-- <extra wrangler deploy flags>]
// Deploys the worker and everything it needs in one command (scripts/lib/deploy-plan.ts says what and why):
//   UPSTREAM_RPC_URL=https://your-provider/... [UPSTREAM_WS_URL=wss://...] npm run deploy
// The provider URLs are read from the environment and uploaded as secrets, never printed. `--dry-run` prints every
// command it would run and runs none (no network, no login needed).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writePrivate } from "./lib/dev-vars";
import { createdD1Id, d1IdIn, deployPlan, migrationsConfig, queuesIn, renderPlan, SECRET_NAMES, type Step } from "./lib/deploy-plan";
import { projectRoot, quietWranglerEnv } from "./lib/wrangler";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const passThrough = args.filter((a) => a !== "--dry-run");
const workDir = path.join(projectRoot, ".wrangler", "npm-deploy");
const secretsFilePath = path.join(workDir, `secrets-${process.pid}.json`);
const migrationsConfigPath = path.join(workDir, "migrations.toml");
const secretsGiven = SECRET_NAMES.filter((n) => process.env[n]?.trim());
const steps = deployPlan({ secretsGiven, migrationsConfigPath, secretsFilePath, passThrough });

if (dryRun) {
  console.log(`npm run deploy would run, from ${projectRoot}:\n${renderPlan(steps)}`);
  process.exit(0);
}

function run(step: Step): Promise<string> {
  const [bin, ...rest] = step.argv;
  const file = bin === "wrangler" ? path.join(projectRoot, "node_modules", ".bin", "wrangler") : process.execPath;
  console.log(`\n> ${step.argv.join(" ")}\n  # ${step.why}`);
  return new Promise((resolve, reject) => {
    const child = spawn(file, rest, { cwd: projectRoot, env: { ...process.env, ...quietWranglerEnv }, stdio: ["inherit", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`${step.argv.join(" ")} exited ${code}`))));
  });
}


mkdirSync(workDir, { recursive: true });
process.on("exit", () => rmSync(secretsFilePath, { force: true }));
try {
  let existingQueues = new Set<string>();
  let d1Id: string | undefined;
  for (const step of steps) {
    if (step.when === "queue-missing" && existingQueues.has(step.queue!)) {
      console.log(`\n  queue ${step.queue} exists`);
      continue;
    }
    if (step.when === "d1-missing" && d1Id) {
      console.log(`\n  D1 database exists (${d1Id})`);
      continue;
    }
    if (step.argv.includes("migrations")) writeFileSync(migrationsConfigPath, migrationsConfig(d1Id!, path.join(projectRoot, "migrations")));
    if (step.argv.includes("--secrets-file")) {
      const secrets = Object.fromEntries(secretsGiven.map((n) => [n, process.env[n]!.trim()]));
      writePrivate(secretsFilePath, JSON.stringify(secrets));
    }
    const out = await run(step);
    if (step.argv.join(" ") === "wrangler queues list") existingQueues = queuesIn(out);
    if (step.argv.join(" ") === "wrangler d1 list --json") d1Id = d1IdIn(out);
    if (step.when === "d1-missing") {
      d1Id = createdD1Id(out);
      if (!d1Id) throw new Error("wrangler d1 create printed no database_id");
    }
    if (step.when === "no-secrets-given") {
      const names = (JSON.parse(out.slice(out.indexOf("["))) as { name: string }[]).map((s) => s.name);
      if (!names.includes("UPSTREAM_RPC_URL")) {
        throw new Error("UPSTREAM_RPC_URL is not a secret of the worker yet: run UPSTREAM_RPC_URL=https://<your provider's RPC URL> npm run deploy");
      }
    }
  }
  console.log("\nDeployed. Create a key on the dashboard (/signup) of the deployed worker, or see README \"Deploy\".");
} catch (err) {
  console.error(`\nnpm run deploy stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
