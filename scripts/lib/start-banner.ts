/**
 * What `npm start` prints once the worker is up: the demo key and curls to paste.
 * The getSlot curl asks for `confirmed`: at the default (`finalized`) a fresh chain answers 0 for its first ~32 slots
 * (~13 s on localnet), which reads like a broken node.
 */
export const SLOT_CURL_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] });

export interface BannerOptions {
  base: string;
  key: string;
  sample: string;
  localnetUrl?: string;
  /** The WebSocket forwarder's port (PORT+1), where web3.js subscribes. */
  wsPort?: number;
  /** The local state directory (D1, KV) of this run. */
  stateDir?: string;
  /** Whether request lines are shown (`--verbose`). */
  verbose?: boolean;
}

export function startBanner(opts: BannerOptions): string {
  const { base, key, sample, localnetUrl, wsPort, stateDir, verbose } = opts;
  const web3 = wsPort
    ? `\n  web3.js: new Connection('${base}/rpc?x-api-key=${key}') subscribes on port ${wsPort} (PORT+1), which forwards to /rpc\n`
    : "";
  const state = stateDir ? `  Local state (D1, KV): ${stateDir}; npm run key:create and plan:set write here while this runs\n` : "";
  const logs = verbose ? "  Request lines shown (--verbose).\n" : "  Request lines hidden; npm start -- --verbose shows them.\n";
  return `
  Token market-data API is running on ${base}
  Demo API key: ${key}
  Dashboard (sign up, create keys, usage, referrals): ${base}/signup

  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/price?ca=${sample}'
  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/price?ca=So11111111111111111111111111111111111111112,${sample}'
  curl -s -H 'x-api-key: ${key}' '${base}/api/v1/overview?ca=${sample}'
  curl -s -X POST '${base}/rpc' -H 'authorization: Bearer ${key}' -H 'content-type: application/json' -d '${SLOT_CURL_BODY}'
${web3}${localnetUrl ? `\n  Local chain tokens: curl -s ${localnetUrl}/__localnet/world\n` : ""}
${state}${logs}  Ctrl-C stops everything.
`;
}
