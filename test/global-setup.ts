// Runs in Node: one localnet (manual slots) per vitest process of the worker project — each lane of scripts/test.sh has
// its own; its files run one after another and advance slots over its admin endpoint.
import type { TestProject } from "vitest/node";
import { fixturePath } from "./helpers/fixtures";
import { startLocalnet } from "../localnet/src/server";

/**
 * Real mainnet accounts loaded over the world (test/fixtures): the DAMM v1 mSOL/SOL stable pool
 * HcjZvfeS with its vaults — one of them the wSOL vault the world shares, which the world adopts (localnet README).
 */
export const MAINNET_ACCOUNT_DIRS = [fixturePath("accounts/meteora-damm-v1")];

declare module "vitest" {
  export interface ProvidedContext {
    localnetUrl: string;
    localnetWsUrl: string;
    localnetHost: string;
  }
}

export default async function setup(project: TestProject) {
  // The extras edition: Raydium LaunchLab and Orca Whirlpool pools, pools quoted in JitoSOL / USD1 / a memecoin, quiet
  // non-derivable pools, pools that open later and multi-signer swaps (localnet/src/world/world-extras.ts).
  const net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 7, accountsDirs: MAINNET_ACCOUNT_DIRS, extras: true });
  // Slot 0 is genesis, where fixture accounts may still stand over the world's (the world re-asserts its own on the
  // first slot): every suite starts from slot 1, whichever file happens to run first.
  await net.advance(1);
  project.provide("localnetUrl", net.rpcUrl);
  project.provide("localnetWsUrl", net.wsUrl);
  project.provide("localnetHost", new URL(net.rpcUrl).host);
  return async () => {
    await net.close();
  };
}
