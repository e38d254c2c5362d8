import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { InvalidHistory } from "../../../src/domain/requestErrors.ts"
import { approvalItemId } from "../../../src/protocols/responses/hostedMcp.ts"
import { toConversation } from "../../../src/protocols/responses/input.ts"
import type { ResponsesRequest } from "../../../src/protocols/responses/request.ts"
import { validBodies } from "./generators.ts"

type Input = Exclude<ResponsesRequest["input"], string>

const converted = (input: ResponsesRequest["input"], instructions?: string) => {
  const conversation = toConversation(instructions, input)
  if (!("messages" in conversation)) throw new Error(conversation.join("; "))
  return conversation
}

const user = (content: string) => ({ role: "user", content }) as const
const png = "data:image/png;base64,iVBORw0KGgo="
const request = { type: "mcp_approval_request", id: approvalItemId("apr1", "call_d"), server_label: "parley" } as const
const dangerous = { ...request, name: "dangerous", arguments: `{"text":"rm"}` }
const answer = (approve: boolean, reason?: string) =>
  ({
    type: "mcp_approval_response",
    approval_request_id: request.id,
    approve,
    ...(reason === undefined ? {} : { reason })
  }) as const
const asked = [
  { type: "tool-call", toolCallId: "call_d", toolName: "dangerous", input: { text: "rm" } },
  { type: "tool-approval-request", approvalId: "apr1", toolCallId: "call_d" }
] as const
const unanswered = (path: string) =>
  new InvalidHistory({
    path,
    problem: `is a call of tool "dangerous" (toolCallId "call_d") without its result: ` +
      `send the result in that part (state "output-available" or "output-error") or leave the call out`
  })

describe("toConversation: Responses input items as model messages", () => {
  it("takes a string as the user's message, and instructions as the system prompt", () => {
    assert.deepStrictEqual(converted("Hi", "Be brief."), {
      system: "Be brief.",
      messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }],
      origins: [0],
      places: [["input"]],
      approvals: [],
      problem: undefined
    })
    assert.deepStrictEqual(converted("").messages, [{ role: "user", content: [] }])
  })

  it("makes an assistant turn one assistant message and one tool message, a tool's images a user message after", () => {
    const conversation = converted([
      { type: "message", role: "developer", content: "Be kind." },
      user("Look"),
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Hm." }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Looking." }] },
      { type: "mcp_call", id: "call_e", server_label: "parley", name: "echo", arguments: "{}", output: "hi" },
      { type: "mcp_call", id: "call_f", server_label: "docs", name: "read", arguments: "null", error: "boom" },
      { type: "function_call", call_id: "c1", name: "shot", arguments: "" },
      {
        type: "function_call_output",
        call_id: "c1",
        output: [{ type: "input_text", text: "taken" }, { type: "input_image", image_url: png }]
      },
      { type: "message", role: "system", content: "Later." },
      {
        role: "user",
        content: [{ type: "input_text", text: "And?" }, { type: "input_image", image_url: "https://x.test/a" }]
      }
    ])
    assert.strictEqual(conversation.system, "Be kind.")
    assert.deepStrictEqual(conversation.messages, [
      { role: "user", content: [{ type: "text", text: "Look" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Hm.", providerOptions: { openai: { itemId: "rs_1" } } },
          { type: "text", text: "Looking." },
          { type: "tool-call", toolCallId: "call_e", toolName: "echo", input: {} },
          { type: "tool-call", toolCallId: "call_f", toolName: "docs__read", input: undefined },
          { type: "tool-call", toolCallId: "c1", toolName: "shot", input: {} }
        ]
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "call_e", toolName: "echo", output: { type: "text", value: "hi" } },
          {
            type: "tool-result",
            toolCallId: "call_f",
            toolName: "docs__read",
            output: { type: "error-text", value: "boom" }
          },
          { type: "tool-result", toolCallId: "c1", toolName: "shot", output: { type: "text", value: "taken" } }
        ]
      },
      { role: "user", content: [{ type: "file", mediaType: "image/png", data: { type: "url", url: new URL(png) } }] },
      { role: "system", content: "Later." },
      {
        role: "user",
        content: [
          { type: "text", text: "And?" },
          { type: "file", mediaType: "image/*", data: { type: "url", url: new URL("https://x.test/a") } }
        ]
      }
    ])
    assert.deepStrictEqual(conversation.origins, [1, 2, 2, 7, 8, 9])
    assert.deepStrictEqual(conversation.places, [
      ["input[1]"],
      ["input[2]", "input[3].content[0]", "input[4]", "input[5]", "input[6]"],
      ["input[4]", "input[5]", "input[7]"],
      ["input[7].output[1]"],
      ["input[8]"],
      ["input[9].content[0]", "input[9].content[1]"]
    ])
  })

  it("refuses an image URL that does not parse, naming it", () => {
    assert.deepStrictEqual(
      toConversation(undefined, [{ role: "user", content: [{ type: "input_image", image_url: "not a url" }] }]),
      [`"input[0].content[0].image_url" is not a URL: send a data URL or an http(s) URL`]
    )
  })
})

describe("toConversation: approvals (docs/DESIGN.md §10)", () => {
  it("takes the last turn's approved answer, at its item, for the run to carry out", () => {
    const conversation = converted([user("Do it"), dangerous, answer(true)])
    assert.deepStrictEqual(conversation.messages.slice(1), [
      { role: "assistant", content: [...asked] },
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: "apr1", approved: true }] }
    ])
    assert.deepStrictEqual(conversation.places.slice(1), [["input[1]", "input[1]"], ["input[2]"]])
    assert.deepStrictEqual(conversation.approvals, [{
      path: "input[2]",
      approvalId: "apr1",
      toolCallId: "call_d",
      toolName: "dangerous",
      input: { text: "rm" },
      approved: true,
      reason: undefined
    }])
    assert.isUndefined(conversation.problem)
  })

  it("tells the model a denied call was denied, with the reason", () => {
    const conversation = converted([user("Do it"), dangerous, answer(false, "not today")])
    assert.deepStrictEqual(conversation.messages[2], {
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: "apr1", approved: false, reason: "not today" },
        {
          type: "tool-result",
          toolCallId: "call_d",
          toolName: "dangerous",
          output: { type: "execution-denied", reason: "not today" }
        }
      ]
    })
    assert.deepStrictEqual(conversation.approvals.map((each) => [each.approved, each.reason]), [[false, "not today"]])
  })

  it("drops a request a later user message superseded", () => {
    const conversation = converted([user("Do it"), dangerous, user("Never mind")])
    assert.deepStrictEqual(conversation.messages, [
      { role: "user", content: [{ type: "text", text: "Do it" }] },
      { role: "user", content: [{ type: "text", text: "Never mind" }] }
    ])
    assert.deepStrictEqual(conversation.origins, [0, 2])
    assert.isUndefined(conversation.problem)
  })

  it.each<[string, Input, string]>([
    ["a request left unanswered in the last turn", [user("Do it"), dangerous], "input[1]"],
    [
      "an approved call of an earlier turn, at its answer",
      [user("Do it"), dangerous, answer(true), user("Go")],
      "input[2]"
    ]
  ])("finds %s, which the model cannot be sent", (_, input, path) => {
    const conversation = converted(input)
    assert.deepStrictEqual(conversation.problem, unanswered(path))
    assert.deepStrictEqual(conversation.messages.slice(1, 2), [{ role: "assistant", content: [...asked] }])
  })

  it("takes a denied call of an earlier turn, and no answer but the last turn's", () => {
    const conversation = converted([user("Do it"), dangerous, answer(false), user("Go")])
    assert.isUndefined(conversation.problem)
    assert.deepStrictEqual(conversation.approvals, [])
  })

  it("finds a function call whose call_id a later call took before its output", () => {
    const call = { type: "function_call", call_id: "c1", name: "f", arguments: "{}" } as const
    const conversation = converted([user("Go"), call, call, {
      type: "function_call_output",
      call_id: "c1",
      output: "r"
    }])
    assert.strictEqual(conversation.problem?.path, "input[1]")
    assert.include(conversation.problem?.problem, `"f" (toolCallId "c1") without its result`)
  })
})

describe("toConversation: properties", () => {
  it.effect.prop(
    "each model message comes from an item, each content part has its place at or after it",
    [validBodies],
    ([body]) =>
      Effect.sync(() => {
        const { messages, origins, places, problem } = converted(body.input)
        assert.strictEqual(origins.length, messages.length)
        assert.isUndefined(problem)
        messages.forEach((message, i) => {
          const count = typeof message.content === "string" ? 1 : message.content.length
          assert.strictEqual(places[i]!.length, count)
          for (const place of places[i]!) {
            const index = /^input\[(\d+)\]/.exec(place)?.[1]
            assert.isTrue(index === undefined ? place === "input" : Number(index) >= origins[i]!, place)
          }
        })
      })
  )
})
