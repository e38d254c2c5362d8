import type Dockerode from "dockerode"
import { Effect } from "effect"
import { createReadStream, statSync } from "node:fs"
import { ImageBuildFailed } from "./imageErrors.ts"
import type { Progress } from "./makeRootfs.ts"

const MB = 1_000_000

/** The engine's answer to an import: JSON objects, one a line; the last status is the new image's id. */
const importedId = (answer: string): { readonly id?: string; readonly error?: string } => {
  let result: { id?: string; error?: string } = {}
  for (const line of answer.split(/\r?\n/).filter((line) => line.trim() !== "")) {
    try {
      const message = JSON.parse(line) as { status?: unknown; error?: unknown; errorDetail?: { message?: unknown } }
      if (typeof message.error === "string") result = { error: message.error }
      else if (typeof message.status === "string" && /^sha256:[0-9a-f]{64}$/.test(message.status)) {
        result = { id: message.status }
      }
    } catch {
      result = { error: line }
    }
  }
  return result
}

/**
 * Sends the root filesystem's tarball to the engine (`POST /images/create?fromSrc=-`,
 * with the recipe's `changes`): an image with no parent, untagged, and its id.
 * Neither a registry nor the engine's network takes part.
 */
export const importRootfs = Effect.fn("importRootfs")(
  function*(docker: Dockerode, tarball: string, changes: ReadonlyArray<string>, progress: Progress) {
    const size = statSync(tarball).size
    let sent = 0
    let quarter = 0
    const file = createReadStream(tarball).on("data", (chunk) => {
      sent += chunk.length
      // A line at each quarter: an import takes seconds, a slow remote engine minutes.
      for (; quarter < 4 && sent >= (size * (quarter + 1)) / 4; quarter++) {
        progress(`  sent ${Math.round(sent / MB)} of ${Math.round(size / MB)} MB`)
      }
    })
    const failed = (reason: string) =>
      new ImageBuildFailed({
        message: `The engine did not import the root filesystem: ${reason}. ` +
          "Check that it has room (`docker system df`) and run this again."
      })
    const answer = yield* Effect.tryPromise({
      try: async (signal) => {
        const stream = await docker.importImage(file, { changes, message: "parley sandbox image", abortSignal: signal })
        let text = ""
        for await (const chunk of stream) text += String(chunk)
        return text
      },
      catch: (error) => failed(error instanceof Error ? error.message : String(error))
    }).pipe(Effect.ensuring(Effect.sync(() => file.destroy())))
    const { id, error } = importedId(answer)
    if (id === undefined) return yield* failed(error ?? `it answered ${JSON.stringify(answer.slice(0, 300))}`)
    return id
  }
)
