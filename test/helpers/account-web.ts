import { env } from "cloudflare:workers";
import { base } from "./http";
import { callWorker } from "./worker";

/**
 * The account pages driven as a browser would: urlencoded forms from our own origin, redirects not followed (the
 * tests assert them), the session cookie carried by hand. Through the worker's own fetch (helpers/worker.ts): SELF
 * slows down with every call, and the throttle tests send a thousand.
 */
export interface PageCall {
  /** `name=value` cookie pairs to send. */
  cookie?: string;
  /** Origin header; `null` sends none. Default: our own origin. */
  origin?: string | null;
  headers?: Record<string, string>;
  /** CF-Connecting-IP (the throttles' client address). */
  ip?: string;
}

export async function postForm(path: string, fields: Record<string, string>, call: PageCall = {}): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", ...call.headers };
  if (call.origin !== null) headers.origin = call.origin ?? base;
  if (call.cookie) headers.cookie = call.cookie;
  if (call.ip) headers["cf-connecting-ip"] = call.ip;
  return callWorker({ request: new Request(`${base}${path}`, { method: "POST", headers, body: new URLSearchParams(fields).toString(), redirect: "manual" }) });
}

export async function getPage(path: string, call: PageCall = {}): Promise<Response> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.cookie) headers.cookie = call.cookie;
  return callWorker({ request: new Request(`${base}${path}`, { headers, redirect: "manual" }) });
}

/** The `name=value` pairs a response sets (expired ones, i.e. deletions, left out), ready for a Cookie header. */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .filter((c) => !/max-age=0\b/i.test(c))
    .map((c) => c.split(";")[0]!)
    .join("; ");
}

/** Signs up a fresh account; returns its session cookie and id. */
export async function signUp(email: string, password = "correct horse battery", call: PageCall & { ref?: string } = {}): Promise<{ cookie: string; accountId: string }> {
  const fields: Record<string, string> = { email, password };
  if (call.ref) fields.ref = call.ref;
  const res = await postForm("/signup", fields, call);
  if (res.status !== 303) throw new Error(`sign-up of ${email} answered ${res.status}: ${await res.text()}`);
  const accountId = await env.DB.prepare("SELECT id FROM accounts WHERE email = ?1").bind(email.trim().toLowerCase()).first<string>("id");
  return { cookie: cookiesOf(res), accountId: accountId! };
}

/** Every value of every row of a D1 table, as text (for "the secret appears nowhere" checks). */
export async function rawRows(table: string): Promise<string> {
  const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all();
  return JSON.stringify(results);
}

/** Every KV key and value, as text. */
export async function rawKv(): Promise<string> {
  const listed = await env.API_KEYS.list();
  const values = await Promise.all(listed.keys.map((k) => env.API_KEYS.get(k.name)));
  return JSON.stringify({ keys: listed.keys.map((k) => k.name), values });
}
