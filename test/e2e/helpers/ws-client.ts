/**
 * A `ws` client that keeps every frame it receives (parsed when JSON, else the raw text) and can wait for one, for
 * tests that watch a socket over time (streams, PubSub through /rpc).
 */
import WebSocket from "ws";
import { sleep, until } from "../../helpers/wait";

export interface RecordingClient {
  ws: WebSocket;
  /** every frame received, in order (JSON parsed; a frame that is not JSON kept as `{ raw }`) */
  frames: any[];
  /** settles when the socket closes, with the close code and reason */
  closed: Promise<{ code: number; reason: string }>;
  send(value: unknown): void;
  /** the first frame (from `from` on) matching `match`, within `timeoutMs` */
  frame(what: string, match: (f: any) => boolean, timeoutMs?: number, from?: number): Promise<any>;
}


/** Opens `url` (with optional headers) and resolves once the socket is open. */
export async function openRecording(url: string, headers: Record<string, string> = {}): Promise<RecordingClient> {
  const ws = new WebSocket(url, { headers });
  const frames: any[] = [];
  ws.on("message", (data) => {
    const text = String(data);
    try {
      frames.push(JSON.parse(text));
    } catch {
      frames.push({ raw: text });
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.on("error", () => undefined);
  return {
    ws,
    frames,
    closed,
    send: (value) => ws.send(typeof value === "string" || Buffer.isBuffer(value) ? value : JSON.stringify(value)),
    frame: (what, match, timeoutMs = 10_000, from = 0) => until(what, () => frames.slice(from).find(match), timeoutMs),
  };
}

/** The HTTP answer (status, JSON body) to an upgrade the worker refused; rejects if the upgrade is accepted. */
export async function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => reject(new Error("upgrade accepted")));
    ws.on("error", () => undefined);
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
  });
}

/**
 * Ends a client's socket as cleanup: a close, and if the closing handshake has not finished within `waitMs`, a
 * terminate. workerd can end the TCP connection of a socket its room closed long after the close frames (seen after a
 * room woke from hibernation, docs/streams.md), and `ws` reports "closed" only then.
 */
export async function endClient(client: RecordingClient, waitMs = 2_000): Promise<void> {
  client.ws.close();
  const settled = await Promise.race([client.closed.then(() => true), sleep(waitMs).then(() => false)]);
  if (!settled) client.ws.terminate();
}
