import { expect } from "vitest"
import type { Reply } from "../../../src/demo/upstream/types.ts"
import { chunk, sse, SSE_DONE, stop, usageChunk } from "./frames.ts"
import { completes, type Scenario, types } from "./streamScenarios.ts"

const raw = (...body: Array<string>): Reply => ({ type: "raw", body })

/** Streams no scripted answer sends: odd chunks and line ends, HTTP errors, a cut connection. */
export const oddStreams: ReadonlyArray<Scenario> = [
  {
    name: "an error chunk mid-stream",
    replies: [raw(
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "Hello" }),
      sse({ error: { message: "The model is overloaded", type: "server_error", code: 529, extra: true } }),
      chunk({ content: " again" }),
      stop,
      SSE_DONE
    )],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome)).toContain("error")
    }
  },
  {
    name: "an unparsable chunk, an invalid one and a forbidden key",
    replies: [raw(
      chunk({ content: "a" }),
      "data: {not json}\n\n",
      sse({ choices: "nope" }),
      sse({ choices: [{ delta: { role: "robot" } }] }),
      "data: {\"__proto__\": {\"x\": 1}, \"choices\": []}\n\n",
      chunk({ content: "b" }),
      chunk({}, "stop"),
      SSE_DONE
    )],
    options: { includeRawChunks: true },
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "error")).toHaveLength(4)
    }
  },
  {
    name: "a finish reason, then a chunk that does not parse: the finish reason is error",
    replies: [raw(chunk({ content: "a" }), chunk({}, "stop"), "data: {\"choices\": [\n\n", SSE_DONE)],
    check: (outcome) => {
      completes(outcome)
      expect(outcome.parts.at(-1)).toMatchObject({ finishReason: { unified: "error" } })
    }
  },
  {
    name: "content parts, thinking, a refusal and Gemini's thought signature",
    replies: [raw(
      chunk({
        role: "",
        content: [{ type: "thinking", thinking: [{ type: "text", text: "hmm" }, { type: "image" }] }]
      }),
      chunk({ content: [{ type: "text", text: "Sure" }, { type: "other" }] }),
      chunk({ refusal: "I cannot do that" }),
      chunk({ refusal: false, reasoning: "more thought" }),
      chunk({
        tool_calls: [{
          index: 0,
          id: "g1",
          function: { name: "weather", arguments: "{}" },
          extra_content: { google: { thought_signature: "sig-1" } }
        }]
      }),
      chunk({}, "stop"),
      SSE_DONE
    )],
    check: (outcome) => {
      completes(outcome)
      expect(JSON.stringify(outcome.parts)).toContain("content-filter")
    }
  },
  {
    name: "tool calls without index, with a late name, and arguments before the name",
    replies: [raw(
      chunk({ tool_calls: [{ id: "a1", function: { name: "weather", arguments: "{\"city\":" } }] }),
      chunk({ tool_calls: [{ function: { arguments: "\"Oslo\"}" } }] }),
      chunk({ tool_calls: [{ index: 1, id: "b1", function: { arguments: "{\"x\"" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: "time", arguments: ":1}" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: "" } }] }),
      chunk({}, "tool_calls"),
      usageChunk({
        prompt_tokens: 5,
        completion_tokens: 4,
        completion_tokens_details: { accepted_prediction_tokens: 2, rejected_prediction_tokens: 1 }
      }),
      SSE_DONE
    )],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "tool-call")).toHaveLength(2)
    }
  },
  {
    name: "a tool call that never gets a name",
    replies: [raw(chunk({ tool_calls: [{ index: 0, id: "n1", function: { arguments: "{}" } }] }), chunk({}, "stop"))],
    check: (outcome) => expect(outcome.streamError).toBeDefined()
  },
  {
    name: "no finish reason, and a placeholder chunk without metadata",
    replies: [raw(sse({ choices: [] }), chunk({ content: "x" }), SSE_DONE)],
    check: (outcome) =>
      expect(outcome.parts).toContainEqual({
        type: "error",
        error: expect.objectContaining({ message: "Response stream ended without a finish reason." })
      })
  },
  {
    name: "CRLF and CR line ends, comments, other fields, multi-line data and a last event left open",
    replies: [{
      type: "raw",
      chunkDelayMs: 5,
      body: [
        "\uFEFF: a comment\r\nevent: message\r\nid: 1\r\nretry: 100\r\n",
        "data: {\"choices\":[{\"delta\":{\"content\":\"cr\"}}]}\r",
        "\n\r\ndata: {\"choices\":[{\"delta\":\r",
        "data: {\"content\":\"lf\"}}]}\n\ndata\ndata:{\"choices\":[]}\n\n",
        chunk({ content: "é😀" }).slice(0, 40),
        chunk({ content: "é😀" }).slice(40),
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\r\r",
        "data: {\"choices\":[{\"delta\":{\"content\":\"never\"}}]}\n"
      ]
    }],
    check: (outcome) => {
      completes(outcome)
      expect(types(outcome).filter((type) => type === "text-delta")).toHaveLength(3)
    }
  },
  ...[400, 401, 404, 429, 500, 503].map((status): Scenario => ({
    name: `HTTP ${status}`,
    replies: [{ type: "error", status, ...(status === 429 ? { retryAfter: 2 } : {}) }],
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  })),
  {
    name: "HTTP 500 with a JSON body not in the error structure",
    replies: [{ type: "error", status: 500, body: { detail: "nope" } }],
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  },
  {
    name: "HTTP 502 with a text body",
    replies: [{ type: "raw", status: 502, headers: { "content-type": "text/plain" }, body: "Bad gateway" }],
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  },
  {
    name: "HTTP 500 with an empty body",
    replies: [{ type: "raw", status: 500, body: "  " }],
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  },
  {
    name: "HTTP 204 without a body",
    replies: [{ type: "raw", status: 204, body: "" }],
    check: (outcome) => expect(outcome.rejected).toBeDefined()
  },
  {
    name: "a stream broken off after three chunks",
    replies: [{ type: "broken", afterChunks: 3, chunkDelayMs: 5 }],
    check: (outcome) => {
      expect(outcome.streamError).toBeDefined()
      expect(types(outcome)).toContain("text-delta")
    }
  }
]
