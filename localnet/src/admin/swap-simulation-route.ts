/**
 * `POST /__localnet/simulate-swap?pool=&side=buy|sell&amountIn=[&time=]`: the world's own venue code swaps `amountIn`
 * (quote atoms for a buy, base atoms for a sell) on the current state and throws the result away; the answer is what it
 * would have paid out. `time` (unix seconds) runs the swap at that chain time instead of the newest block's. 400 for malformed parameters, 404 without such a pool, 409 when the pool refuses the trade.
 */
import type { World } from "../chain/types.js";

const base58Address = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const U64_MAX = (1n << 64n) - 1n;

/** The admin routes' answer shape (admin-routes.ts `AdminReply`), spelled here so the two files do not import each other. */
export function simulateSwapRoute(url: URL, world: World): { status: number; body: unknown } {
  if (!world.simulateSwap) return { status: 404, body: { error: "this world simulates no swaps" } };
  const pool = url.searchParams.get("pool");
  const side = url.searchParams.get("side");
  const amount = url.searchParams.get("amountIn");
  if (pool === null || !base58Address.test(pool)) return { status: 400, body: { error: "pool must be a base58 address" } };
  if (side !== "buy" && side !== "sell") return { status: 400, body: { error: "side must be buy or sell" } };
  if (amount === null || !/^[0-9]{1,20}$/.test(amount) || BigInt(amount) === 0n || BigInt(amount) > U64_MAX) {
    return { status: 400, body: { error: "amountIn must be an integer from 1 to 2^64 - 1" } };
  }
  const time = url.searchParams.get("time");
  if (time !== null && !/^[0-9]{1,12}$/.test(time)) return { status: 400, body: { error: "time must be unix seconds (an integer)" } };
  const result = world.simulateSwap(pool, side, BigInt(amount), time === null ? undefined : Number(time));
  if (typeof result === "string") return { status: result.startsWith("no pool") ? 404 : 409, body: { error: result } };
  return { status: 200, body: result };
}
