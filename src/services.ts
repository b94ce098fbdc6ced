/**
 * What the worker works with, built once per env object from the parsed config: the upstream client, the price service
 * and the overview's caches. Routes take them from `c.var.services` (middleware/init-services.ts); the cron and the
 * Durable Objects from `servicesOf(env)`. Nothing builds its own.
 */
import { configOf, type Config } from "./config";
import type { Env } from "./env";
import { OverviewCaches } from "./overview/overview-service";
import { priceCacheFor } from "./pricing/price-cache";
import { PriceService } from "./pricing/price-service";
import { createUpstream, type Upstream } from "./solana/upstream";

export interface Services {
  config: Config;
  upstream: Upstream;
  prices: PriceService;
  overviewCaches: OverviewCaches;
}

/** One set per isolate: the caches' entries do not depend on the config. */
const overviewCaches = new OverviewCaches();

const byEnv = new WeakMap<object, Services>();

export function servicesOf(env: Env): Services {
  const hit = byEnv.get(env);
  if (hit) return hit;
  const config = configOf(env);
  const upstream = createUpstream(config.upstream);
  const prices = new PriceService({ rpc: upstream, db: env.DB, cache: priceCacheFor(config.priceCacheTtlMs) });
  const services: Services = { config, upstream, prices, overviewCaches };
  byEnv.set(env, services);
  return services;
}
