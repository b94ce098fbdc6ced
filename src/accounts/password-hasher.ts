/**
 * The PBKDF2 work of sign-up and login, in a Durable Object. One hash at the 100,000 iterations production allows costs
 * ~13–15 ms of CPU (measured in workerd here), more than the 10 ms a Workers Free request may spend; a Durable Object
 * request has its own CPU budget (30 s by default), so the page request that asks stays within its own. Objects are
 * sharded by the email's hash (`limits.accountWeb.passwordHasherShards`): attempts on one email queue behind each other,
 * different emails hash side by side (password-hasher-shard.ts). Stateless: nothing is stored, the password only passes through.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../env";
import { hashPassword, spendPasswordCheck, verifyPassword, type PasswordHash } from "./password-hash";

export class PasswordHasher extends DurableObject<Env> {
  async hash(password: string): Promise<PasswordHash> {
    return hashPassword(password);
  }

  async verify(password: string, stored: PasswordHash): Promise<boolean> {
    return verifyPassword(password, stored);
  }

  /** The same work for an email with no account (the answer's timing does not tell them apart). */
  async spend(password: string): Promise<false> {
    return spendPasswordCheck(password);
  }
}
