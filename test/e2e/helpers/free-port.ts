import { createServer } from "node:net";

/** A TCP port free on 127.0.0.1 right now (the OS picks it), for a child process to listen on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** A free port whose next one is free too: `npm start` takes PORT and PORT+1 (its WebSocket forwarder for web3.js). */
export async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port >= 65535) continue;
    const nextFree = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port + 1, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (nextFree) return port;
  }
}
