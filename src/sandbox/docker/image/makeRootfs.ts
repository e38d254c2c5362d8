import { Effect } from "effect"
import { spawn } from "node:child_process"
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync
} from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { ImageBuildFailed } from "./imageErrors.ts"
import { type ImageRecipe, recipeFolderName } from "./imageRecipe.ts"

/** Where a long operation tells the operator how far it is, one line at a time. */
export type Progress = (line: string) => void

const onPath = (program: string): boolean =>
  (process.env["PATH"] ?? "").split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK)
      return true
    } catch {
      return false
    }
  })

const KEEP_LINES = 15

/** Runs the recipe's rootfs.sh into `tarball`, passing its progress lines (`I: downloading packages…`) on. */
const runRootfsScript = (recipe: ImageRecipe, tarball: string, progress: Progress) =>
  Effect.callback<void, ImageBuildFailed>((resume, signal) => {
    const child = spawn("bash", [recipe.rootfsScript, tarball], { stdio: ["ignore", "ignore", "pipe"], signal })
    const last: Array<string> = []
    let partial = ""
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n")
      partial = lines.pop()!
      for (const line of lines.filter((line) => line.trim() !== "")) {
        last.push(line)
        if (last.length > KEEP_LINES) last.shift()
        progress(`  ${line}`)
      }
    })
    child.once(
      "error",
      (error) =>
        resume(Effect.fail(new ImageBuildFailed({ message: `Cannot run ${recipe.rootfsScript}: ${error.message}` })))
    )
    child.once("close", (code) => {
      if (code === 0) return resume(Effect.void)
      resume(Effect.fail(
        new ImageBuildFailed({
          message: `Making the root filesystem failed (${recipe.rootfsScript} exited with ${code}); its last lines:\n` +
            [...last, partial].filter((line) => line !== "").map((line) => `  ${line}`).join("\n") +
            "\nmmdebstrap needs root (or unprivileged user namespaces) and a Debian mirror in this host's apt sources."
        })
      ))
    })
  })

/** A folder for this build's files, removed when the scope closes. */
const scratchFolder = (parent: string) =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(parent, "parley-image-"))),
    (folder) => Effect.sync(() => rmSync(folder, { recursive: true, force: true }))
  )

/**
 * The image's root filesystem as a tarball, made by the recipe's rootfs.sh
 * with mmdebstrap: in a temporary folder removed when the scope closes, or,
 * with `cache`, kept there under the recipe's content hash and taken from
 * there when it is (building on a second engine then only imports; deleting
 * it makes the next build fetch Debian's packages afresh).
 */
export const makeRootfs = Effect.fn("makeRootfs")(
  function*(recipe: ImageRecipe, cache: string | undefined, progress: Progress) {
    const cached = cache === undefined
      ? undefined
      : join(cache, `rootfs-${recipe.content.replace(/^sha256:/, "").slice(0, 16)}.tar`)
    if (cached !== undefined && existsSync(cached)) {
      const made = statSync(cached).mtime.toISOString().slice(0, 16).replace("T", " ")
      progress(
        `[1/2] Taking the root filesystem this recipe made at ${made} UTC: ${cached} (delete it to start afresh).`
      )
      return cached
    }
    if (!onPath("mmdebstrap")) {
      return yield* new ImageBuildFailed({
        message: "mmdebstrap is missing: it makes the image's root filesystem from Debian's packages. " +
          "Install it with `apt-get install mmdebstrap`, then run this again."
      })
    }
    progress(
      `[1/2] Making the root filesystem: Debian bookworm and ${recipe.packages.length} packages of ` +
        `${recipeFolderName}/packages, from this host's apt sources (mmdebstrap; a minute or a few)…`
    )
    if (cache !== undefined) mkdirSync(cache, { recursive: true })
    const scratch = yield* scratchFolder(cache ?? tmpdir())
    const tarball = join(scratch, "rootfs.tar")
    yield* runRootfsScript(recipe, tarball, progress)
    if (cache === undefined || cached === undefined) return tarball
    // Only the newest recipe's tarball is kept.
    for (const name of readdirSync(cache).filter((name) => /^rootfs-[0-9a-f]+\.tar$/.test(name))) {
      rmSync(join(cache, name), { force: true })
    }
    renameSync(tarball, cached)
    progress(`  kept in ${cached} for builds on other engines`)
    return cached
  }
)
