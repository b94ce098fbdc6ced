import type { Context } from "hono";
import type { AppContext } from "../../app-context";

/**
 * A form's string fields (urlencoded or multipart). Files and repeated fields are dropped, so a hostile body can only
 * make a field missing, which the form's schema reports like any other; a body that is not a form reads as empty.
 */
export async function formFields(c: Context<AppContext>): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return {};
  const body = await c.req.parseBody().catch(() => ({}));
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") fields[name] = value;
  return fields;
}
