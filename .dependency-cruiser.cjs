/** dependency-cruiser's settings for src/: the layering and its rules live in scripts/layering.cjs. */
const { layers, rulesFor } = require("./scripts/layering.cjs");

module.exports = {
  forbidden: rulesFor(layers),
  options: {
    // Type-only imports count: `import type` and `import("…")` types name a module as surely as a value does.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
  },
};
