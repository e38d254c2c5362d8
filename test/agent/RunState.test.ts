import { describe, expect, it } from "@effect/vitest"
import type { UIMessageChunk } from "ai"
import type { RunEvent } from "../../src/agent/RunEvent.ts"
import { RunState } from "../../src/agent/RunState.ts"
import { parseToolCall, type ValidToolCall } from "../../src/agent/toolInput.ts"
import { makeToolSet } from "../../src/agent/toolSet.ts"
import { ProviderRejected } from "../../src/models/ProviderFailure.ts"
import { uiChunk } from "../../src/protocols/ui/chunks.ts"
import { makeTestTool } from "../support/tools.ts"
import { asChunk, usage } from "./fixtures.ts"

const tools = makeToolSet([{ tool: makeTestTool({ name: "echo" }), context: {} }])

const recording = () => {
  const chunks: Array<UIMessageChunk> = []
  return { chunks, state: new RunState((event) => void chunks.push(asChunk(event))) }
}

const validCall = (toolCallId: string): ValidToolCall => {
  const call = parseToolCall({ type: "tool-call", toolCallId, toolName: "echo", input: `{"text":"x"}` }, tools)
  if (!call.valid || call.client === true) throw new Error("expected a valid call of a server tool")
  return call
}

describe("RunState", () => {
  it("starts the message once, before the first step", () => {
    const { chunks, state } = recording()
    expect(state.started).toBe(false)
    state.beginStep()
    state.endStep()
    state.beginStep()
    expect(state.started).toBe(true)
    expect(chunks.map((chunk) => chunk.type)).toEqual(["start", "start-step", "finish-step", "start-step"])
  })

  it("keeps block ids unique across steps, and the history content gets the deltas", () => {
    const { chunks, state } = recording()
    state.beginStep()
    const first = state.openBlock("text", "0", undefined)
    state.textDelta("0", "Hel", undefined)
    state.textDelta("0", "lo", undefined)
    state.closeBlock("text", "0", undefined)
    const second = state.openBlock("text", "0", undefined)
    expect(first).toEqual({ type: "text", text: "Hello", providerMetadata: undefined })
    expect(second.text).toBe("")
    const ids = chunks.filter((chunk) => chunk.type === "text-start").map((chunk) => chunk.id)
    expect(new Set(ids).size).toBe(2)
  })

  it("drops deltas and ends of blocks it never opened", () => {
    const { chunks, state } = recording()
    state.textDelta("x", "lost", undefined)
    state.reasoningDelta("x", "lost", undefined)
    state.closeBlock("reasoning", "x", undefined)
    expect(chunks).toEqual([])
  })

  it("says who will run a call whose input streams, as its tool-call will; the ui chunk has no such field", () => {
    const events: Array<RunEvent> = []
    const state = new RunState((event) => void events.push(event))
    state.beginStep()
    state.beginToolInput({ type: "tool-input-start", id: "c1", toolName: "lookup" }, true, true)
    state.beginToolInput({ type: "tool-input-start", id: "c2", toolName: "echo" }, true, false)
    state.beginToolInput(
      { type: "tool-input-start", id: "c3", toolName: "web_search", providerExecuted: true },
      true,
      false
    )
    const starts = events.filter((event) => event.type === "tool-input-start")
    expect(starts.map((event) => [event.toolCallId, event.provenance])).toEqual([
      ["c1", "client"],
      ["c2", "server"],
      ["c3", "hosted"]
    ])
    expect(uiChunk(starts[0]!)).toEqual({
      type: "tool-input-start",
      toolCallId: "c1",
      toolName: "lookup",
      dynamic: true
    })
  })

  it("an interruption closes what is open and answers every tool call still owed an output", () => {
    const { chunks, state } = recording()
    state.beginStep()
    state.openBlock("reasoning", "r", undefined)
    state.beginToolInput({ type: "tool-input-start", id: "streaming", toolName: "echo" }, true, false)
    state.toolInputDelta("streaming", `{"te`)
    state.toolCall(validCall("answered"))
    state.toolCall(validCall("running"))
    state.toolOutput(validCall("answered"), { echoed: "x" })
    chunks.length = 0

    state.interrupt("cut")
    expect(chunks).toEqual([
      { type: "reasoning-end", id: "r" },
      {
        type: "tool-input-error",
        toolCallId: "streaming",
        toolName: "echo",
        input: `{"te`,
        dynamic: true,
        errorText: "cut"
      },
      { type: "tool-output-error", toolCallId: "running", errorText: "cut", dynamic: true },
      { type: "finish-step" }
    ])
    chunks.length = 0
    state.interrupt("again")
    expect(chunks).toEqual([])
  })

  it("finish sums usage over steps and returns the summary it sends", () => {
    const { chunks, state } = recording()
    state.beginStep()
    state.stepFinished("tool-calls", usage(10, 2))
    state.endStep()
    state.beginStep()
    state.stepFinished("stop", usage(20, 3))
    state.endStep()
    const summary = state.finish()
    expect(summary).toEqual({
      finished: true,
      finishReason: "stop",
      usage: { inputTokens: 30, outputTokens: 5, totalTokens: 35 }
    })
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop", messageMetadata: summary })
  })

  it("a run cut short finishes with reason other", () => {
    const { chunks, state } = recording()
    state.beginStep()
    state.stepFinished("tool-calls", usage(1, 1))
    state.interrupt("cut")
    state.finish("timeout")
    expect(chunks.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "other",
      messageMetadata: { finishReason: "timeout" }
    })
  })

  it("a failure ends every open part (the protocol's error chunk comes next), then finishes with reason error", () => {
    const { chunks, state } = recording()
    state.beginStep()
    state.openBlock("reasoning", "r", undefined)
    state.beginToolInput({ type: "tool-input-start", id: "c1", toolName: "teleport" }, false, false)
    state.toolInputDelta("c1", `{"to":`)
    state.toolCall(validCall("c2"))
    state.breakOff("cut short", new ProviderRejected({ provider: "mock", message: "mock broke off" }))
    const summary = state.finish()

    expect(chunks.slice(6)).toEqual([
      { type: "reasoning-end", id: "r" },
      {
        type: "tool-input-error",
        toolCallId: "c1",
        toolName: "teleport",
        input: `{"to":`,
        dynamic: false,
        errorText: "cut short"
      },
      { type: "tool-output-error", toolCallId: "c2", errorText: "cut short", dynamic: true },
      { type: "finish-step" },
      { type: "error", errorText: "failed: mock broke off" },
      { type: "finish", finishReason: "error", messageMetadata: summary }
    ])
    expect(summary).toEqual({ finished: false, finishReason: "error", usage: {} })
  })

  it("the model's own reasons: length and the failures did not finish, the others did", () => {
    for (const [reason, finished] of [["stop", true], ["content-filter", true], ["length", false]] as const) {
      const { state } = recording()
      state.beginStep()
      state.stepFinished(reason, usage(1, 1))
      state.endStep()
      expect(state.finish()).toMatchObject({ finished, finishReason: reason })
    }
  })
})
