import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorResponse } from "../errorResponse.ts"
import { RouteNotFound } from "../requestErrors.ts"
import { ASSETS_PATH } from "./ConsoleBuild.ts"

/**
 * The console may load and call nothing but parley itself (docs/DESIGN.md §6):
 * no inline script or style, no other host, no frames, no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

const common = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" }

// Asset names carry their content's hash: a year, never revalidated. The page names them, so it is always asked anew.
const ASSET_CACHE = "public, max-age=31536000, immutable"

// The icon's own name is hashed; /favicon.ico is not, so a new build's icon is picked up within a day.
const ICON_CACHE = "public, max-age=86400"

/** Where /docs (and any browser that asks by the old name) finds the console's icon. */
export const FAVICON_PATH = "/favicon.ico"

/** The paths `/console` answers, for the gateway's 405s. */
export const consolePaths = ["/console", `${ASSETS_PATH}:name`, FAVICON_PATH] as const

// A chunk of its own in the bundle: the embedded console is read on the first visit, not at start.
const load = () => import("./builtConsole.ts").then((module) => module.loadConsole())

/**
 * `/console`: the page and its hashed assets, loaded once (built on first use
 * from the sources, embedded in the bundle) and kept in memory, and its icon
 * at /favicon.ico too. They need no credentials: the page signs in against
 * /admin/v1 itself.
 */
export const ConsoleRoutes = Layer.unwrap(Effect.gen(function*() {
  const built = yield* Effect.cached(Effect.map(Effect.promise(load), (console) => ({
    html: console.html,
    assets: new Map(console.assets.map((asset) => [asset.name, asset])),
    icon: console.assets.find((asset) => asset.name === console.icon)!
  })))

  const page = Effect.map(built, ({ html }) =>
    HttpServerResponse.text(html, {
      contentType: "text/html; charset=utf-8",
      headers: { ...common, "cache-control": "no-cache", "content-security-policy": CONSOLE_CSP }
    }))

  const asset = Effect.gen(function*() {
    const { name } = yield* HttpRouter.params
    const found = name === undefined ? undefined : (yield* built).assets.get(name)
    if (found === undefined) {
      const request = yield* HttpServerRequest.HttpServerRequest
      return yield* errorResponse(new RouteNotFound({ method: request.method, path: request.url }))
    }
    return HttpServerResponse.text(found.body, {
      contentType: found.contentType,
      headers: { ...common, "cache-control": ASSET_CACHE }
    })
  })

  const favicon = Effect.map(built, ({ icon }) =>
    HttpServerResponse.text(icon.body, {
      contentType: icon.contentType,
      headers: { ...common, "cache-control": ICON_CACHE }
    }))

  return Layer.mergeAll(
    // The router takes "/console/" for "/console" too.
    HttpRouter.add("GET", "/console", page),
    HttpRouter.add("GET", `${ASSETS_PATH}:name`, asset),
    HttpRouter.add("GET", FAVICON_PATH, favicon)
  )
}))
