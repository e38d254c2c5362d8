/** What the console build makes (scripts/consoleBuild.ts) and `/console` serves. */

export interface ConsoleAsset {
  /** Hashed: a new build gets new names, so an asset can be cached for good. */
  readonly name: string
  readonly contentType: string
  readonly body: string
}

export interface ConsoleBuild {
  /** The page, naming the assets; served fresh every time (`no-cache`). */
  readonly html: string
  readonly assets: ReadonlyArray<ConsoleAsset>
  /** The name of the icon among the assets: the page's, /docs' and /favicon.ico's. */
  readonly icon: string
}

/** Where the page finds its assets. */
export const ASSETS_PATH = "/console/assets/"
