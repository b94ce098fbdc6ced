/**
 * The security tokens' admin routes (documented in localnet/README.md), answered by the world:
 *
 * - `GET /__localnet/security`: the security tokens (role, mint);
 * - `GET /__localnet/security?mint=`: what the world knows of one of them (security-tokens.ts `SecurityTruth`), 404 if
 *   it is not one;
 * - `POST /__localnet/security/launch`: the next produced slot launches a pump.fun coin that is bundled in its
 *   creation slot and sniped in the two after; it completes eight slots later. Answers `{queued}` at once.
 */
import type { SecurityTokens } from "./security-tokens.js";

export interface SecurityAdminReply {
  status: number;
  body: unknown;
}

const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The reply for a `/__localnet/security...` route, or undefined when the path is not one of them. */
export function securityAdmin(tokens: SecurityTokens, method: string, url: URL): SecurityAdminReply | undefined {
  const route = `${method} ${url.pathname}`;
  if (route === "GET /__localnet/security") {
    const mint = url.searchParams.get("mint");
    if (mint === null) return { status: 200, body: { tokens: tokens.list() } };
    if (!base58Address.test(mint)) return { status: 400, body: { error: "mint must be a base58 address" } };
    const truth = tokens.truth(mint);
    return truth ? { status: 200, body: truth } : { status: 404, body: { error: `${mint} is not a security token of the world` } };
  }
  if (route === "POST /__localnet/security/launch") {
    const request = tokens.requestLaunch();
    if (typeof request === "string") return { status: 409, body: { error: request } };
    // The outcome is read later from GET /__localnet/security; nobody awaits it here.
    request.done.catch(() => undefined);
    return { status: 200, body: { queued: request.queued } };
  }
  return undefined;
}
