import { createServer, type Server } from "node:http";
import { connect } from "node:net";

/**
 * web3.js's `Connection` derives its WebSocket endpoint from the HTTP one by adding 1 to the port when the URL names a
 * port (the habit of `solana-test-validator`: RPC on 8899, PubSub on 8900). So `new Connection("http://127.0.0.1:8787/rpc?…")`
 * subscribes on ws://127.0.0.1:8788/rpc?…. This server answers there: each WebSocket upgrade is forwarded byte for
 * byte to the worker's port, path and query (the API key) untouched. Plain HTTP requests are told where the API is.
 */
export function startWsForwarder(opts: { listenPort: number; targetPort: number; host?: string }): Promise<Server> {
  const host = opts.host ?? "127.0.0.1";
  const server = createServer((_req, res) => {
    res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
    res.end(`This port only forwards WebSocket upgrades (web3.js subscriptions). The HTTP API is on http://${host}:${opts.targetPort}\n`);
  });
  server.on("upgrade", (req, client, head) => {
    const upstream = connect(opts.targetPort, host);
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      // The worker sees its own address, as a client of that port would send.
      lines.push(name.toLowerCase() === "host" ? `${name}: ${host}:${opts.targetPort}` : `${name}: ${req.rawHeaders[i + 1]}`);
    }
    upstream.once("connect", () => {
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on("error", () => {
      if (!client.destroyed && upstream.bytesRead === 0) client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nThe worker is not answering yet\n");
      else end();
    });
    client.on("error", end);
    upstream.on("close", end);
    client.on("close", end);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.listenPort, host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
