import * as esbuild from "esbuild"
import { readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { join, resolve } from "node:path"
import type { ConsoleBuild } from "../src/http/console/ConsoleBuild.ts"
import { buildConsole } from "./consoleBuild.ts"

/**
 * `node scripts/build.ts [OUTDIR]`: the production bundle `npm start` runs
 * (default OUTDIR `dist/`). ESM, tree-shaken, code-split so that dynamic
 * imports stay chunks loaded on first use. Bundling drops Node's type
 * stripping and every module of `effect`, `ai` and the providers that parley
 * never calls: ~185 → ~116 MiB RSS after start (BENCHMARKS.md, "Fix: a
 * bundled production build").
 */
export const root = resolve(import.meta.dirname, "..")
export const defaultOutdir = join(root, "dist")

/** The service and the bench's gateway, which must run what the service runs. */
export const entryPoints = ["src/main.ts", "bench/gatewayProcess.ts"] as const

/** Where the bundle puts an entry point: `src/main.ts` → `OUTDIR/src/main.js`. */
export const bundledFile = (outdir: string, entry: (typeof entryPoints)[number]) =>
  join(outdir, entry.replace(/\.ts$/, ".js"))

/**
 * The Node flags `npm start` runs the bundle with, read from package.json's
 * `start` script so that the bench and the tests start it the same way.
 */
export const startFlags = (): ReadonlyArray<string> => {
  const scripts =
    (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts
  return (scripts["start"] ?? "").split(/\s+/).filter((word) => word.startsWith("--"))
}

const require = createRequire(import.meta.url)

/**
 * Node's ES module facade of a built-in reads every export once, and the
 * `WebSocket`, `CloseEvent` and `MessageEvent` getters of `node:http` then
 * load undici and `node:http2` (~3 MiB of RSS in the gateway). Through
 * `require` they stay lazy, so the bundle imports `node:http` that way.
 */
const LAZY_HTTP_EXPORTS = new Set(["WebSocket", "CloseEvent", "MessageEvent"])

const httpThroughRequire: esbuild.Plugin = {
  name: "http-through-require",
  setup(build) {
    build.onResolve(
      { filter: /^(node:)?http$/ },
      (args) => args.kind === "require-call" ? undefined : { path: "node:http", namespace: "http-through-require" }
    )
    build.onLoad({ filter: /.*/, namespace: "http-through-require" }, () => {
      const names = Object.keys(require("node:http") as object).filter((name) => !LAZY_HTTP_EXPORTS.has(name))
      return {
        loader: "js",
        contents: [
          `import { createRequire } from "node:module"`,
          `const http = createRequire(import.meta.url)("node:http")`,
          `export default http`,
          `export const { ${names.join(", ")} } = http`
        ].join("\n")
      }
    })
  }
}

/**
 * The console (scripts/consoleBuild.ts) goes into the bundle: the module that
 * builds it from the sources on first use is replaced by what was built, so
 * the service serves this build and needs no build tool at run time.
 */
const embedConsole = (built: ConsoleBuild): esbuild.Plugin => ({
  name: "embed-console",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]http[\\/]console[\\/]builtConsole\.ts$/ }, () => ({
      loader: "js",
      contents: `export const loadConsole = async () => (${JSON.stringify(built)})`
    }))
  }
})

/**
 * Builds into `outdir` (emptied first). It must lie inside the project: the
 * bundle loads what it leaves out (playwright-core, the gpt-tokenizer
 * encodings, pg-native) from node_modules at run time.
 */
export const build = async (outdir: string = defaultOutdir): Promise<void> => {
  rmSync(outdir, { recursive: true, force: true })
  const consoleBuild = await buildConsole()
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [...entryPoints],
    outbase: root,
    outdir,
    entryNames: "[dir]/[name]",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    // Whitespace and syntax only: identifiers (and so stack traces and CPU
    // profiles) stay readable; renaming them saved a further 1 MiB at most.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
    // playwright-core is large and loaded on the first browser action; pg-native is pg's optional native driver;
    // dockerode (the docker sandbox backend's engine client) brings ssh2, whose optional native parts
    // (cpu-features) are not installed and cannot be bundled.
    external: ["playwright-core", "pg-native", "dockerode"],
    plugins: [httpThroughRequire, embedConsole(consoleBuild)],
    // Bundled CommonJS packages (ws, pg) `require` Node's built-ins.
    banner: {
      js:
        "import { createRequire as __parleyCreateRequire } from \"node:module\"; const require = __parleyCreateRequire(import.meta.url);"
    }
  })
}

if (import.meta.main) {
  const outdir = process.argv[2] === undefined ? defaultOutdir : resolve(process.argv[2])
  const started = performance.now()
  await build(outdir)
  console.log(`parley: built ${outdir} in ${(performance.now() - started).toFixed(0)} ms`)
}
