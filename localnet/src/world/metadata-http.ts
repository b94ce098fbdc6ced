/**
 * Off-chain token metadata served under `/meta/…` on the RPC port: JSON in the shapes real token JSON uses (pump-style
 * top-level socials, token-list `extensions`, Metaplex `properties`, a `links` object), a tiny PNG for every image, and
 * the deliberately broken documents the metadata fetcher must survive (404, slow, oversized, not JSON, invalid UTF-8),
 * plus `/meta/gzip-bomb.json`, a compression bomb that belongs to no token (a hostile URI for direct tests).
 */
import { gzipSync } from "node:zlib";
import type { HttpReply, Pubkey } from "../chain/types.js";

export type MetaShape = "top-level" | "extensions" | "properties" | "links";
export type BrokenKind = "404" | "slow" | "oversized" | "not-json" | "bad-utf8";

export interface OffchainMeta {
  mint: Pubkey;
  name: string;
  symbol: string;
  description: string;
  shape: MetaShape;
  broken: BrokenKind | null;
  socials: { twitter?: string; website?: string; telegram?: string };
  createdOn?: string;
}

/** 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Decoded size of `/meta/gzip-bomb.json`: 16 MiB of JSON in a gzip body of about 16 KiB. */
export const GZIP_BOMB_DECODED_BYTES = 16 * 1024 * 1024;
let gzipBomb: Uint8Array | undefined;
function gzipBombReply(): HttpReply {
  const prefix = '{"name":"Bomb","description":"';
  gzipBomb ??= new Uint8Array(gzipSync(`${prefix}${" ".repeat(GZIP_BOMB_DECODED_BYTES - prefix.length - 2)}"}`, { level: 9 }));
  return { status: 200, headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: gzipBomb };
}

export class MetadataServer {
  private readonly docs = new Map<Pubkey, OffchainMeta>();

  constructor(private readonly baseUrl: string) {}

  uriFor(mint: Pubkey): string {
    return `${this.baseUrl}/meta/${mint}.json`;
  }
  imageFor(mint: Pubkey): string {
    return `${this.baseUrl}/meta/${mint}.png`;
  }

  register(meta: OffchainMeta): void {
    this.docs.set(meta.mint, meta);
  }

  json(meta: OffchainMeta): Record<string, unknown> {
    const image = this.imageFor(meta.mint);
    const base: Record<string, unknown> = { name: meta.name, symbol: meta.symbol, description: meta.description, image };
    const s = meta.socials;
    switch (meta.shape) {
      case "top-level":
        return { ...base, showName: true, createdOn: meta.createdOn ?? "https://pump.fun", ...s };
      case "extensions":
        return { ...base, decimals: undefined, extensions: { ...s } };
      case "properties":
        return {
          ...base,
          seller_fee_basis_points: 0,
          properties: { files: [{ uri: image, type: "image/png" }], category: "image", links: { ...s } },
        };
      case "links":
        return { ...base, links: { ...s } };
    }
  }

  http(path: string): HttpReply | undefined {
    const m = /^\/meta\/([1-9A-HJ-NP-Za-km-z]{32,44})\.(json|png)$/.exec(path.split("?")[0] ?? "");
    if (!path.startsWith("/meta/")) return undefined;
    if (path === "/meta/gzip-bomb.json") return gzipBombReply();
    if (!m) return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
    const meta = this.docs.get(m[1]!);
    if (!meta) return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
    if (m[2] === "png") return { status: 200, headers: { "content-type": "image/png", "cache-control": "max-age=3600" }, body: new Uint8Array(PNG) };
    const json = { "content-type": "application/json" };
    switch (meta.broken) {
      case "404":
        return { status: 404, headers: { "content-type": "text/html" }, body: "<html><body><h1>404 Not Found</h1></body></html>" };
      case "slow":
        return { status: 200, headers: json, body: JSON.stringify(this.json(meta)), delayMs: 10_000 };
      case "oversized": {
        const doc = this.json(meta);
        doc.description = `${meta.description} ${"🚀 to the moon ".repeat(80_000)}`;
        return { status: 200, headers: json, body: JSON.stringify(doc) };
      }
      case "not-json":
        return {
          status: 200,
          headers: { "content-type": "text/html; charset=utf-8" },
          body: "<!DOCTYPE html><html><head><title>Gateway Timeout</title></head><body>ipfs gateway error</body></html>",
        };
      case "bad-utf8": {
        const text = JSON.stringify(this.json(meta));
        const bytes = Buffer.from(text, "utf8");
        // Replace the first letter of the name value with an invalid UTF-8 sequence (lone continuation byte + 0xFF).
        const at = bytes.indexOf(Buffer.from(`"name":"`)) + 8;
        const out = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), bytes.subarray(at)]);
        return { status: 200, headers: json, body: new Uint8Array(out) };
      }
      case null:
        return { status: 200, headers: json, body: JSON.stringify(this.json(meta)) };
    }
  }
}
