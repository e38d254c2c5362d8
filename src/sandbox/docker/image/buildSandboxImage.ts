import type Dockerode from "dockerode"
import { Effect } from "effect"
import { connectEngine } from "./engineConnection.ts"
import { ImageBuildFailed } from "./imageErrors.ts"
import { contentLabel, type ImageRecipe, readRecipe, splitImageName } from "./imageRecipe.ts"
import { importRootfs } from "./importRootfs.ts"
import { makeRootfs, type Progress } from "./makeRootfs.ts"

export interface BuildOptions {
  /** The image's name, `name[:tag]`. */
  readonly tag: string
  /** Build even when an image of the same content exists. */
  readonly force: boolean
  /** A folder that keeps the root filesystem for builds on other engines (`--rootfs-cache`). */
  readonly rootfsCache: string | undefined
}

export interface BuildResult {
  readonly tag: string
  readonly id: string
  readonly content: string
  readonly engine: string
  /** `built`: made now; `current`: the tag already had this content; `tagged`: another tag had it. */
  readonly outcome: "built" | "current" | "tagged"
}

const short = (id: string) => id.replace(/^sha256:/, "").slice(0, 12)

const inspectOrUndefined = (docker: Dockerode, name: string) =>
  Effect.promise(() => docker.getImage(name).inspect().catch(() => undefined))

const failedTo = (what: string) => (error: unknown) =>
  new ImageBuildFailed({ message: `The engine refused to ${what}: ${error instanceof Error ? error.message : error}` })

/** An image of the engine made from this recipe, if any: found by its content label. */
const sameContent = Effect.fn("sameContent")(function*(docker: Dockerode, recipe: ImageRecipe) {
  const images = yield* Effect.tryPromise({
    try: () => docker.listImages({ filters: { label: [`${contentLabel}=${recipe.content}`] } }),
    catch: failedTo("list its images")
  })
  return images[0]?.Id
})

const tagImage = (docker: Dockerode, id: string, name: string) =>
  Effect.tryPromise({ try: () => docker.getImage(id).tag(splitImageName(name)), catch: failedTo(`tag ${id}`) })

/**
 * The image an image name had before this build, when parley made it and no
 * tag is left on it: removed, unless a container still uses it (a running
 * sandbox keeps it; `docker image prune` takes it later).
 */
const dropReplaced = Effect.fn("dropReplaced")(function*(docker: Dockerode, previous: string, progress: Progress) {
  const image = yield* inspectOrUndefined(docker, previous)
  if (image === undefined || image.Config?.Labels?.[contentLabel] === undefined) return
  if ((image.RepoTags ?? []).some((tag) => !tag.endsWith("<none>"))) return
  const removed = yield* Effect.promise(() => docker.getImage(previous).remove().then(() => true, () => false))
  progress(
    removed
      ? `Removed the image it replaces (${short(previous)}).`
      : `Kept the image it replaces (${short(previous)}): containers still use it.`
  )
})

/**
 * `parley sandbox image`: the default sandbox image on the configured engine,
 * from deploy/sandbox-image/ (Debian's packages on this host, mmdebstrap, an
 * import through the Engine API), unless an image of the same content is
 * there already.
 */
export const buildSandboxImage = Effect.fn("buildSandboxImage")(function*(options: BuildOptions, progress: Progress) {
  const recipe = yield* readRecipe()
  const engine = yield* connectEngine()
  const { docker } = engine
  const done = (id: string, outcome: BuildResult["outcome"]): BuildResult => ({
    tag: options.tag,
    id,
    content: recipe.content,
    engine: `${engine.name} at ${engine.address}`,
    outcome
  })
  progress(`Engine: ${engine.name} at ${engine.address}.`)
  const current = yield* inspectOrUndefined(docker, options.tag)
  if (!options.force) {
    if (current?.Config?.Labels?.[contentLabel] === recipe.content) return done(current.Id, "current")
    const same = yield* sameContent(docker, recipe)
    if (same !== undefined) {
      yield* tagImage(docker, same, options.tag)
      return done(same, "tagged")
    }
  }
  const started = Date.now()
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`
  const id = yield* Effect.scoped(Effect.gen(function*() {
    const tarball = yield* makeRootfs(recipe, options.rootfsCache, progress)
    progress(`[2/2] Importing it into the engine (${seconds()} so far)…`)
    return yield* importRootfs(docker, tarball, recipe.changes, progress)
  }))
  yield* tagImage(docker, id, options.tag)
  if (current !== undefined && current.Id !== id) yield* dropReplaced(docker, current.Id, progress)
  progress(`Done in ${seconds()}.`)
  return done(id, "built")
})
