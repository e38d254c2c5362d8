import { convertToModelMessages, type UIMessage } from "ai"
import { convertToLanguageModelPrompt } from "ai/internal"
import { describe, expect, it } from "vitest"
import { checkHistory } from "../../../src/protocols/ui/historyCheck.ts"

const user = (text: string): UIMessage => ({ id: text, role: "user", parts: [{ type: "text", text }] })

const toolPart = (state: string, extra: Record<string, unknown> = {}) => ({
  type: "dynamic-tool",
  toolName: "echo",
  toolCallId: "c1",
  state,
  input: { text: "hi" },
  ...(state === "output-available" ? { output: "hi" } : {}),
  ...(state === "output-error" ? { errorText: "failed" } : {}),
  ...extra
})

const assistant = (part: Record<string, unknown>): UIMessage =>
  ({ id: "a", role: "assistant", parts: [{ type: "text", text: "Calling" }, part] }) as unknown as UIMessage

/** Whether the AI SDK refuses to turn the conversation into a prompt, as the agent would. */
const sdkRefuses = async (messages: Array<UIMessage>) => {
  try {
    const modelMessages = await convertToModelMessages(messages)
    await convertToLanguageModelPrompt({
      prompt: { instructions: "system", messages: modelMessages },
      supportedUrls: {},
      download: undefined,
      provider: "test"
    })
    return false
  } catch {
    return true
  }
}

const parts: ReadonlyArray<[string, Record<string, unknown>]> = [
  ["input-streaming", toolPart("input-streaming")],
  ["input-available", toolPart("input-available")],
  ["input-available, provider-executed", toolPart("input-available", { providerExecuted: true })],
  ["approval-requested", toolPart("approval-requested", { approval: { id: "ap1" } })],
  ["approval-responded, approved", toolPart("approval-responded", { approval: { id: "ap1", approved: true } })],
  ["approval-responded, denied", toolPart("approval-responded", { approval: { id: "ap1", approved: false } })],
  ["output-available", toolPart("output-available")],
  ["output-error", toolPart("output-error")],
  ["output-denied", toolPart("output-denied", { approval: { id: "ap1", approved: false } })],
  ["static, input-available", { ...toolPart("input-available"), type: "tool-echo", toolName: undefined }]
]

const conversations: ReadonlyArray<[string, (part: Record<string, unknown>) => Array<UIMessage>]> = [
  ["answered by a later user message", (part) => [user("one"), assistant(part), user("two")]],
  ["at the end", (part) => [user("one"), assistant(part)]],
  ["first of all", (part) => [assistant(part), user("two")]]
]

describe("checkHistory agrees with the AI SDK's conversion (docs/DESIGN.md §3.18)", () => {
  for (const [where, conversation] of conversations) {
    it.each(parts)(`a tool part in state %s, ${where}`, async (_, part) => {
      const messages = conversation(part)
      const index = messages.findIndex((message) => message.role === "assistant")
      const problem = checkHistory(messages)
      // streamText carries out the approvals of the last message before converting it; so does parley (§10).
      const carriedOut = messages.at(-1)?.role === "assistant" && part.state === "approval-responded"
      expect(problem !== undefined).toBe(!carriedOut && await sdkRefuses(messages))
      if (problem !== undefined) expect(problem.path).toBe(`messages[${index}].parts[1]`)
    })
  }

  it("names the first unanswered call of several", () => {
    const answered = toolPart("output-available")
    const open = { ...toolPart("input-available"), toolCallId: "c2" }
    const problem = checkHistory([user("one"), assistant(answered), user("two"), assistant(open), user("three")])
    expect(problem?.path).toBe("messages[3].parts[1]")
    expect(problem?.message).toContain(`toolCallId "c2"`)
  })

  it("finds nothing in a plain conversation", () => {
    expect(
      checkHistory([user("one"), { id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }, user("two")])
    ).toBeUndefined()
  })
})
