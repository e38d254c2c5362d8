import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody } from "../../../src/demo/upstream/readBody.ts"

/**
 * A scripted provider on loopback that speaks one provider's own wire
 * protocol (its paths, key header, JSON and stream shapes, error bodies), so
 * that the real `@ai-sdk/*` package is tested over HTTP, not through a double.
 * The shared part: the server, the queue of scripted answers, the recorded
 * requests; each wire (`gemini.ts`…) says how a script is written on it.
 */

/** Token counts a scripted answer reports, in the provider's own usage fields. */
export interface ScriptUsage {
  readonly input: number
  readonly output: number
  /** Input tokens read from the provider's cache (part of `input`). */
  readonly cached?: number
  /** Thinking tokens (part of `output` as parley and the AI SDK count it). */
  readonly reasoning?: number
}

export interface ScriptCall {
  readonly id?: string
  readonly name: string
  readonly arguments: Record<string, unknown>
}

export type Script =
  & {
    /** Wait this long before answering at all. */
    readonly delayMs?: number
    /** Wait this long between stream events. */
    readonly chunkDelayMs?: number
  }
  & (
    | {
      readonly type: "text"
      readonly text: string
      /** Thinking before the text, in the wire's own reasoning parts. */
      readonly reasoning?: string
      readonly usage?: ScriptUsage
      /** The answer stopped at the output limit. */
      readonly length?: boolean
    }
    | {
      readonly type: "tool-calls"
      readonly calls: ReadonlyArray<ScriptCall>
      readonly text?: string
      /** Thinking before the calls (which Anthropic signs, to be sent back with the calls' results). */
      readonly reasoning?: string
      readonly usage?: ScriptUsage
    }
    /** The provider refuses with its own error body; `message` replaces its usual text. */
    | { readonly type: "error"; readonly status: number; readonly message?: string; readonly retryAfter?: number }
    /** A stream begun with 200 whose first event is the provider's own error event (for wires that have one). */
    | { readonly type: "stream-error"; readonly status: number; readonly message: string }
  )

export type ScriptedAnswer = Exclude<Script, { type: "error" | "stream-error" }>

/** One request a scripted provider received. */
export interface ScriptedRequest {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: any
  /** The model the request named (in its path or its body). */
  readonly model: string
  readonly streaming: boolean
}

/** What a wire makes of a script: a status, headers and the body's pieces (each its own write; bytes for binary framing). */
export interface WireAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  readonly pieces: ReadonlyArray<string | Uint8Array>
}

export interface Wire {
  /** The base URL's path, as the provider package's `baseURL` setting takes it (`/v1beta`). */
  readonly basePath: string
  /** Whether the request carries the key where this provider looks for it. */
  readonly authorized: (headers: IncomingHttpHeaders, apiKey: string) => boolean
  /** The provider's answer to a request with a wrong key. */
  readonly unauthorized: () => WireAnswer
  /** A chat request's model and whether it streams; undefined: not a chat route. */
  readonly chatRoute: (
    method: string,
    url: URL,
    body: any
  ) => { readonly model: string; readonly streaming: boolean } | undefined
  readonly answer: (script: Script, request: ScriptedRequest, nextId: () => string) => WireAnswer
}

export interface ScriptedUpstream {
  /** The base URL to give the provider package (`http://127.0.0.1:PORT/v1beta`). */
  readonly url: string
  readonly requests: ReadonlyArray<ScriptedRequest>
  /** Answers, one per chat request, first in first out; an empty queue answers 500. */
  enqueue(...scripts: Array<Script>): void
  close(): Promise<void>
}

/** One delta per word (spaces kept with the word before them). */
export const words = (text: string): Array<string> => text.match(/\s*\S+\s*/g) ?? (text === "" ? [] : [text])

/** A server-sent event named by its `type`, which its data repeats (Anthropic's and the Responses API's). */
export const namedEvent = (type: string, fields: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`

const wait = (ms: number | undefined) =>
  ms === undefined || ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms))

export const startScripted = async (wire: Wire, options: { readonly apiKey: string }): Promise<ScriptedUpstream> => {
  const requests: Array<ScriptedRequest> = []
  const queue: Array<Script> = []
  let sequence = 0
  const nextId = () => `${++sequence}`

  const write = async (res: ServerResponse, answer: WireAnswer, chunkDelayMs: number | undefined) => {
    res.writeHead(answer.status, answer.headers)
    for (const [i, piece] of answer.pieces.entries()) {
      if (i > 0) await wait(chunkDelayMs)
      if (res.destroyed) return
      res.write(piece)
    }
    res.end()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://upstream")
    const text = await readBody(req)
    if (!wire.authorized(req.headers, options.apiKey)) return write(res, wire.unauthorized(), 0)
    let body: any
    try {
      body = text === "" ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    const route = wire.chatRoute(req.method ?? "GET", url, body)
    if (route === undefined) {
      res.writeHead(404, { "content-type": "application/json" })
      return void res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }))
    }
    const request: ScriptedRequest = { path: url.pathname, headers: req.headers, body, ...route }
    requests.push(request)
    const script: Script = queue.shift() ??
      { type: "error", status: 500, message: "the scripted upstream has no answer queued" }
    await wait(script.delayMs)
    await write(res, wire.answer(script, request, nextId), script.chunkDelayMs)
  }

  const server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${wire.basePath}`,
    requests,
    enqueue: (...scripts) => void queue.push(...scripts),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)))
        server.closeAllConnections()
      })
  }
}
