/** `npm start` (scripts/start.ts) run as a user runs it, in its own process group, for the e2e tests that need it. */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

export interface RunningNpmStart {
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  readonly output: string;
  /** Stops it and every process it started, and waits (≤ 20 s) until it has exited: its exit handler removes its vars file under .wrangler/. */
  stop(): Promise<void>;
}

/** Starts `npm start` with `env` and waits until it prints `readyText`; throws with its output if it exits or takes longer than `timeoutMs`. */
export async function startNpmStart(env: NodeJS.ProcessEnv, readyText: string, timeoutMs: number): Promise<RunningNpmStart> {
  let output = "";
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const running: RunningNpmStart = {
    child,
    get output() {
      return output;
    },
    async stop() {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // gone
      }
      if (child.exitCode === null) await new Promise((r) => { child.once("exit", r); setTimeout(r, 20_000); });
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!output.includes(readyText)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await running.stop();
      throw new Error(`npm start did not come up:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return running;
}
