import { createServer } from "node:net";

export interface NeededPort {
  port: number;
  /** What npm start puts there, for the refusal message. */
  what: string;
}

/** Whether 127.0.0.1:port can be listened on right now (a server on 0.0.0.0 or 127.0.0.1 holding it says no). */
export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * Every port npm start needs, checked before it starts anything: `undefined` when all are free and distinct, else
 * the message to refuse with (each busy port, what it was for, and how to choose others).
 */
export async function portProblems(needed: NeededPort[]): Promise<string | undefined> {
  const problems: string[] = [];
  const seen = new Map<number, string>();
  for (const { port, what } of needed) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`  ${what}: ${port} is not a TCP port`);
      continue;
    }
    const other = seen.get(port);
    if (other) problems.push(`  ${what}: port ${port} is also the ${other}`);
    seen.set(port, what);
  }
  for (const { port, what } of needed) {
    if (Number.isInteger(port) && port >= 1 && port <= 65535 && !(await portIsFree(port))) problems.push(`  ${what}: port ${port} is in use (another npm start, or another server)`);
  }
  if (problems.length === 0) return undefined;
  return [
    "npm start needs these ports and cannot have them; nothing was started:",
    ...problems,
    "Stop what holds them, or choose others: PORT (the API; PORT+1 takes the WebSocket forwarder), LOCALNET_PORT, LOCALNET_WS_PORT.",
  ].join("\n");
}
