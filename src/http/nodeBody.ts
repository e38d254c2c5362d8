import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
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

// Up to this much of a body the answer did not need is read and dropped, so the connection carries the client's
// next request; reading more for a refused request (a 401, a 413) would hand its bandwidth to whoever sends it.
const DRAIN_LIMIT_BYTES = 1024 * 1024

// A closing connection goes on reading (and dropping) for this long: closing it on a client still sending makes
// the kernel answer with a reset, which can destroy the answer before the client reads it.
const CLOSE_GRACE_MS = 1_000

// Made here, not where it is assigned: a closure assigned to a property as it is made is pretenured (DESIGN §12).
const lingeringClose = (socket: Socket) => () => {
  socket.end()
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref()
  socket.once("close", () => clearTimeout(timer))
}

/**
 * Call before an answer that did not read the whole body (a 401, a 413).
 * A small declared body is read and dropped, and the connection stays open
 * for the client's next request. A bigger one, one of unknown length, or one
 * a client holds back until told to continue is not read: the answer says
 * `Connection: close`, and the connection closes gently, still dropping
 * what arrives for a moment, so the client reads the answer.
 */
export const settleUnreadBody = (req: IncomingMessage, res: ServerResponse) => {
  if (req.complete || req.destroyed || res.headersSent) return
  const declared = Number(req.headers["content-length"])
  if (declared <= DRAIN_LIMIT_BYTES && req.headers.expect === undefined) return void req.resume()
  res.setHeader("connection", "close")
  // Node ends a `Connection: close` answer with destroySoon, which closes as soon as its last byte left.
  req.socket.destroySoon = lingeringClose(req.socket)
}
