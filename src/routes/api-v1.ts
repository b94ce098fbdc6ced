import { Hono } from "hono";
import type { AppContext } from "../app-context";
import type { Operation } from "./openapi/operation";
import { priceOperations, priceRoutes } from "./price";
import { overviewOperations, overviewRoutes } from "./overview";
import { trendOperations, trendRoutes } from "./trend";
import { tradesOperations, tradesRoutes } from "./trades";
import { ohlcvOperations, ohlcvRoutes } from "./ohlcv";

/** Everything under /api/v1 (the key is already checked by the app); routes carry their full paths. */
export const apiV1Routes = new Hono<AppContext>()
  .route("/", priceRoutes)
  .route("/", overviewRoutes)
  .route("/", trendRoutes)
  .route("/", tradesRoutes)
  .route("/", ohlcvRoutes);
export const apiV1Operations: Operation[] = [...priceOperations, ...overviewOperations, ...trendOperations, ...tradesOperations, ...ohlcvOperations];
