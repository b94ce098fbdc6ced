import { Hono } from "hono";
import type { AppContext } from "../app-context";
import type { Operation } from "./openapi/operation";
import { priceOperations, priceRoutes } from "./price";
import { overviewOperations, overviewRoutes } from "./overview";
import { trendOperations, trendRoutes } from "./trend";
import { statsOperations, statsRoutes } from "./stats";
import { tradesOperations, tradesRoutes } from "./trades";
import { ohlcvOperations, ohlcvRoutes } from "./ohlcv";
import { usageOperations, usageRoutes } from "./usage";
import { securityOperations, securityRoutes } from "./security";
import { holdersOperations, holdersRoutes } from "./holders";
import { quoteOperations, quoteRoutes } from "./quote";
import { priceHistoryOperations, priceHistoryRoutes } from "./price-history";
import { meteredResponses } from "./openapi/metered-responses";

/** Everything under /api/v1 (the key is already checked by the app); routes carry their full paths. */
export const apiV1Routes = new Hono<AppContext>()
  .route("/", priceRoutes)
  .route("/", overviewRoutes)
  .route("/", trendRoutes)
  .route("/", statsRoutes)
  .route("/", tradesRoutes)
  .route("/", ohlcvRoutes)
  .route("/", usageRoutes)
  .route("/", securityRoutes)
  .route("/", holdersRoutes)
  .route("/", quoteRoutes)
  .route("/", priceHistoryRoutes);
/** Every route here is metered (middleware/metering.ts): each documents the plan's refusals too. */
export const apiV1Operations: Operation[] = [...priceOperations, ...overviewOperations, ...trendOperations, ...statsOperations, ...tradesOperations, ...ohlcvOperations, ...usageOperations, ...securityOperations, ...holdersOperations, ...quoteOperations, ...priceHistoryOperations].map((op) =>
  meteredResponses(op, priceOperations.includes(op)),
);
/** The paths whose cost is their number of mints (and whose lists the plan caps). */
export const pricePaths: ReadonlySet<string> = new Set(priceOperations.map((op) => op.path));
