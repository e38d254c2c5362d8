import * as esbuild from "esbuild"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { basename, extname, join, resolve } from "node:path"
import { ASSETS_PATH, type ConsoleAsset, type ConsoleBuild } from "../src/http/console/ConsoleBuild.ts"

/**
 * The console (docs/DESIGN.md §6): `console/` bundled by esbuild into one
 * script and one style sheet (Preact, uPlot and the pages), their names
 * hashed, and the page that loads them. Everything is served by parley
 * itself: no CDN, no web fonts (the system's), nothing fetched elsewhere.
 */
const root = resolve(import.meta.dirname, "..")

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml"
}

const asset = (name: string, body: string): ConsoleAsset => {
  const contentType = CONTENT_TYPES[extname(name)]
  if (contentType === undefined) throw new Error(`The console build made ${name}, of no known type`)
  return { name, contentType, body }
}

/** The icon is copied as it is, its name hashed like esbuild's. */
const icon = (): ConsoleAsset => {
  const body = readFileSync(join(root, "console", "icon.svg"), "utf8")
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 8)
  return asset(`icon-${hash}.svg`, body)
}

const page = (script: string, style: string, favicon: string) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>parley console</title>
<link rel="icon" type="image/svg+xml" href="${ASSETS_PATH}${favicon}">
<link rel="stylesheet" href="${ASSETS_PATH}${style}">
<script type="module" src="${ASSETS_PATH}${script}"></script>
</head>
<body>
<noscript>The parley console needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`

export const buildConsole = async (): Promise<ConsoleBuild> => {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { console: "console/main.tsx", style: "console/console.css" },
    // Nothing is written: the files come back in memory (the bundle embeds them).
    write: false,
    outdir: join(root, "console-build"),
    entryNames: "[name]-[hash]",
    bundle: true,
    format: "esm",
    target: ["chrome120", "firefox121", "safari17"],
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    logLevel: "warning"
  })
  const built = result.outputFiles.map((file) => asset(basename(file.path), file.text))
  const named = (extension: string) => {
    const found = built.find((file) => file.name.endsWith(extension))
    if (found === undefined) throw new Error(`The console build made no ${extension} file`)
    return found.name
  }
  const favicon = icon()
  return { html: page(named(".js"), named(".css"), favicon.name), assets: [...built, favicon], icon: favicon.name }
}
