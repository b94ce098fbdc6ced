import type { Env } from "../env";
import { limits } from "../limits";
import { sha256Hex } from "./secret-tokens";

/**
 * The PasswordHasher object (password-hasher.ts) that serves `email` (normalised), by the email's hash over
 * `limits.accountWeb.passwordHasherShards`. Apart from the class so routes reach it without importing the Durable
 * Object runtime (`cloudflare:workers`).
 */
export function passwordHasherFor(env: Env, email: string) {
  const shard = Number.parseInt(sha256Hex(email).slice(0, 8), 16) % limits.accountWeb.passwordHasherShards;
  return env.PASSWORD_HASHER.get(env.PASSWORD_HASHER.idFromName(`password-hasher-${shard}`));
}
