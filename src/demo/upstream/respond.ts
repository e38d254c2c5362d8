import type { ServerResponse } from "node:http"
import type { LongProgress, Reply } from "./types.ts"
import {
  brokenFrames,
  completionBody,
  endFrames,
  errorBody,
  type ResponseMeta,
  streamFrames,
  textFrame,
  usageFor
} from "./wire.ts"

/** What one chat request needs to be answered. */
export interface Exchange {
  readonly res: ServerResponse
  readonly body: any
  readonly meta: ResponseMeta
  readonly nextId: () => string
  /** Called before the upstream destroys a socket itself, so that is not taken for a client abort. */
  readonly onBreak: () => void
}

const JSON_HEADERS = { "content-type": "application/json" }
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" }

/** Resolves after `ms`, or as soon as the response closes. */
const wait = (ms: number | undefined, res: ServerResponse): Promise<void> => {
  if (ms === undefined || ms <= 0 || res.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      res.off("close", done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    res.once("close", done)
  })
}

export const writeJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { ...JSON_HEADERS, ...headers })
  res.end(JSON.stringify(body))
}

/** Without a chunk delay the whole stream goes out in one write: benchmarks push thousands of these a second. */
const writeFrames = async (res: ServerResponse, frames: ReadonlyArray<string>, chunkDelayMs: number | undefined) => {
  res.writeHead(200, SSE_HEADERS)
  if (chunkDelayMs === undefined || chunkDelayMs <= 0) {
    res.end(frames.join(""))
    return
  }
  res.flushHeaders()
  for (const [i, frame] of frames.entries()) {
    if (res.destroyed) return
    if (i > 0) await wait(chunkDelayMs, res)
    if (res.destroyed) return
    res.write(frame)
  }
  res.end()
}

/** Resolves once the response's buffer drained, or it closed. */
export const drained = (res: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = () => {
      res.off("drain", done)
      res.off("close", done)
      resolve()
    }
    res.on("drain", done)
    res.on("close", done)
  })

const writeLong = async (exchange: Exchange, delta: string, count: number, progress: LongProgress) => {
  const { res, meta } = exchange
  res.writeHead(200, SSE_HEADERS)
  for (let i = 0; i < count; i++) {
    if (res.destroyed) return
    progress.written++
    if (res.write(textFrame(meta, delta))) continue
    progress.waiting = true
    await drained(res)
    progress.waiting = false
  }
  res.end(endFrames(meta, { promptTokens: 1, completionTokens: count, cachedTokens: 0, reasoningTokens: 0 }))
}

const breakAfter = (exchange: Exchange, data: string | Uint8Array) => {
  const { res } = exchange
  res.write(data, () => {
    exchange.onBreak()
    res.socket?.destroy()
  })
}

export const writeReply = async (reply: Reply, exchange: Exchange): Promise<void> => {
  const { res, body, meta, nextId } = exchange
  await wait(reply.delayMs, res)
  if (res.destroyed) return
  const streaming = body?.stream === true
  switch (reply.type) {
    case "error": {
      const headers: Record<string, string> = reply.retryAfter === undefined
        ? {}
        : { "retry-after": String(reply.retryAfter) }
      return writeJson(res, reply.status, reply.body ?? errorBody(reply.status), headers)
    }
    case "raw": {
      const type = streaming ? SSE_HEADERS : JSON_HEADERS
      res.writeHead(reply.status ?? 200, { ...type, ...reply.headers })
      const pieces = typeof reply.body === "string" ? [reply.body] : reply.body
      for (const [i, piece] of pieces.entries()) {
        if (i > 0) await wait(reply.chunkDelayMs, res)
        if (res.destroyed) return
        if (reply.cut === true && i === pieces.length - 1) return breakAfter(exchange, piece)
        res.write(piece)
      }
      return void res.end()
    }
    case "long":
      return writeLong(exchange, reply.delta, reply.count, reply.progress ?? { written: 0, waiting: false })
    case "hang": {
      if (streaming) {
        res.writeHead(200, SSE_HEADERS)
        res.flushHeaders()
      }
      return
    }
    case "broken": {
      if (!streaming) {
        res.writeHead(200, JSON_HEADERS)
        return breakAfter(exchange, `{"id":"${meta.id}","object":"chat.completion","choices":[`)
      }
      const frames = brokenFrames(meta, reply.afterChunks)
      if (reply.chunkDelayMs === undefined || reply.chunkDelayMs <= 0) {
        res.writeHead(200, SSE_HEADERS)
        return breakAfter(exchange, frames.join(""))
      }
      res.writeHead(200, SSE_HEADERS)
      for (const frame of frames.slice(0, -1)) {
        if (res.destroyed) return
        res.write(frame)
        await wait(reply.chunkDelayMs, res)
      }
      if (res.destroyed) return
      return breakAfter(exchange, frames[frames.length - 1] ?? "")
    }
    default: {
      const usage = usageFor(reply, body)
      if (!streaming) return writeJson(res, 200, completionBody(reply, meta, usage, nextId))
      const includeUsage = body?.stream_options?.include_usage === true
      return writeFrames(res, streamFrames(reply, meta, includeUsage ? usage : undefined, nextId), reply.chunkDelayMs)
    }
  }
}
