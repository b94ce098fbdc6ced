/**
 * wrangler.toml is what `wrangler deploy` ships: its [vars] must not open the metadata fetch to plain-http hosts
 * (METADATA_DEV_HOSTS bypasses every address rule for the hosts it names). Local runs set it themselves.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { checkMetadataUri } from "../../../src/metadata/uri-policy";
import { configOf } from "../../../src/config";

const root = path.resolve(import.meta.dirname, "../../..");

/** The string [vars] of wrangler.toml (flat `NAME = "value"` lines, which is all that section holds). */
function deployedVars(): Record<string, string> {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const section = /^\[vars\]\n([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? "";
  return Object.fromEntries([...section.matchAll(/^([A-Z_][A-Z0-9_]*)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1]!, m[2]!]));
}

describe("deployed configuration (wrangler.toml [vars])", () => {
  it("names no metadata dev host", () => {
    const vars = deployedVars();
    expect(vars).toHaveProperty("METADATA_DEV_HOSTS");
    expect(vars.METADATA_DEV_HOSTS).toBe("");
  });

  it("so the deployed policy refuses the local chain's metadata over plain http", () => {
    // The provider URL is a secret of the deployment (npm run deploy), not a var: a provider's stands in for it.
    const policy = configOf({ UPSTREAM_RPC_URL: "https://rpc.provider.example", ...deployedVars() }).metadataPolicy;
    expect(policy.allowedDevHosts).toEqual([]);
    expect(checkMetadataUri("http://127.0.0.1:8899/meta/x.json", policy)).toEqual({ ok: false, reason: "plain_http" });
  });

  it("the local runs that need a dev host set it themselves", () => {
    const read = (file: string) => readFileSync(path.join(root, file), "utf8");
    expect(read("vitest.config.mts")).toMatch(/METADATA_DEV_HOSTS: inject\("localnetHost"\)/);
    expect(read("scripts/start.ts")).toMatch(/METADATA_DEV_HOSTS: devHosts/);
    expect(read("bench/run.sh")).toMatch(/METADATA_DEV_HOSTS=127\.0\.0\.1:\$ln/);
    expect(read("bench/serve-worker.mjs")).toMatch(/METADATA_DEV_HOSTS: process\.env\.METADATA_DEV_HOSTS/);
  });
});
