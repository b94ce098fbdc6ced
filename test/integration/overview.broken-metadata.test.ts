/**
 * Localnet's deliberately broken metadata URIs (tagged `broken-metadata:<kind>` in the manifest: 404, slow, oversized,
 * not JSON, invalid UTF-8): the overview still answers, with the on-chain identity intact and empty off-chain fields.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

import { tokenOverviewSchema, type TokenOverview } from "../../src/overview/overview-schema";
import type { WorldManifest } from "../../localnet/src/world/manifest";
import { getJson } from "../helpers/http";
import { newApiKey } from "../helpers/keys";

const KINDS = ["404", "slow", "oversized", "not-json", "bad-utf8"];

let key = "";
let manifest: WorldManifest;
beforeAll(async () => {
  key = await newApiKey();
  manifest = (await (await fetch(`${env.LOCALNET_URL}/__localnet/world`)).json()) as WorldManifest;
});

describe("broken off-chain metadata leaves image, description and socials empty", () => {
  it.each(KINDS)("broken-metadata:%s", async (kind) => {
    const token = manifest.tokens.find((t) => t.tags.includes(`broken-metadata:${kind}`));
    expect(token, `a world token tagged broken-metadata:${kind}`).toBeDefined();
    // The URI really is broken the way the tag says (a quick look, bounded so "slow" does not stall the test).
    const direct = await fetch(token!.metadataUri!, { signal: AbortSignal.timeout(500) }).then(
      async (r) => ({ status: r.status, size: (await r.arrayBuffer()).byteLength }),
      () => ({ status: 0, size: 0 }),
    );
    if (kind === "404") expect(direct.status).toBe(404);
    if (kind === "slow") expect(direct.status).toBe(0);
    if (kind === "oversized") expect(direct.size).toBeGreaterThan(64 * 1024);

    const started = Date.now();
    const res = await getJson<TokenOverview>(`/api/v1/overview?ca=${token!.mint}`, { headers: { "x-api-key": key } });
    const elapsed = Date.now() - started;

    expect(res.status).toBe(200);
    expect(tokenOverviewSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ ca: token!.mint, name: token!.name, symbol: token!.symbol, image: null, description: null, socials: {} });
    // The fetch deadline is 3 s for the whole exchange; the overview around it must not add much.
    expect(elapsed).toBeLessThan(kind === "slow" ? 3500 : 2000);
  });
});
