/**
 * Query parameter schemas shared by described routes. Query values are text: an integer parameter is a string of
 * digits (as the document shows it) turned into a number and range-checked, so `validQuery` refuses `hour=0`, `hour=1.5`
 * or `limit=1e2` with the 400 envelope naming the parameter ("must be at least 1", "expected an integer").
 */
import { z } from "zod/mini";

/** A non-negative integer in [min, max], written as plain digits (no sign, exponent, fraction or spaces). */
export function integerParam(min: number, max: number, description: string, example: string) {
  return z
    .pipe(
      z.string().check(z.regex(/^[0-9]{1,15}$/, "expected an integer")),
      z.pipe(
        z.transform((text: string) => Number(text)),
        z.number().check(z.gte(min), z.lte(max)),
      ),
    )
    .register(z.globalRegistry, { description: `${description} Integer, ${min} to ${max}.`, examples: [example] });
}
