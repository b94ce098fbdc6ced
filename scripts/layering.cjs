/**
 * The layering of src/ (docs/architecture.md explains it), as dependency-cruiser rules: .dependency-cruiser.cjs applies
 * them to src/ (`npx depcruise src`, and in `npm test` test/unit/architecture/layering.test.ts, which also applies them
 * to small trees of its own to show they catch a back-import and a circle).
 *
 * `layers` lists the entries of src/ (a folder, or a file without its `.ts`) from the ground floor up. The rule: an
 * entry imports only entries on floors below its own, never one beside it or above it; inside an entry, files import
 * each other freely as long as they make no circle. Type-only imports count: a type names a module as surely as a value.
 */
const layers = [
  ["limits", "env", "math", "socket-shards"],
  ["http", "json"],
  ["solana", "metadata"],
  ["errors", "config"],
  ["isolate"],
  ["venues", "rpc", "accounts"],
  ["pool-registry", "pages"],
  ["pricing"],
  ["overview", "quote"],
  ["security"],
  ["trend", "services"],
  ["trades", "stats", "app-context"],
  ["middleware", "streams", "pubsub"],
  ["routes"],
  ["mcp"],
  ["app"],
  ["index"],
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A path pattern for some entries of src/: the folder's files, or the file itself. */
const entryPath = (entries) => `^src/(${entries.map(escape).join("|")})(/|\\.ts$)`;

/** One rule per entry: nothing beside it or above it. */
function layerRules(floors) {
  const rules = [];
  floors.forEach((floor, index) => {
    const besideOrAbove = floors.slice(index).flat();
    for (const entry of floor) {
      const forbidden = besideOrAbove.filter((other) => other !== entry);
      if (forbidden.length === 0) continue;
      rules.push({
        name: `layer-${entry}`,
        comment: `${entry} stands on floor ${index + 1}: it imports only entries of floors 1-${index} (docs/architecture.md)`,
        severity: "error",
        from: { path: entryPath([entry]) },
        to: { path: entryPath(forbidden) },
      });
    }
  });
  return rules;
}

/** Every rule for a layering: no circle anywhere, and no import beside or above. */
function rulesFor(floors) {
  return [
    { name: "no-circular", comment: "files that import each other in a loop", severity: "error", from: {}, to: { circular: true } },
    { name: "not-unlisted", comment: "every entry of src/ stands on a floor of the layering", severity: "error", from: { path: "^src/", pathNot: entryPath(floors.flat()) }, to: {} },
    ...layerRules(floors),
  ];
}

module.exports = { layers, rulesFor };
