import { describe, expect, it } from "vitest";
import { escapeHtml, html, Html } from "../../../src/pages/html";
import { usageChart } from "../../../src/pages/usage-chart";

describe("html: the one way account pages are written", () => {
  it.each([
    ["a tag", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["an attribute break-out with double quotes", '" onmouseover="alert(1)', "&quot; onmouseover=&quot;alert(1)"],
    ["an attribute break-out with single quotes", "' autofocus onfocus='x", "&#39; autofocus onfocus=&#39;x"],
    ["an entity", "&lt;", "&amp;lt;"],
    ["a comment opener", "<!--", "&lt;!--"],
  ])("escapes %s in text and in attribute values", (_, hostile, escaped) => {
    expect(html`<td>${hostile}</td>`.text).toBe(`<td>${escaped}</td>`);
    expect(html`<input value="${hostile}">`.text).toBe(`<input value="${escaped}">`);
    expect(escapeHtml(hostile)).toBe(escaped);
  });

  it("keeps markup it built itself, joins arrays, renders null / undefined / false as nothing and numbers as text", () => {
    const rows = ["<a>", "b"].map((name) => html`<li>${name}</li>`);
    expect(html`<ul>${rows}</ul>${null}${undefined}${false}${0}`.text).toBe("<ul><li>&lt;a&gt;</li><li>b</li></ul>0");
  });

  it("a string that looks like Html is still escaped: only an Html instance passes through", () => {
    const forged = { text: "<b>x</b>", toString: () => "<b>x</b>" } as unknown as string;
    expect(html`${forged}`.text).toBe("&lt;b&gt;x&lt;/b&gt;");
    expect(html`${new Html("<b>x</b>")}`.text).toBe("<b>x</b>");
  });
});

describe("usageChart", () => {
  it("draws one bar per day so far, scaled to the busiest day, each titled with its day and count", () => {
    // Given three days of a 30-day month
    const svg = usageChart([{ day: "2026-11-01", requests: 10 }, { day: "2026-11-02", requests: 0 }, { day: "2026-11-03", requests: 5 }], 30).text;
    // Then the busiest day's bar spans the plot, the quiet day has none, the other is half
    const heights = [...svg.matchAll(/<rect [^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(3);
    expect(heights[1]).toBe(0);
    expect(heights[2]! / heights[0]!).toBeCloseTo(0.5, 5);
    expect(svg).toContain("<title>2026-11-01: 10 requests</title>");
    expect(svg).not.toMatch(/style=/); // the page's CSP allows no inline style
  });

  it("an empty month draws an axis and no bars", () => {
    const svg = usageChart([], 31).text;
    expect(svg).not.toContain("<rect");
    expect(svg).toContain("<svg");
  });
});
