/** Starts a localnet over the tiny world (manual slots, random ports) and sends raw JSON-RPC for protocol-level tests. */
import { startLocalnet, type Localnet, type LocalnetOptions } from "../../../localnet/src/server.js";
import { createTinyWorld, type TinyWorld } from "./tiny-world.js";

export interface TinyChain {
  net: Localnet;
  world: TinyWorld;
}

export async function startTinyChain(options: LocalnetOptions & { transfersPerSlot?: number } = {}): Promise<TinyChain> {
  const { transfersPerSlot, ...rest } = options;
  const world = createTinyWorld(transfersPerSlot);
  const net = await startLocalnet({ port: 0, wsPort: 0, slotMs: 0, seed: 11, world, ...rest });
  return { net, world };
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** POSTs `body` as is (a string is sent verbatim, anything else as JSON). */
export async function postRpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** One JSON-RPC call; resolves to the whole response envelope. */
export async function call(url: string, method: string, params?: unknown): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }> {
  const reply = await postRpc(url, params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params });
  return reply.json as { result?: unknown; error?: { code: number; message: string } };
}
