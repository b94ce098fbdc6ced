import { SELF } from "cloudflare:test";

export const base = "https://api.test";

export async function get(path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`${base}${path}`, init);
}

export async function getJson<T = unknown>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await get(path, init);
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}
