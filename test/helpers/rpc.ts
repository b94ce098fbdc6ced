import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { callWorker, rpcUrl } from "./worker";

/** What a JSON-RPC POST came back with: status, exact body text, parsed body (undefined when empty), headers. */
export interface RpcReply {
  status: number;
  text: string;
  json: unknown;
  headers: Headers;
}

async function reply(res: Response): Promise<RpcReply> {
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

export { rpcUrl } from "./worker";

/**
 * The localnet's URL under a name no other test uses: the worker keys its upstream breakers and caches by URL, so a
 * test that trips or fills them on this one leaves the others' alone.
 */
export function freshUpstream(): string {
  return `${env.LOCALNET_URL}/?case=${crypto.randomUUID()}`;
}

/** A JSON-RPC request object. */
export function rpcRequest(method: string, params?: unknown[], id: unknown = 1): Record<string, unknown> {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

/** POSTs a body (object → JSON; string → as is) to the worker's /rpc through SELF. */
export async function postRpc(key: string, body: unknown, init: { headers?: Record<string, string>; requestId?: string } = {}): Promise<RpcReply> {
  const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
  if (init.requestId) headers["x-request-id"] = init.requestId;
  return reply(await SELF.fetch(rpcUrl(key), { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }));
}

/**
 * Calls the worker's fetch directly with env overrides (e.g. another UPSTREAM_RPC_URL), and waits for its
 * waitUntil work (cache writes) before returning.
 */
export async function postRpcWithEnv(overrides: Record<string, string>, key: string, body: unknown, requestId?: string): Promise<RpcReply> {
  const headers: Record<string, string> = requestId ? { "x-request-id": requestId } : {};
  return reply(await callWorker({ rpcBody: body }, { key, headers, env: overrides }));
}

/** The same body sent straight to localnet: what a healthy node answers. */
export async function postDirect(body: unknown, url: string = env.LOCALNET_URL): Promise<RpcReply> {
  return reply(await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) }));
}

/** Arms a localnet fault for the next `count` requests carrying one of `methods`. */
export async function armFault(mode: "500" | "429" | "html" | "truncated" | "wrong-id" | "timeout" | "garbage", count: number, methods: string[]): Promise<void> {
  const res = await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "POST", body: JSON.stringify({ mode, count, methods }) });
  if (!res.ok) throw new Error(`arming fault failed: ${await res.text()}`);
}

/** Clears every armed localnet fault. */
export async function clearFaults(): Promise<void> {
  await fetch(`${env.LOCALNET_URL}/__localnet/faults`, { method: "DELETE" });
}

/**
 * Sends `body` through the worker and straight to localnet and returns both. Other test files may advance the
 * chain in between, so a mismatch is retried twice before the caller's assertion sees it.
 */
export async function viaWorkerAndNode(key: string, body: unknown): Promise<{ worker: RpcReply; node: RpcReply }> {
  let last: { worker: RpcReply; node: RpcReply } | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const worker = await postRpc(key, body);
    const node = await postDirect(body);
    last = { worker, node };
    if (JSON.stringify(worker.json) === JSON.stringify(node.json)) break;
  }
  return last!;
}
