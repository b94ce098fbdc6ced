import { limits } from "../limits";
import { html } from "./html";
import { pageDocument } from "./page-layout";

/** The sign-up and login forms: plain POST forms, re-rendered with a message (and what was typed, never the password). */
const { maxEmailChars, minPasswordChars, maxPasswordChars } = limits.accountWeb;

export interface SignupView {
  email?: string;
  /** A known referral code, carried in a hidden field. */
  ref?: string | null;
  /** The link's code was not one we know: said once, and the form goes on without it. */
  unknownRef?: boolean;
  error?: string;
}

export function signupPage(view: SignupView): string {
  return pageDocument(
    "Sign up",
    html`<section class="narrow">
<h1>Create an account</h1>
${view.error && html`<p class="error" role="alert">${view.error}</p>`}
${view.unknownRef && html`<p class="notice">This referral link's code is not known: you can still sign up, without a referrer.</p>`}
${view.ref && html`<p class="notice">You were referred: you and your referrer both get bonus credits after your first API call.</p>`}
<form method="post" action="/signup">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="${maxEmailChars}" autocomplete="email" value="${view.email ?? ""}">
<label for="password">Password <span class="muted">(${minPasswordChars}–${maxPasswordChars} characters)</span></label>
<input id="password" name="password" type="password" required minlength="${minPasswordChars}" maxlength="${maxPasswordChars}" autocomplete="new-password">
${view.ref && html`<input type="hidden" name="ref" value="${view.ref}">`}
<p><button type="submit">Sign up</button></p>
</form>
<p class="muted">Already have an account? <a href="/login">Log in</a>. The API itself: <a href="/docs">docs</a>.</p>
</section>`,
  );
}

export interface LoginView {
  email?: string;
  error?: string;
  notice?: string;
}

export function loginPage(view: LoginView): string {
  return pageDocument(
    "Log in",
    html`<section class="narrow">
<h1>Log in</h1>
${view.error && html`<p class="error" role="alert">${view.error}</p>`}
${view.notice && html`<p class="notice">${view.notice}</p>`}
<form method="post" action="/login">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="${maxEmailChars}" autocomplete="email" value="${view.email ?? ""}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required maxlength="${maxPasswordChars}" autocomplete="current-password">
<p><button type="submit">Log in</button></p>
</form>
<p class="muted">No account yet? <a href="/signup">Sign up</a>.</p>
</section>`,
  );
}
