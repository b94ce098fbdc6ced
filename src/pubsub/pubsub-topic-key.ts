/**
 * The sharing key of a PubSub subscription: the method and its params in one canonical text, so clients that ask for
 * the same thing (whatever their key order, spacing, or an omitted / `null` / `{}` config) share one upstream
 * subscription. When the text holds a number whose JSON value could hide a difference the node sees (`1.0`, `1e3`,
 * `-0`, digits past 2^53), the key is the text as written: that request is shared only with identical ones.
 */

import { canonicalJson, isPlainObject } from "../rpc/canonical-json";

/** Methods whose second positional param is an optional config object (Agave: `Option<Rpc*Config>`). */
const withConfig: ReadonlySet<string> = new Set(["accountSubscribe", "programSubscribe", "logsSubscribe", "signatureSubscribe"]);

/** A digit followed by a fraction or exponent, or a negative zero: numbers JSON.parse would merge with others. */
const inexactNumber = /[0-9][.eE]|-0/;

/** A subscription's identity: `key` (method and canonical params) and the params text sent upstream for it. */
export interface TopicKey {
  key: string;
  /** Canonical params (compact, sorted keys), or the caller's own text when that is the only exact form; undefined: no params. */
  paramsText: string | undefined;
}

export function topicKeyOf(method: string, params: readonly unknown[] | undefined, paramsText: string | undefined): TopicKey {
  if (params === undefined || paramsText === undefined) return { key: `${method}[]`, paramsText: undefined };
  let canonical: string | undefined;
  if (!inexactNumber.test(paramsText)) {
    const config = params[1];
    const dropConfig = withConfig.has(method) && params.length === 2 && (config === null || (isPlainObject(config) && Object.keys(config).length === 0));
    canonical = canonicalJson(dropConfig ? params.slice(0, 1) : params);
  }
  // "=" keeps a verbatim key apart from every canonical one (which starts with "[").
  return canonical === undefined ? { key: `${method}=${paramsText}`, paramsText } : { key: `${method}${canonical}`, paramsText: canonical };
}
