import { Effect } from "effect"
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import packageJson from "../../../../package.json" with { type: "json" }
import { ImageBuildFailed } from "./imageErrors.ts"

/** The image sandboxes start from unless PARLEY_SANDBOX_IMAGE names another (docs/sandboxes.md). */
export const defaultSandboxImage = `parley-sandbox:${packageJson.version}`

/** Where the default image is described: its packages, how its root filesystem is made, its configuration. */
export const recipeFolder = fileURLToPath(new URL("../../../../deploy/sandbox-image/", import.meta.url))
export const recipeFolderName = "deploy/sandbox-image"

/** The image label holding the recipe's content hash: an image with the same one needs no build. */
export const contentLabel = "parley.image.content"

const RECIPE_FILES = ["packages", "changes", "rootfs.sh"] as const

export interface ImageRecipe {
  /** sha256 over the recipe's files: what the image is made from, whatever its tag. */
  readonly content: string
  readonly packages: ReadonlyArray<string>
  /** Dockerfile instructions the engine applies on import (ENV, WORKDIR, USER, CMD, LABEL). */
  readonly changes: ReadonlyArray<string>
  readonly rootfsScript: string
}

const lines = (text: string): ReadonlyArray<string> =>
  text.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"))

export const readRecipe = Effect.fn("readRecipe")(function*() {
  const files = yield* Effect.try({
    try: () => RECIPE_FILES.map((name) => [name, readFileSync(`${recipeFolder}${name}`, "utf8")] as const),
    catch: (error) =>
      new ImageBuildFailed({
        message: `Cannot read the image recipe in ${recipeFolder} (${String(error)}): ` +
          "run this from a checkout of parley, where deploy/sandbox-image/ holds it"
      })
  })
  const hash = createHash("sha256")
  for (const [name, text] of files) hash.update(`${name}\0${text}\0`)
  const content = `sha256:${hash.digest("hex")}`
  const text = Object.fromEntries(files) as Record<(typeof RECIPE_FILES)[number], string>
  return {
    content,
    packages: lines(text.packages).map((line) => line.split(/\s+/)[0]!),
    changes: [...lines(text.changes), `LABEL ${contentLabel}=${content}`],
    rootfsScript: `${recipeFolder}rootfs.sh`
  } satisfies ImageRecipe
})

/** `name[:tag]` as the Engine API takes it: a port in a registry's host is not a tag. */
export const splitImageName = (name: string): { readonly repo: string; readonly tag: string } => {
  const colon = name.lastIndexOf(":")
  return colon > name.lastIndexOf("/")
    ? { repo: name.slice(0, colon), tag: name.slice(colon + 1) }
    : { repo: name, tag: "latest" }
}
