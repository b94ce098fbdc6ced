/**
 * What `npm start` prints once the worker is up: the demo key and curls to paste.
 * The getSlot curl asks for `confirmed`: at the default (`finalized`) a fresh chain answers 0 for its first ~32 slots
 * (~13 s on localnet), which reads like a broken node.
 */
export const SLOT_CURL_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] });

export function startBanner(opts: { base: string; key: string; sample: string; localnetUrl?: string }): string {
  const { base, key, sample, localnetUrl } = opts;
  return `
  Token market-data API is running on ${base}
  Demo API key: ${key}
  Dashboard (sign up, create keys, usage, referrals): ${base}/signup

  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/price?ca=${sample}'
  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/price?ca=So11111111111111111111111111111111111111112,${sample}'
  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/overview?ca=${sample}'
  curl -s -X POST '${base}/rpc' -H 'authorization: Bearer ${key}' -H 'content-type: application/json' -d '${SLOT_CURL_BODY}'
${localnetUrl ? `\n  Local chain tokens: curl -s ${localnetUrl}/__localnet/world\n` : ""}
  Ctrl-C stops everything.
`;
}
