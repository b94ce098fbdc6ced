import { html, type Html } from "./html";

/**
 * Daily requests of the month as server-rendered SVG bars: one slot per day of the month, bars for the days so far,
 * each with a <title> (hover text, read by screen readers). Drawn with attributes only (the CSP allows no inline style);
 * the stylesheet draws the labels larger on a phone, so the axes leave them room: the top label sits above the plot,
 * left-aligned, and the day numbers have a margin below.
 */
export function usageChart(days: readonly { day: string; requests: number }[], daysInMonth: number): Html {
  const width = 640;
  const height = 200;
  const top = 36;
  const bottom = 34;
  const left = 28;
  const right = 16;
  const plotHeight = height - top - bottom;
  const slot = (width - left - right) / daysInMonth;
  const max = Math.max(1, ...days.map((d) => d.requests));
  const bars = days.map((d, i) => {
    const h = d.requests === 0 ? 0 : Math.max(1, (d.requests / max) * plotHeight);
    const x = left + i * slot + slot * 0.15;
    return html`<rect x="${x.toFixed(1)}" y="${(top + plotHeight - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}" fill="#2f5bea"><title>${d.day}: ${d.requests.toLocaleString("en-US")} requests</title></rect>`;
  });
  const labels = Array.from({ length: daysInMonth }, (_, i) => i + 1)
    .filter((n) => n === 1 || n % 5 === 0)
    .map((n) => html`<text x="${(left + (n - 1) * slot + slot / 2).toFixed(1)}" y="${height - 8}" font-size="11" text-anchor="middle" fill="#6b7385">${n}</text>`);
  return html`<svg class="chart" role="img" aria-label="Requests per day this month" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet">
<line x1="${left}" y1="${top + plotHeight}" x2="${width - right}" y2="${top + plotHeight}" stroke="#b9c0cc"/>
<line x1="${left}" y1="${top}" x2="${width - right}" y2="${top}" stroke="#eceff3"/>
<text x="${left}" y="${top - 10}" font-size="11" text-anchor="start" fill="#6b7385">${max.toLocaleString("en-US")} requests</text>
<text x="${left - 6}" y="${top + plotHeight + 4}" font-size="11" text-anchor="end" fill="#6b7385">0</text>
${bars}
${labels}
</svg>`;
}
