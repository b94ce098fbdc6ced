/** Waiting in tests, for every runtime (Node and workerd): a pause, and a poll until something shows up. */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` every `pollMs` until it returns something other than undefined, and returns that; throws
 * "timed out waiting for <what>" after `timeoutMs`. A boolean condition reads `until(what, () => done() || undefined)`.
 */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000, pollMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(pollMs);
  }
}
