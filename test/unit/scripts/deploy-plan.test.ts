/**
 * `npm run deploy` in one command: its plan is checked offline. `--dry-run` prints every command in order (queues
 * created when missing, D1 created when missing and migrated remotely, the worker deployed with the provider URLs as
 * secrets) without running any, and never prints a secret; wrangler.toml carries no placeholder ids and no provider URL.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createdD1Id, d1IdIn, D1_NAME, deployPlan, migrationsConfig, QUEUES, queuesIn } from "../../../scripts/lib/deploy-plan";

const root = path.resolve(import.meta.dirname, "../../..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");
const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");

async function dryRun(env: NodeJS.ProcessEnv): Promise<string> {
  const clean = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete clean[k];
  const { stdout } = await promisify(execFile)(tsx, ["scripts/deploy.ts", "--dry-run"], { cwd: root, env: clean, timeout: 60_000 });
  return stdout;
}

/** The command lines of a dry-run's output, in order. */
const commands = (out: string) => [...out.matchAll(/^\s*\d+\. (.+?)(?:\s{3}\(if missing\))?$/gm)].map((m) => m[1]!);

describe("npm run deploy -- --dry-run", () => {
  it("with a provider URL: prints every command in order and runs none; the URL itself never appears", async () => {
    // Given provider URLs in the environment
    const secretUrl = "https://rpc.provider.example/?api-key=SECRET-VALUE-123";
    const out = await dryRun({ UPSTREAM_RPC_URL: secretUrl, UPSTREAM_WS_URL: "wss://ws.provider.example/?api-key=SECRET-WS-456" });
    const lines = commands(out);
    // Then the plan is: assets, login check, queues (each created if missing), D1 (created if missing, migrated remotely), deploy with secrets
    expect(lines[0]).toBe("node scripts/copy-docs-assets.mjs");
    expect(lines[1]).toBe("wrangler whoami");
    expect(lines[2]).toBe("wrangler queues list");
    expect(lines[3]).toBe("wrangler queues create trade-ingest");
    expect(lines[4]).toBe("wrangler queues create trade-ingest-dlq");
    expect(lines[5]).toBe("wrangler d1 list --json");
    expect(lines[6]).toBe(`wrangler d1 create ${D1_NAME}`);
    expect(lines[7]).toMatch(/^wrangler d1 migrations apply DB --remote --config \S+migrations\.toml$/);
    expect(lines[8]).toMatch(/^wrangler deploy --secrets-file \S+\.json$/);
    expect(lines).toHaveLength(9);
    expect(out.match(/\(if missing\)/g)).toHaveLength(3);
    expect(out).toContain("UPSTREAM_RPC_URL, UPSTREAM_WS_URL");
    expect(out).not.toContain("SECRET-VALUE-123");
    expect(out).not.toContain("SECRET-WS-456");
  }, 90_000);

  it("without a provider URL: checks the worker already has UPSTREAM_RPC_URL as a secret, then deploys", async () => {
    const lines = commands(await dryRun({ UPSTREAM_RPC_URL: undefined, UPSTREAM_WS_URL: undefined }));
    expect(lines.slice(-2)).toEqual(["wrangler secret list --format json", "wrangler deploy"]);
  }, 90_000);
});

describe("the deploy plan's pieces", () => {
  it("creates exactly the queues wrangler.toml binds", () => {
    const named = new Set([...toml.matchAll(/^\s*(?:queue|dead_letter_queue)\s*=\s*"([^"]+)"/gm)].map((m) => m[1]));
    expect([...named].sort()).toEqual([...QUEUES].sort());
    const created = deployPlan({ secretsGiven: [], migrationsConfigPath: "m", secretsFilePath: "s" }).filter((s) => s.argv[2] === "create" && s.argv[1] === "queues");
    expect(created.map((s) => s.argv[3]).sort()).toEqual([...QUEUES].sort());
  });

  it("wrangler.toml: no placeholder ids (wrangler provisions KV and D1), no provider URL in [vars], the D1 name the plan uses", () => {
    expect(toml).not.toMatch(/^\s*(?:id|database_id|preview_id)\s*=/m);
    expect(toml).not.toMatch(/^\s*UPSTREAM_(?:RPC|WS)_URL\s*=/m);
    expect(toml).toMatch(new RegExp(`^database_name = "${D1_NAME}"$`, "m"));
  });

  it("reads wrangler's answers: queues listed, the database's id listed or just created", () => {
    const table = "┌───┬───┐\n│ id │ name │\n│ 1a │ trade-ingest │\n└───┴───┘";
    expect([...queuesIn(table)]).toEqual(["trade-ingest"]);
    expect(queuesIn("│ x │ trade-ingest-dlq-old │").size).toBe(0);
    const id = "0b6f6d2e-3c1a-4a8e-9a51-2f9c1d3e4b5a";
    expect(d1IdIn(`[{"uuid":"${id}","name":"${D1_NAME}"},{"uuid":"x","name":"other"}]`)).toBe(id);
    expect(d1IdIn(`[{"uuid":"x","name":"other"}]`)).toBeUndefined();
    expect(createdD1Id(`[[d1_databases]]\nbinding = "DB"\ndatabase_name = "${D1_NAME}"\ndatabase_id = "${id}"`)).toBe(id);
    expect(createdD1Id(`{ "d1_databases": [ { "binding": "DB", "database_name": "${D1_NAME}", "database_id": "${id}" } ] }`)).toBe(id);
  });

  it("the generated migrations config names the database's id and the project's migrations; a bad id is refused", () => {
    const text = migrationsConfig("0b6f6d2e-3c1a-4a8e-9a51-2f9c1d3e4b5a", "/p/migrations");
    expect(text).toContain('database_id = "0b6f6d2e-3c1a-4a8e-9a51-2f9c1d3e4b5a"');
    expect(text).toContain('migrations_dir = "/p/migrations"');
    expect(text).toContain('binding = "DB"');
    expect(() => migrationsConfig('x"\n[evil]', "/p")).toThrow(/not a D1 database id/);
  });
});
