import { z } from "zod/mini";
import { limits } from "../limits";

/**
 * The account forms' fields (application/x-www-form-urlencoded), each checked here once: the routes read typed values,
 * the OpenAPI document shows the same schemas. Messages are what the re-rendered form says.
 */
const { maxEmailChars, minPasswordChars, maxPasswordChars, maxKeyNameChars } = limits.accountWeb;

/** Trimmed and lower-cased: one account per mailbox whatever the case typed. One @, a dot in the domain, no spaces or angle brackets. */
export const emailField = z.pipe(
  z.string({ error: "Enter your email address" }),
  z.pipe(
    z.transform((raw: string) => raw.trim().toLowerCase()),
    z.string().check(
      z.minLength(1, "Enter your email address"),
      z.maxLength(maxEmailChars, `Email addresses are at most ${maxEmailChars} characters`),
      z.regex(/^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/, "That is not an email address"),
    ),
  ),
);

export const passwordField = z.string({ error: "Enter a password" }).check(
  z.minLength(minPasswordChars, `Passwords are at least ${minPasswordChars} characters`),
  z.maxLength(maxPasswordChars, `Passwords are at most ${maxPasswordChars} characters`),
);

export const signupForm = z.object({
  email: emailField,
  password: passwordField,
  /** The referral code of the link the visitor came from (a hidden field); an unknown one is ignored (docs/accounts.md). */
  ref: z.optional(z.string()),
});
export type SignupForm = z.infer<typeof signupForm>;

/** Login reads the password without the sign-up rules: a wrong one is just wrong, however long. */
export const loginForm = z.object({
  email: emailField,
  password: z.string({ error: "Enter your password" }).check(z.minLength(1, "Enter your password"), z.maxLength(maxPasswordChars, "Wrong email or password")),
});
export type LoginForm = z.infer<typeof loginForm>;

export const keyNameField = z.pipe(
  z.string({ error: "Give the key a name" }),
  z.pipe(
    z.transform((raw: string) => raw.trim()),
    z.string().check(z.minLength(1, "Give the key a name"), z.maxLength(maxKeyNameChars, `Key names are at most ${maxKeyNameChars} characters`)),
  ),
);

export const createKeyForm = z.object({ name: keyNameField });
const keyIdField = z.string().check(z.regex(/^key_[0-9a-f]{16}$/, "Unknown key"));
/** The confirmation page's query (GET /dashboard/keys/revoke?keyId=…). */
export const revokeKeyQuery = z.object({ keyId: keyIdField });
/** The revoke itself: only with `confirm=yes`, which the confirmation page's button sends (a bare keyId shows that page). */
export const revokeKeyForm = z.object({ keyId: keyIdField, confirm: z.optional(z.literal("yes")) });

/** The first message of a failed parse: what the form shows. */
export function firstMessage(error: z.core.$ZodError): string {
  return error.issues[0]?.message ?? "Invalid input";
}
