/**
 * A transparent WebSocket hop between the worker and localnet's PubSub, so tests can see the upstream side of the
 * PubSub hub (how many upstream sockets it opens, which frames reach the node) and make it fail (drop every upstream
 * socket, refuse new ones).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket, { WebSocketServer } from "ws";

export interface PubSubTap {
  /** `ws://127.0.0.1:<port>` */
  url: string;
  /** Upstream sockets open now. */
  readonly open: number;
  /** Upstream sockets accepted so far. */
  readonly accepted: number;
  /** Every frame the worker sent upstream, in order. */
  readonly framesUp: string[];
  /** Answer the next upgrades with HTTP 503 (a node that is down). */
  refuseUpgrades: boolean;
  /** Closes every upstream socket, as a node restarting would. */
  dropAll(): void;
  close(): Promise<void>;
}

export async function startPubSubTap(targetUrl: string): Promise<PubSubTap> {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  const tap = {
    url: "",
    accepted: 0,
    framesUp: [] as string[],
    refuseUpgrades: false,
    get open() {
      return sockets.size;
    },
    dropAll() {
      for (const socket of sockets) socket.close(1001, "going away");
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      wss.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  server.on("upgrade", (req, socket, head) => {
    if (tap.refuseUpgrades) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      tap.accepted++;
      sockets.add(client);
      const node = new WebSocket(targetUrl);
      const held: string[] = [];
      node.on("open", () => held.splice(0).forEach((text) => node.send(text)));
      node.on("message", (data) => client.send(String(data)));
      node.on("close", () => client.close());
      // Closing a node socket that is still connecting emits an error: expected here, never an unhandled one.
      node.on("error", () => client.close());
      client.on("message", (data) => {
        const text = String(data);
        tap.framesUp.push(text);
        if (node.readyState === WebSocket.OPEN) node.send(text);
        else held.push(text);
      });
      client.on("close", () => {
        sockets.delete(client);
        if (node.readyState === WebSocket.CONNECTING) node.terminate();
        else node.close();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tap.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return tap;
}
