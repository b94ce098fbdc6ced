/**
 * Off-chain metadata served by the world: every token URI resolves under `/meta/<mint>.json`, in the shapes real token
 * JSON uses, with a PNG at the image path, and the tagged broken documents behave as tagged.
 */
import { TextDecoder } from "node:util";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { WorldManifest } from "../../../localnet/src/world/manifest.js";
import { createWorld } from "../../../localnet/src/world/index.js";
import { GZIP_BOMB_DECODED_BYTES } from "../../../localnet/src/world/metadata-http.js";

const BASE = "http://127.0.0.1:8899";
let world: ReturnType<typeof createWorld>;
let manifest: WorldManifest;

beforeAll(() => {
  world = createWorld({ seed: 11, metadataBaseUrl: BASE });
  manifest = world.manifest();
});

const bodyBytes = (b: Uint8Array | string) => (typeof b === "string" ? Buffer.from(b, "utf8") : Buffer.from(b));
const pathOf = (uri: string) => new URL(uri).pathname;

describe("metadata http", () => {
  it("serves JSON with name, symbol, image, description and socials for every healthy token", () => {
    const shapes = new Set<string>();
    for (const t of manifest.tokens) {
      expect(t.metadataUri).toBe(`${BASE}/meta/${t.mint}.json`);
      if (t.tags.some((x) => x.startsWith("broken-metadata:"))) continue;
      const reply = world.http(pathOf(t.metadataUri!))!;
      expect(reply.status).toBe(200);
      expect(reply.headers["content-type"]).toContain("application/json");
      const json = JSON.parse(bodyBytes(reply.body).toString("utf8")) as Record<string, unknown>;
      expect(json.name).toBe(t.name);
      expect(json.symbol).toBe(t.symbol);
      expect(typeof json.description).toBe("string");
      expect(json.image).toBe(`${BASE}/meta/${t.mint}.png`);
      if (json.extensions) shapes.add("extensions");
      else if ((json.properties as Record<string, unknown> | undefined)?.links) shapes.add("properties.links");
      else if (json.links) shapes.add("links");
      else shapes.add("top-level");
      const img = world.http(pathOf(json.image as string))!;
      expect(img.status).toBe(200);
      expect(img.headers["content-type"]).toBe("image/png");
      expect(bodyBytes(img.body).subarray(1, 4).toString()).toBe("PNG");
    }
    expect(shapes).toEqual(new Set(["extensions", "properties.links", "links", "top-level"]));
  });

  it("breaks the tagged documents the way their tag says", () => {
    const reply = (tag: string) => {
      const t = manifest.tokens.find((x) => x.tags.includes(`broken-metadata:${tag}`))!;
      return world.http(pathOf(t.metadataUri!))!;
    };
    expect(reply("404").status).toBe(404);
    const slow = reply("slow");
    expect(slow.delayMs).toBe(10_000);
    expect(() => JSON.parse(bodyBytes(slow.body).toString())).not.toThrow();
    const big = reply("oversized");
    expect(bodyBytes(big.body).length).toBeGreaterThan(1024 * 1024);
    expect(() => JSON.parse(bodyBytes(reply("not-json").body).toString())).toThrow();
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bodyBytes(reply("bad-utf8").body))).toThrow();
  });

  it("serves a gzip bomb at /meta/gzip-bomb.json: a small gzip body that inflates to 16 MiB of JSON", () => {
    const reply = world.http("/meta/gzip-bomb.json")!;
    expect(reply.status).toBe(200);
    expect(reply.headers["content-encoding"]).toBe("gzip");
    const wire = bodyBytes(reply.body);
    expect(wire.length).toBeLessThan(64 * 1024);
    const inflated = gunzipSync(wire);
    expect(inflated.length).toBe(GZIP_BOMB_DECODED_BYTES);
    expect(JSON.parse(inflated.toString("utf8"))).toMatchObject({ name: "Bomb" });
  });

  it("leaves other paths to the chain and 404s unknown metadata", () => {
    expect(world.http("/health")).toBeUndefined();
    expect(world.http("/meta/11111111111111111111111111111111.json")!.status).toBe(404);
    expect(world.http("/meta/nope")!.status).toBe(404);
  });
});
