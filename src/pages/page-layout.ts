import { sha256 } from "@noble/hashes/sha256";
import { Html, html } from "./html";

/**
 * The shell of every account page: one inline stylesheet (no CDN, no script). The CSP allows exactly that stylesheet
 * by its hash, so nothing injected into a page could style it, let alone run; SVG charts use attributes, not styles.
 * Narrow screens (phones, 390 px and up): tables marked `cards` become one card per row, each cell labelled by its
 * `data-label`, so nothing runs off the side; the chart's labels are drawn larger, since its drawing scales down.
 */
const css = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f5f6f8}
header{display:flex;align-items:center;justify-content:space-between;padding:12px 24px;background:#14213d;color:#fff}
header a{color:#fff;text-decoration:none;font-weight:600}
header form{margin:0}
main{max-width:960px;margin:24px auto;padding:0 16px}
section{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:16px 20px;margin-bottom:20px}
h1{font-size:22px;margin:0 0 12px}
h2{font-size:18px;margin:0 0 12px}
table{width:100%;border-collapse:collapse;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #eceff3;vertical-align:middle}
th{color:#5a6275;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
label{display:block;margin:8px 0 4px;font-weight:600}
input[type=email],input[type=password],input[type=text]{width:100%;max-width:360px;padding:8px;border:1px solid #b9c0cc;border-radius:6px;font:inherit}
button{padding:7px 14px;border:0;border-radius:6px;background:#2f5bea;color:#fff;font:inherit;cursor:pointer}
button.danger{background:#c0392b}
button.link{background:none;color:#fff;padding:0;font-weight:600}
.inline{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.inline input{max-width:280px}
.error{background:#fdecea;border:1px solid #f5c2bd;color:#8a1f11;padding:8px 12px;border-radius:6px;margin:0 0 12px}
.notice{background:#eef5ff;border:1px solid #c7dbff;padding:8px 12px;border-radius:6px;margin:0 0 12px}
.secret{background:#fff8e1;border:1px solid #f0d58a;padding:12px;border-radius:6px;margin:0 0 12px}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef0f4;padding:2px 5px;border-radius:4px;word-break:break-all}
.muted{color:#6b7385}
.stats{display:flex;gap:24px;flex-wrap:wrap;margin-bottom:12px}
.stats div{min-width:150px}
.stats b{display:block;font-size:20px}
.narrow{max-width:420px;margin:48px auto}
.narrow-section{max-width:640px;margin:24px auto}
tr.revoked td{color:#6b7385}
@media (max-width:640px){
header{padding:10px 16px}
main{margin:16px auto;padding:0 10px}
section{padding:12px 14px}
.stats{gap:12px}
.stats div{min-width:130px}
.inline input{max-width:none;flex:1 1 160px}
table.cards thead{display:none}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
table.cards tr{border:1px solid #dde1e8;border-radius:6px;padding:6px 10px;margin-bottom:10px}
table.cards td{display:flex;justify-content:space-between;gap:12px;border:0;padding:3px 0;text-align:right;overflow-wrap:anywhere}
table.cards td[data-label]::before{content:attr(data-label);color:#5a6275;font-weight:600;text-align:left;flex:none}
table.cards td.action{justify-content:flex-end;padding-top:6px}
table.cards td.action:empty{display:none}
svg.chart text{font-size:24px}
}
`;

/** `'sha256-…'` of the stylesheet, for the CSP's style-src. */
export const stylesheetHashSource = `'sha256-${btoa(String.fromCharCode(...sha256(new TextEncoder().encode(css))))}'`;

export function pageDocument(title: string, body: Html, opts: { signedIn?: boolean } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<title>${title} · Token market-data API</title>
<style>${new Html(css)}</style>
</head>
<body>
<header><a href="${opts.signedIn ? "/dashboard" : "/login"}">Token market-data API</a>${
    opts.signedIn
      ? html`<form method="post" action="/logout"><button class="link" type="submit">Log out</button></form>`
      : html`<span><a href="/docs">Docs</a></span>`
  }</header>
<main>
${body}
</main>
</body>
</html>
`.text;
}
