/**
 * Waits until `url` (the worker's /health) answers with this run's nonce. An answer without it is another server on the
 * port (an earlier npm start, anything else): refused at once, never taken for ours. No answer yet: retried until
 * `timeoutMs`, unless `exited()` says the worker process is gone.
 */
export async function waitForOwnHealth(opts: { url: string; nonce: string; timeoutMs: number; exited?: () => string | undefined; pollMs?: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (Date.now() < deadline) {
    const gone = opts.exited?.();
    if (gone) throw new Error(gone);
    let body: { status?: unknown; instance?: unknown } | undefined;
    try {
      const res = await fetch(opts.url, { signal: AbortSignal.timeout(5000) });
      const text = await res.text();
      body = res.ok ? (JSON.parse(text) as typeof body) : undefined;
    } catch {
      body = undefined; // not listening yet, or wrangler's own page while the worker loads
    }
    if (body?.status === "ok") {
      // Our worker always echoes the nonce: an "ok" without it is another server on the port.
      if (body.instance === opts.nonce) return;
      throw new Error(`${opts.url} is answered by another server, not the worker this run started: refusing to go on (stop it, or choose another PORT)`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 250));
  }
  throw new Error(`worker did not answer ${opts.url} within ${opts.timeoutMs / 1000}s`);
}
