import { EventStreamCodec } from "@smithy/eventstream-codec"
import { fromUtf8, toUtf8 } from "@smithy/util-utf8"
import type { IncomingHttpHeaders } from "node:http"
import {
  type Script,
  type ScriptedAnswer,
  type ScriptedUpstream,
  type ScriptUsage,
  startScripted,
  type Wire,
  type WireAnswer,
  words
} from "./scripted.ts"

/**
 * Amazon Bedrock's Converse API, as `@ai-sdk/amazon-bedrock` talks it: `POST
 * /model/{modelId}/converse` (a whole answer) and `/converse-stream` (AWS's
 * binary event stream: each event a frame with `:event-type`, its JSON
 * padded with `p`; an error begun with 200 an `exception` frame), content
 * blocks of `reasoningContent` (signed), `text` and `toolUse`, `usage` whose
 * `inputTokens` leave out cache reads, and `{message}` error bodies typed in
 * `x-amzn-errortype`. A request carries a Bedrock API key as a bearer token,
 * or is SigV4-signed: its `Authorization` and `x-amz-date` are checked for
 * shape and scope (access key id, region, service), not recomputed.
 */

/** The signature Bedrock (Claude's thinking) puts on reasoning: the next request must send it back. */
export const REASONING_SIGNATURE = "QmVkcm9ja1NpZ25hdHVyZU9mVGhlUmVhc29uaW5n"

const ERROR_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException"
}

const MESSAGES: Record<number, string> = {
  429: "Too many requests, please wait before trying again.",
  500: "The server encountered an internal error while processing the request.",
  503: "Bedrock is unable to process your request."
}

const errorType = (status: number) => ERROR_TYPES[status] ?? "ValidationException"

const errorAnswer = (status: number, message?: string, retryAfter?: number): WireAnswer => ({
  status,
  headers: {
    "content-type": "application/json",
    "x-amzn-errortype": `${errorType(status)}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    "x-amzn-requestid": "9d5c3f3e-parley-test",
    ...(retryAfter === undefined ? {} : { "retry-after": String(retryAfter) })
  },
  pieces: [JSON.stringify({ message: message ?? MESSAGES[status] ?? "Malformed input request." })]
})

const usageOf = (usage: ScriptUsage | undefined) => {
  const input = usage?.input ?? 10
  const cached = usage?.cached ?? 0
  const output = usage?.output ?? 5
  return {
    inputTokens: input - cached,
    outputTokens: output,
    totalTokens: input + output,
    ...(cached === 0 ? {} : { cacheReadInputTokens: cached, cacheWriteInputTokens: 0 })
  }
}

const stopReasonOf = (script: ScriptedAnswer) =>
  script.type === "tool-calls" ? "tool_use" : script.length === true ? "max_tokens" : "end_turn"

const toolUseId = (n: number) => `tooluse_parleyTest${String(n).padStart(6, "0")}`

const codec = new EventStreamCodec(toUtf8, fromUtf8)

const frame = (headers: Record<string, string>, payload: object): Uint8Array =>
  codec.encode({
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, { type: "string" as const, value }])
    ),
    body: fromUtf8(JSON.stringify(payload))
  })

// AWS pads each event with `p` so that its length says nothing about its content.
const event = (type: string, payload: object) =>
  frame({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }, {
    ...payload,
    p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123".slice(0, 8 + (type.length % 20))
  })

const exception = (status: number, message: string) => {
  const type = errorType(status)
  return frame({
    ":exception-type": `${type[0]!.toLowerCase()}${type.slice(1)}`,
    ":content-type": "application/json",
    ":message-type": "exception"
  }, { message })
}

const streamFrames = (script: ScriptedAnswer, nextId: () => string): Array<Uint8Array> => {
  const frames = [event("messageStart", { role: "assistant" })]
  let index = 0
  if (script.reasoning !== undefined && script.reasoning !== "") {
    for (const piece of words(script.reasoning)) {
      frames.push(
        event("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text: piece } } })
      )
    }
    frames.push(
      event("contentBlockDelta", {
        contentBlockIndex: index,
        delta: { reasoningContent: { signature: REASONING_SIGNATURE } }
      }),
      event("contentBlockStop", { contentBlockIndex: index++ })
    )
  }
  if (script.text !== undefined && script.text !== "") {
    for (const piece of words(script.text)) {
      frames.push(event("contentBlockDelta", { contentBlockIndex: index, delta: { text: piece } }))
    }
    frames.push(event("contentBlockStop", { contentBlockIndex: index++ }))
  }
  for (const call of script.type === "tool-calls" ? script.calls : []) {
    const input = JSON.stringify(call.arguments)
    const half = Math.ceil(input.length / 2)
    frames.push(
      event("contentBlockStart", {
        contentBlockIndex: index,
        start: { toolUse: { toolUseId: call.id ?? toolUseId(Number(nextId())), name: call.name } }
      }),
      ...[input.slice(0, half), input.slice(half)].map((piece) =>
        event("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input: piece } } })
      ),
      event("contentBlockStop", { contentBlockIndex: index++ })
    )
  }
  frames.push(
    event("messageStop", { stopReason: stopReasonOf(script) }),
    event("metadata", { usage: usageOf(script.usage), metrics: { latencyMs: 412 } })
  )
  return frames
}

const wholeContent = (script: ScriptedAnswer, nextId: () => string) => [
  ...(script.reasoning === undefined || script.reasoning === ""
    ? []
    : [{ reasoningContent: { reasoningText: { text: script.reasoning, signature: REASONING_SIGNATURE } } }]),
  ...(script.text === undefined || script.text === "" ? [] : [{ text: script.text }]),
  ...(script.type === "tool-calls"
    ? script.calls.map((call) => ({
      toolUse: { toolUseId: call.id ?? toolUseId(Number(nextId())), name: call.name, input: call.arguments }
    }))
    : [])
]

const ROUTE = /^\/model\/([^/]+)\/(converse|converse-stream)$/

/** How a request proves who sends it: a Bedrock API key, or SigV4 with this access key id in `region`. */
export interface BedrockAuth {
  readonly region: string
  readonly sessionToken?: string
}

const signedBy = (headers: IncomingHttpHeaders, accessKeyId: string, auth: BedrockAuth) => {
  const signature = new RegExp(
    `^AWS4-HMAC-SHA256 Credential=${accessKeyId}/(\\d{8})/${auth.region}/bedrock/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$`
  ).exec(headers.authorization ?? "")
  const date = /^(\d{8})T\d{6}Z$/.exec(String(headers["x-amz-date"] ?? ""))
  if (signature === null || date === null || signature[1] !== date[1]) return false
  const signed = signature[2]!.split(";")
  const token = auth.sessionToken
  return signed.includes("host") && signed.includes("x-amz-date") &&
    (token === undefined || (headers["x-amz-security-token"] === token && signed.includes("x-amz-security-token")))
}

export const bedrockWire = (auth: BedrockAuth): Wire => ({
  basePath: "",
  authorized: (headers, credential) =>
    headers.authorization === `Bearer ${credential}` || signedBy(headers, credential, auth),
  unauthorized: () => errorAnswer(403, "The security token included in the request is invalid."),
  chatRoute: (method, url) => {
    const match = ROUTE.exec(url.pathname)
    if (method !== "POST" || match === null) return undefined
    return { model: decodeURIComponent(match[1]!), streaming: match[2] === "converse-stream" }
  },
  answer: (script: Script, request, nextId) => {
    if (script.type === "error") return errorAnswer(script.status, script.message, script.retryAfter)
    const stream = { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": "req-stream" }
    if (script.type === "stream-error") {
      return { status: 200, headers: stream, pieces: [exception(script.status, script.message)] }
    }
    if (request.streaming) return { status: 200, headers: stream, pieces: streamFrames(script, nextId) }
    return {
      status: 200,
      headers: { "content-type": "application/json", "x-amzn-requestid": "req-whole" },
      pieces: [JSON.stringify({
        output: { message: { role: "assistant", content: wholeContent(script, nextId) } },
        stopReason: stopReasonOf(script),
        usage: usageOf(script.usage),
        metrics: { latencyMs: 412 }
      })]
    }
  }
})

/**
 * A scripted Bedrock runtime on loopback; its `url` is the `baseURL` for
 * `@ai-sdk/amazon-bedrock`. `credential` is the Bedrock API key or the
 * access key id it expects.
 */
export const startBedrock = (
  credential: string,
  auth: BedrockAuth = { region: "us-east-1" }
): Promise<ScriptedUpstream> => startScripted(bedrockWire(auth), { apiKey: credential })
