/**
 * An outgoing WebSocket to the upstream's PubSub, for the Durable Objects that keep one (the PubSub hub, the chain tail's
 * slot wake-up). Kept apart from their classes so both open it the same way.
 */
import { limits } from "../limits";

/**
 * Opens a WebSocket to the first upstream that accepts one, each within `pubSubConnectTimeoutMs`.
 * The time limit covers the handshake only: an abort signal given to `fetch` stays tied to the socket it returns, so
 * `AbortSignal.timeout` there ended every upstream socket `pubSubConnectTimeoutMs` after it opened — the hub then
 * reconnected and subscribed again, and the node's notifications of the gap (an account subscription restarts from
 * the account's state at the new subscribe) never came: ~1 lost every 17 slots at 300 ms. The timer is cleared once
 * the upgrade is answered, so the signal never fires on an open socket.
 */
export async function openUpstreamSocket(urls: readonly string[]): Promise<WebSocket> {
  for (const url of urls) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("upstream PubSub handshake timed out")), limits.pubSubConnectTimeoutMs);
    try {
      const response = await fetch(url, { headers: { upgrade: "websocket" }, signal: controller.signal });
      clearTimeout(timer);
      if (response.webSocket) {
        response.webSocket.accept();
        return response.webSocket;
      }
      await response.body?.cancel();
    } catch {
      // refused, reset or timed out: the next upstream
    } finally {
      clearTimeout(timer);
    }
  }
  throw new Error("no upstream PubSub socket opened");
}
