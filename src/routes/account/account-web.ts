import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { z } from "zod/mini";
import type { AppContext } from "../../app-context";
import { createKeyForm, loginForm, revokeKeyForm, revokeKeyQuery, signupForm } from "../../accounts/account-input";
import { ApiError } from "../../errors/api-error";
import { limits } from "../../limits";
import { requireSameOrigin } from "../../middleware/same-origin";
import { stylesheetHashSource } from "../../pages/page-layout";
import { errorResponse, type Operation, type ResponseSpec } from "../openapi/operation";
import { dashboardRoutes } from "./dashboard-routes";
import { signInRoutes } from "./sign-in-routes";

/**
 * The account web app (sign-up, login, dashboard): server-rendered pages outside /api/*, behind a session cookie
 * instead of an API key. Every page answers with a CSP that allows no script and only its own stylesheet, no framing,
 * and `no-store` (the dashboard shows keys once; none of these pages belongs in a cache); every POST must come from our
 * own origin (middleware/same-origin.ts) and carry a form of at most `maxFormBodyBytes`.
 */
const pagePaths = ["/signup", "/login", "/logout", "/dashboard", "/dashboard/*"];

export const accountWebRoutes = new Hono<AppContext>();
for (const path of pagePaths) {
  accountWebRoutes.use(
    path,
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        styleSrc: [stylesheetHashSource],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      xFrameOptions: "DENY",
      referrerPolicy: "same-origin",
    }),
    async (c, next) => {
      await next();
      c.header("cache-control", "no-store");
    },
    requireSameOrigin,
    bodyLimit({
      maxSize: limits.accountWeb.maxFormBodyBytes,
      onError: () => {
        throw new ApiError("PAYLOAD_TOO_LARGE", `Form body larger than ${limits.accountWeb.maxFormBodyBytes} bytes`);
      },
    }),
  );
}
accountWebRoutes.route("/", signInRoutes);
accountWebRoutes.route("/", dashboardRoutes);

// ---- the pages in GET /openapi.json (tag "account"): how a browser uses them, and what each refusal looks like ----

const page = (description: string): ResponseSpec => ({ description, contentType: "text/html", examples: { page: { summary: "The page", value: "<!doctype html>…" } } });
const redirect = (description: string): ResponseSpec => ({ description, examples: {}, headers: { location: { description: "Where the browser goes next", schema: { type: "string" } } } });
const formBody = (schema: z.ZodMiniObject, example: Record<string, string>) => ({
  description: "An HTML form (application/x-www-form-urlencoded or multipart/form-data)",
  contentType: "application/x-www-form-urlencoded",
  schema,
  examples: { form: { summary: "As a browser sends it", value: example } },
});
const postErrors = {
  403: errorResponse("FORBIDDEN", "The request does not come from this site's own pages (Origin, else Sec-Fetch-Site, else Referer)", { crossOrigin: "Cross-origin form submission refused" }),
  413: errorResponse("PAYLOAD_TOO_LARGE", `A form body over ${limits.accountWeb.maxFormBodyBytes} bytes`, { tooLarge: `Form body larger than ${limits.accountWeb.maxFormBodyBytes} bytes` }),
};
const session = "Signed in by the session cookie `__Host-tmd_session`; without a live session the answer is a 303 to /login.";

export const accountWebOperations: Operation[] = [
  {
    method: "get",
    path: "/signup",
    operationId: "signupPage",
    summary: "Sign-up form; `?ref=CODE` (a referral link) is carried in a hidden field when the code is known",
    tags: ["account"],
    authenticated: false,
    responses: { 200: page("The form") },
  },
  {
    method: "post",
    path: "/signup",
    operationId: "signup",
    summary: "Creates an account, signs it in and redirects to /dashboard",
    tags: ["account"],
    authenticated: false,
    requestBody: formBody(signupForm, { email: "ada@example.com", password: "correct horse battery staple", ref: "7K3M9QWX2P" }),
    responses: {
      303: redirect("Signed up: to /dashboard, with the session cookie"),
      400: page("The form again: a malformed email, a password out of bounds"),
      409: page("The form again: the email has an account"),
      429: page(
        `The form again: more than ${limits.accountWeb.signupsPerAddress} sign-ups from this address (an IPv6 client: its /64), or ${limits.accountWeb.signupsPerIpv6Net48} from its IPv6 /48, in the last hour (with Retry-After)`,
      ),
      ...postErrors,
    },
  },
  {
    method: "get",
    path: "/login",
    operationId: "loginPage",
    summary: "Login form",
    tags: ["account"],
    authenticated: false,
    responses: { 200: page("The form"), 303: redirect("Already signed in: to /dashboard") },
  },
  {
    method: "post",
    path: "/login",
    operationId: "login",
    summary: "Signs in and redirects to /dashboard",
    tags: ["account"],
    authenticated: false,
    requestBody: formBody(loginForm, { email: "ada@example.com", password: "correct horse battery staple" }),
    responses: {
      303: redirect("Signed in: to /dashboard, with the session cookie and a device cookie (`__Host-tmd_device`) that exempts this browser from the per-email slowdown"),
      400: page("The form again: a malformed email or an empty password"),
      401: page("The form again: wrong email or password (the same answer for an unknown email)"),
      429: page(
        `The form again: ${limits.accountWeb.loginAttemptsPerAddress} attempts from this address in the last 15 minutes, or too soon after the last attempt once an email (or this email from this address) has had its free attempts; a browser that logged in to the email before is not slowed by other browsers' attempts (with Retry-After)`,
      ),
      ...postErrors,
    },
  },
  {
    method: "post",
    path: "/logout",
    operationId: "logout",
    summary: "Ends the session (its row is deleted: the cookie opens nothing any more) and redirects to /login",
    tags: ["account"],
    authenticated: false,
    responses: { 303: redirect("To /login"), ...postErrors },
  },
  {
    method: "get",
    path: "/dashboard",
    operationId: "dashboard",
    summary: "API keys, plan and usage this month, referrals",
    description: session,
    tags: ["account"],
    authenticated: false,
    responses: { 200: page("The dashboard (a key created just before is shown in it, once)"), 303: redirect("No live session: to /login (a dead session cookie is cleared)") },
  },
  {
    method: "post",
    path: "/dashboard/keys",
    operationId: "createKey",
    summary: "Creates a named API key and redirects to /dashboard, which shows it once",
    description: session,
    tags: ["account"],
    authenticated: false,
    requestBody: formBody(createKeyForm, { name: "trading bot" }),
    responses: {
      303: redirect("Created: to /dashboard"),
      400: page("The dashboard with the message: an empty or over-long name"),
      409: page(`The dashboard with the message: ${limits.accountWeb.maxActiveKeysPerAccount} live keys already (or ${limits.accountWeb.maxKeysPerAccount} created in all)`),
      ...postErrors,
    },
  },
  {
    method: "get",
    path: "/dashboard/keys/revoke",
    operationId: "revokeKeyConfirmation",
    summary: "Asks to confirm a revoke: the key's name, prefix and use, a button that revokes it and a way back (the dashboard's Revoke buttons lead here)",
    description: session,
    tags: ["account"],
    authenticated: false,
    query: revokeKeyQuery,
    responses: { 200: page("The confirmation page"), 404: page("The dashboard with the message: no such live key in this account") },
  },
  {
    method: "post",
    path: "/dashboard/keys/revoke",
    operationId: "revokeKey",
    summary: "Revokes one of the account's keys (with `confirm=yes`, as the confirmation page sends it) and redirects to /dashboard, where it stays listed as revoked",
    description: `${session} The key is refused at once by the isolate that revoked it, and by every other within ${limits.authCacheMs / 1000} s (their key cache). Without \`confirm=yes\` nothing is revoked: the answer is the confirmation page.`,
    tags: ["account"],
    authenticated: false,
    requestBody: formBody(revokeKeyForm, { keyId: "key_0123456789abcdef", confirm: "yes" }),
    responses: {
      303: redirect("Revoked: to /dashboard"),
      200: page("No `confirm=yes`: the confirmation page, nothing revoked"),
      404: page("The dashboard with the message: no such live key in this account"),
      ...postErrors,
    },
  },
];
