import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { parseJsonBody } from "../domain/ChatRequest.ts"
import type { MalformedJson } from "../domain/requestErrors.ts"
import { BodyTooLarge, EmptyBody, UnreadableBody } from "./requestErrors.ts"

const tooLarge = (limit: number) =>
  new BodyTooLarge({ limit, advice: "Send fewer or smaller messages, or prune=true." })

const parse = (text: string) =>
  text.length === 0
    ? Effect.fail(new EmptyBody())
    : parseJsonBody(text)

/**
 * Reads a JSON body under a byte limit (docs/DESIGN.md §3.9). A declared length over the limit is refused before
 * anything is read; a client that asked to wait (`Expect: 100-continue`) is
 * told to send only once the body is wanted.
 */
export const readJsonBody = (req: IncomingMessage, res: ServerResponse, limit: number) =>
  Effect.callback<unknown, BodyTooLarge | EmptyBody | UnreadableBody | MalformedJson>((resume) => {
    if (Number(req.headers["content-length"]) > limit) return resume(Effect.fail(tooLarge(limit)))
    if (req.headers.expect?.toLowerCase() === "100-continue" && !res.headersSent) res.writeContinue()
    const chunks: Array<Buffer> = []
    let size = 0
    const done = () => {
      req.off("data", onData)
      req.off("end", onEnd)
      req.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      done()
      resume(Effect.fail(tooLarge(limit)))
    }
    const onEnd = () => {
      done()
      resume(parse(chunks.length === 1 ? chunks[0]!.toString() : Buffer.concat(chunks).toString()))
    }
    const onError = () => {
      done()
      resume(Effect.fail(new UnreadableBody()))
    }
    req.on("data", onData)
    req.on("end", onEnd)
    req.on("error", onError)
    return Effect.sync(done)
  })

// A body the answer did not need may still be arriving: close the connection
// gracefully rather than read an unbounded rest (a 401 or 413 sent early).
const CLOSE_GRACE_MS = 1_000

/** Call once the response is written: drops the connection if the request body was left unread. */
export const closeIfBodyUnread = (req: IncomingMessage) => {
  if (req.complete || req.destroyed) return
  const socket = req.socket
  socket.end()
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref()
  socket.once("close", () => clearTimeout(timer))
}
