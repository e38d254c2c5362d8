import { assert, describe, expect, it } from "@effect/vitest"
import type { UIMessage, UIMessageChunk } from "ai"
import { Effect } from "effect"
import type { AgentRun, ApprovalAnswer, ApprovalGate } from "../../src/agent/AgentRun.ts"
import { collectMessage } from "../../src/protocols/ui/collect.ts"
import {
  asModel,
  finish,
  finishMetadata,
  makeRun,
  runChunks,
  type Script,
  scriptedModel,
  start,
  text,
  toolCall,
  userMessage
} from "./fixtures.ts"
import { normalize, referenceRun } from "./oracle.ts"
import { tools } from "./scenarios.ts"

const SYSTEM = "You are a test assistant."
const waitFor = ["weather"]
const gate: ApprovalGate = {
  requires: (name) => waitFor.includes(name),
  requestId: (call) => `approval-for-${call.toolCallId}`
}

// Approval ids are the one thing parley words its own way (signed, docs/DESIGN.md §10).
const withoutApprovalIds = (chunks: ReadonlyArray<UIMessageChunk>) =>
  normalize(chunks).map((chunk) =>
    (chunk as { type: string }).type === "tool-approval-request" ? { ...(chunk as object), approvalId: "*" } : chunk
  )

const firstTurn: Script = [[
  start,
  ...text("0", "Let me look."),
  ...toolCall("call-w", "weather", `{"city":"Paris"}`, true),
  ...toolCall("call-f", "fast", `{"text":"b"}`),
  finish("tool-calls")
], [start, ...text("0", "unreachable"), finish("stop")]]

const secondTurn: Script = [[start, ...text("0", "It is 21 degrees."), finish("stop")]]

/** Runs parley and the AI SDK on the same conversation and script; both must say the same. */
const compare = (messages: Array<UIMessage>, script: Script, extra: Partial<AgentRun> = {}) =>
  Effect.gen(function*() {
    const model = scriptedModel(script)
    const chunks = yield* runChunks(
      makeRun(model, tools, { messages: yield* asModel(messages), approval: gate, ...extra })
    )
    const referenceModel = scriptedModel(script)
    const reference = yield* Effect.promise(() =>
      referenceRun(referenceModel, tools, { system: SYSTEM, messages, maxSteps: 30, approvalRequired: waitFor })
    )
    assert.isUndefined(reference.thrown)
    expect(withoutApprovalIds(chunks)).toEqual(withoutApprovalIds(reference.chunks))
    assert.strictEqual(model.doStreamCalls.length, referenceModel.doStreamCalls.length)
    model.doStreamCalls.forEach((call, step) => expect(call.prompt).toEqual(referenceModel.doStreamCalls[step]!.prompt))
    return { chunks, model }
  })

/** The assistant message of the first turn with the person's answer, as `addToolApprovalResponse` leaves it. */
const answered = (chunks: ReadonlyArray<UIMessageChunk>, approved: boolean, reason?: string): UIMessage => {
  const message = collectMessage(chunks)
  const parts = message.parts.map((part) =>
    part.type === "dynamic-tool" && part.state === "approval-requested"
      ? {
        ...part,
        state: "approval-responded",
        approval: { id: part.approval.id, approved, ...(reason ? { reason } : {}) }
      }
      : part
  )
  return { ...message, parts } as UIMessage
}

const answersOf = (message: UIMessage): Array<ApprovalAnswer> =>
  message.parts.flatMap((part, index) =>
    part.type === "dynamic-tool" && part.state === "approval-responded"
      ? [{
        path: `messages[1].parts[${index}]`,
        approvalId: part.approval.id,
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        approved: part.approval.approved,
        reason: part.approval.reason
      }]
      : []
  )

describe("approvals match streamText with toolApproval + toUIMessageStream", () => {
  it.live("a call that needs approval is not run: the request, and the run ends approval-required", () =>
    Effect.gen(function*() {
      const { chunks, model } = yield* compare([userMessage("Hi")], firstTurn)
      const request = chunks.find((chunk) => chunk.type === "tool-approval-request")
      assert.deepStrictEqual(request, {
        type: "tool-approval-request",
        approvalId: "approval-for-call-w",
        toolCallId: "call-w"
      })
      // The other call of the step ran; the model was not called again.
      assert.isTrue(chunks.some((chunk) => chunk.type === "tool-output-available" && chunk.toolCallId === "call-f"))
      assert.isFalse(chunks.some((chunk) => chunk.type === "tool-output-available" && chunk.toolCallId === "call-w"))
      assert.strictEqual(model.doStreamCalls.length, 1)
      expect(finishMetadata(chunks)).toMatchObject({ finished: false, finishReason: "approval-required" })
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" })
      const part = collectMessage(chunks).parts.find((p) => p.type === "dynamic-tool" && p.toolCallId === "call-w")
      expect(part).toMatchObject({ state: "approval-requested", approval: { id: "approval-for-call-w" } })
    }))

  it.live("approved: the tool runs first, the model sees its result, and the message continues", () =>
    Effect.gen(function*() {
      const first = yield* runChunks(
        makeRun(scriptedModel(firstTurn), tools, { messages: yield* asModel([userMessage("Hi")]), approval: gate })
      )
      const assistant = answered(first, true)
      const messages = [userMessage("Hi"), assistant]
      const { chunks, model } = yield* compare(messages, secondTurn, {
        resume: { messageId: assistant.id, answers: answersOf(assistant) }
      })
      expect(chunks.slice(0, 3)).toEqual([
        { type: "start", messageId: assistant.id },
        {
          type: "tool-output-available",
          toolCallId: "call-w",
          output: { city: "Paris", temperature: 21 },
          dynamic: true
        },
        { type: "start-step" }
      ])
      const results = model.doStreamCalls[0]!.prompt.filter((message) => message.role === "tool").flatMap((m) =>
        m.content
      )
      expect(results).toContainEqual(expect.objectContaining({
        toolCallId: "call-w",
        output: { type: "json", value: { city: "Paris", temperature: 21 } }
      }))
      expect(finishMetadata(chunks)).toMatchObject({ finished: true, finishReason: "stop" })
      const part = collectMessage(chunks, assistant).parts.find((p) =>
        p.type === "dynamic-tool" && p.toolCallId === "call-w"
      )
      expect(part).toMatchObject({ state: "output-available", approval: { approved: true } })
    }))

  it.live("denied: output-denied, and the model is told the person's reason", () =>
    Effect.gen(function*() {
      const first = yield* runChunks(
        makeRun(scriptedModel(firstTurn), tools, { messages: yield* asModel([userMessage("Hi")]), approval: gate })
      )
      const assistant = answered(first, false, "not today")
      const { chunks, model } = yield* compare([userMessage("Hi"), assistant], secondTurn, {
        resume: { messageId: assistant.id, answers: answersOf(assistant) }
      })
      expect(chunks.slice(0, 3)).toEqual([
        { type: "start", messageId: assistant.id },
        { type: "tool-output-denied", toolCallId: "call-w" },
        { type: "start-step" }
      ])
      const results = model.doStreamCalls[0]!.prompt.filter((message) => message.role === "tool").flatMap((m) =>
        m.content
      )
      expect(results).toContainEqual(expect.objectContaining({
        toolCallId: "call-w",
        output: { type: "execution-denied", reason: "not today" }
      }))
      const part = collectMessage(chunks, assistant).parts.find((p) =>
        p.type === "dynamic-tool" && p.toolCallId === "call-w"
      )
      expect(part).toMatchObject({ state: "output-denied", approval: { approved: false, reason: "not today" } })
    }))
})
