// Import rules for src/ and console/, checked by `npm run check:imports` (and in .ci/run). docs/DESIGN.md §2 states
// them. test/, bench/ and scripts/ may import anything, so only src/ and console/ are cruised; test/ and bench/
// are in the graph only as what src/ must not import.

// Top to bottom. A file may import its own folder and the folders after it, never one before it.
// src/main.ts (and any other file directly in src/) stands above them all.
const layers = [
  "cli",
  "demo",
  "app",
  "protocols",
  "http",
  "ledger",
  "api",
  "chat",
  "agent",
  "prune",
  "prompts",
  "governance",
  "mcp",
  "tools",
  "observability",
  "models",
  "sandbox",
  "auth",
  "store",
  "net",
  "config",
  "domain"
]

const folder = (names) => `^src/(${names.join("|")})/`

const layerRules = layers.map((layer, index) => {
  const above = layers.slice(0, index)
  const below = layers.slice(index + 1).join(", ") || "none"
  return {
    name: `layer-order: ${layer}/ imports from above`,
    severity: "error",
    comment: `src/${layer}/ may import only src/${layer}/ and the folders below it (${below}). ` +
      `This import points up the layer order main.ts → ${layers.join(" → ")} (docs/DESIGN.md §2). ` +
      "Move what both sides need down to the lower folder, or let the higher folder pass it in.",
    from: { path: folder([layer]) },
    to: { path: ["^src/[^/]+$", ...(above.length === 0 ? [] : [folder(above)])] }
  }
})

export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "These files import each other in a circle (type imports count too): none of them can be read, " +
        "tested or loaded without the others. Break the circle by moving what they share into a file that " +
        "imports none of them, usually a small types file lower down.",
      from: { path: "^src/" },
      to: { circular: true }
    },
    ...layerRules,
    {
      name: "layer-order: unknown folder",
      severity: "error",
      comment: "This folder of src/ is not in the layer order, so no rule says what it may import. Add it to the " +
        "list in .dependency-cruiser.js and to docs/DESIGN.md §2, at the place that matches what it imports.",
      from: { path: "^src/[^/]+/", pathNot: folder(layers) },
      to: {}
    },
    {
      name: "src: import from test/ or bench/",
      severity: "error",
      comment: "The server imports test or benchmark code (type imports count too): the production bundle and " +
        "`parley` would carry it, and the import rules would not check it. Move what the server needs into src/, " +
        "at the layer of its lowest user, and let test/ or bench/ import it from there.",
      from: { path: "^src/" },
      to: { path: "^(test|bench)/" }
    },
    {
      name: "console: value import from src/",
      severity: "error",
      comment: "The console runs in the browser: it may take the server's view types (`import type`, erased from " +
        "its bundle), never a value, which would bundle server code into the page. Import the type with " +
        "`import type { … }`, or keep the value in console/.",
      // `import { type X }` counts as type-only here, yet under verbatimModuleSyntax it keeps the module as a
      // side-effect import: oxlint's typescript/no-import-type-side-effects refuses that form everywhere.
      from: { path: "^console/" },
      to: { path: "^src/", dependencyTypesNot: ["type-only"] }
    },
    {
      name: "console: types from outside src/domain/",
      severity: "error",
      comment: "The console reads the admin API's views, whose types live in src/domain/ (views.ts). A type it " +
        "needs from another folder belongs there too: move it down to src/domain/ and import it from there.",
      from: { path: "^console/" },
      to: { path: "^src/", pathNot: "^src/domain/" }
    },
    {
      name: "layer-order: import of an unknown folder",
      severity: "error",
      comment: "The imported folder of src/ is not in the layer order, so no rule says who may import it. Add it " +
        "to the list in .dependency-cruiser.js and to docs/DESIGN.md §2.",
      from: { path: "^src/" },
      to: { path: "^src/[^/]+/", pathNot: folder(layers) }
    }
  ],
  options: {
    // TypeScript 7 (the Go port) has no JavaScript compiler API for dependency-cruiser to use. swc parses the
    // sources instead and reports `import type` too (test/importRules.test.ts proves it), so the tsc-only
    // `tsPreCompilationDeps` stays off: with it on, dependency-cruiser warns that it found no tsc.
    parser: "swc",
    includeOnly: "^(src|console|test|bench)/",
    doNotFollow: { path: "^(test|bench)/" },
    moduleSystems: ["es6"],
    reporterOptions: { text: { highlightFocused: true } }
  }
}
