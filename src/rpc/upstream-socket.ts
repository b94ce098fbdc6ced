/**
 * An outgoing WebSocket to the upstream's PubSub, for the Durable Objects that keep one (the PubSub hub, the chain tail's
 * slot wake-up). Kept apart from their classes so both open it the same way.
 */
import { limits } from "../limits";

/** Opens a WebSocket to the first upstream that accepts one, each within `pubSubConnectTimeoutMs`. */
export async function openUpstreamSocket(urls: readonly string[]): Promise<WebSocket> {
  for (const url of urls) {
    try {
      const response = await fetch(url, { headers: { upgrade: "websocket" }, signal: AbortSignal.timeout(limits.pubSubConnectTimeoutMs) });
      if (response.webSocket) {
        response.webSocket.accept();
        return response.webSocket;
      }
      await response.body?.cancel();
    } catch {
      // refused, reset or timed out: the next upstream
    }
  }
  throw new Error("no upstream PubSub socket opened");
}
