import { describe, expect, it } from "vitest";
import { isSameOriginRequest } from "../../../src/middleware/same-origin";

const url = "https://api.example/dashboard/keys";
const headersOf = (h: Record<string, string>) => (name: string) => h[name];

describe("isSameOriginRequest: the CSRF guard of the account forms", () => {
  it.each([
    ["our Origin", { origin: "https://api.example" }, true],
    ["another Origin", { origin: "https://evil.example" }, false],
    ["Origin null", { origin: "null" }, false],
    ["our host over http", { origin: "http://api.example" }, false],
    ["our host on another port", { origin: "https://api.example:8443" }, false],
    ["a sibling subdomain", { origin: "https://www.api.example" }, false],
    ["an Origin that disagrees with a same-origin Sec-Fetch-Site (Origin wins)", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }, false],
    ["no Origin, Sec-Fetch-Site same-origin", { "sec-fetch-site": "same-origin" }, true],
    ["no Origin, Sec-Fetch-Site same-site", { "sec-fetch-site": "same-site" }, false],
    ["no Origin, Sec-Fetch-Site none (typed in the address bar: not a form)", { "sec-fetch-site": "none" }, false],
    ["no Origin, Sec-Fetch-Site cross-site even with our Referer", { "sec-fetch-site": "cross-site", referer: "https://api.example/dashboard" }, false],
    ["only our Referer", { referer: "https://api.example/dashboard" }, true],
    ["only another Referer", { referer: "https://evil.example/https://api.example/" }, false],
    ["only an unparsable Referer", { referer: "::::" }, false],
    ["nothing at all", {}, false],
  ])("%s → %s", (_, headers, same) => {
    expect(isSameOriginRequest(url, headersOf(headers as Record<string, string>))).toBe(same);
  });
});
