// Copies Swagger UI from node_modules into public/vendor/swagger-ui/ (gitignored): the /docs page loads it from the
// worker's static assets, so it works offline and no 1.7 MB bundle is committed. And the guides (docs/*.md) into
// public/guide/ (gitignored): the OpenAPI descriptions link them as /guide/<name>.md, a URL every deployment serves.
// Run by postinstall, prestart, predev, npm run deploy and scripts/test.sh; idempotent (copies only what changed).
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

function copyIfChanged(source, target) {
  const same = (() => {
    try {
      const [a, b] = [statSync(source), statSync(target)];
      return a.size === b.size && a.mtimeMs <= b.mtimeMs;
    } catch {
      return false;
    }
  })();
  if (!same) copyFileSync(source, target);
}

const guides = path.join(root, "public", "guide");
mkdirSync(guides, { recursive: true });
for (const file of readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md"))) copyIfChanged(path.join(root, "docs", file), path.join(guides, file));

let from;
try {
  from = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
} catch {
  // An install without devDependencies: the API works, only /docs lacks its script (test/e2e/docs.page.test.ts fails).
  console.warn("copy-docs-assets: swagger-ui-dist is not installed; /docs will not render (npm install without --omit=dev)");
  process.exit(0);
}
const to = path.join(root, "public", "vendor", "swagger-ui");
const files = ["swagger-ui-bundle.js", "swagger-ui-bundle.js.LICENSE.txt", "swagger-ui.css", "favicon-32x32.png", "LICENSE", "NOTICE"];

mkdirSync(to, { recursive: true });
for (const file of files) copyIfChanged(path.join(from, file), path.join(to, file));
