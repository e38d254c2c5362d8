import { assert, describe, it } from "@effect/vitest"
import type { ModelMessage, ToolResultPart } from "ai"
import { isMedia } from "../../src/prune/media.ts"
import {
  HEAD_CHARS,
  LONG_OUTPUT_CHARS,
  shorten,
  TAIL_CHARS,
  withoutImages,
  withShortOutputs
} from "../../src/prune/stages.ts"

const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk".repeat(100)

const call: ModelMessage = {
  role: "assistant",
  content: [
    { type: "reasoning", text: "I should look at the screen." },
    { type: "tool-call", toolCallId: "c1", toolName: "computer", input: { action: "screenshot" } },
    { type: "text", text: "I see the desktop." }
  ]
}
const toolResult = (output: ToolResultPart["output"]): ModelMessage => ({
  role: "tool",
  content: [
    { type: "tool-approval-response", approvalId: "a1", approved: true },
    { type: "tool-result", toolCallId: "c1", toolName: "computer", output }
  ]
})
const json = (value: unknown) => ({ type: "json", value }) as ToolResultPart["output"]

const outputOf = (message: ModelMessage): unknown => (message.content[1] as ToolResultPart).output

describe("media in tool outputs", () => {
  it.each([
    { type: "image-data", data: png, mediaType: "image/png" },
    { type: "media", data: png, mediaType: "image/png" },
    { type: "file-data", data: png, mediaType: "application/pdf" },
    { type: "image-url", url: "https://example.com/screen.png" },
    { type: "image", image: png },
    { mediaType: "image/jpeg", data: png },
    { type: "file", mediaType: "image", data: { type: "data", data: png } },
    `data:image/png;base64,${png}`
  ])("recognizes %#", (media) => {
    assert.isTrue(isMedia(media))
  })

  it.each([
    { type: "file", path: "/work/notes.txt", size: 12 },
    { type: "text", text: "data:image/png;base64,AAAA is how images are inlined" },
    "data: not a url",
    "data:image/png;base64,AAAA is how images are inlined",
    { mediaType: "image/png" }
  ])("leaves alone %#", (value) => {
    assert.isFalse(isMedia(value))
  })
})

describe("stage images", () => {
  it("replaces images anywhere in a raw output with a placeholder and keeps the rest", () => {
    const message = toolResult(json({
      type: "content",
      value: [{ type: "text", text: "Took a screenshot" }, { type: "image-data", data: png, mediaType: "image/png" }]
    }))
    const pruned = withoutImages(message)
    assert.deepStrictEqual(
      outputOf(pruned),
      json({
        type: "content",
        value: [{ type: "text", text: "Took a screenshot" }, { type: "text", text: "[image omitted by pruning]" }]
      })
    )
    // The approval answer stays, the call's message is not changed; the original is not mutated.
    assert.strictEqual(pruned.content[0], message.content[0])
    assert.strictEqual(withoutImages(call), call)
    assert.include(JSON.stringify(message), png)
  })

  it("replaces a data URL output and nested screenshots, files included", () => {
    assert.deepStrictEqual(
      outputOf(withoutImages(toolResult({ type: "text", value: `data:image/png;base64,${png}` }))),
      { type: "text", value: "[image omitted by pruning]" }
    )
    const nested = withoutImages(toolResult(json({
      pages: [{ title: "Jobs", shot: `data:image/webp;base64,${png}` }],
      pdf: { type: "file-data", data: png, mediaType: "application/pdf" }
    })))
    assert.deepStrictEqual(
      outputOf(nested),
      json({
        pages: [{ title: "Jobs", shot: "[image omitted by pruning]" }],
        pdf: { type: "text", text: "[file omitted by pruning]" }
      })
    )
  })

  it("makes a content output's media items text items", () => {
    const pruned = withoutImages(toolResult({
      type: "content",
      value: [
        { type: "text", text: "Two pages" },
        { type: "file", mediaType: "image", data: { type: "data", data: png } },
        { type: "file-data", data: png, mediaType: "application/pdf" }
      ]
    }))
    assert.deepStrictEqual(outputOf(pruned), {
      type: "content",
      value: [
        { type: "text", text: "Two pages" },
        { type: "text", text: "[image omitted by pruning]" },
        { type: "text", text: "[file omitted by pruning]" }
      ]
    })
  })

  it("returns the message itself when there is nothing to replace, and is idempotent", () => {
    const plain = toolResult(json({ stdout: "ok" }))
    assert.strictEqual(withoutImages(plain), plain)
    const once = withoutImages(toolResult(json({ type: "image-data", data: png, mediaType: "image/png" })))
    assert.strictEqual(withoutImages(once), once)
    assert.deepStrictEqual(withoutImages(structuredClone(once)), once)
  })

  it("does not touch images the user sent, nor error outputs", () => {
    const user: ModelMessage = {
      role: "user",
      content: [{ type: "file", mediaType: "image/png", data: { type: "data", data: png } }]
    }
    assert.strictEqual(withoutImages(user), user)
    const failed = toolResult({ type: "error-text", value: `data:image/png;base64,${png}` })
    assert.strictEqual(withoutImages(failed), failed)
  })
})

describe("stage tool-outputs", () => {
  const long = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join("\n")

  it("keeps the head and tail of a long text and says how much it left out", () => {
    const short = shorten(long)
    assert.isTrue(short.startsWith(long.slice(0, HEAD_CHARS)))
    assert.isTrue(short.endsWith(long.slice(-TAIL_CHARS)))
    assert.include(short, `[… ${long.length - HEAD_CHARS - TAIL_CHARS} characters omitted by pruning …]`)
    assert.isBelow(short.length, LONG_OUTPUT_CHARS)
    assert.strictEqual(shorten(short), short)
  })

  it("never splits a character outside the basic plane", () => {
    const emoji = "😀".repeat(LONG_OUTPUT_CHARS)
    const short = shorten(`x${emoji}`)
    assert.notMatch(short, /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
  })

  it("shortens long outputs as sent (JSON as a text output of it) and long error texts; short ones stay", () => {
    const object = { stdout: long, exit_code: 0 }
    const shortened = withShortOutputs(toolResult(json(object)))
    assert.deepStrictEqual(outputOf(shortened), { type: "text", value: shorten(JSON.stringify(object)) })
    assert.deepStrictEqual(outputOf(withShortOutputs(toolResult({ type: "text", value: long }))), {
      type: "text",
      value: shorten(long)
    })
    const failed = withShortOutputs(toolResult({ type: "error-text", value: long }))
    assert.deepStrictEqual(outputOf(failed), { type: "error-text", value: shorten(long) })
    const failedJson = withShortOutputs(toolResult({ type: "error-json", value: object }))
    assert.deepStrictEqual(outputOf(failedJson), { type: "error-text", value: shorten(JSON.stringify(object)) })
    const small = toolResult(json({ stdout: "ok" }))
    assert.strictEqual(withShortOutputs(small), small)
    assert.strictEqual(withShortOutputs(shortened), shortened)
    assert.strictEqual(withShortOutputs(call), call)
  })

  it("replaces images first, so a screenshot alone is not cut as base64 text", () => {
    const message = toolResult(json({
      type: "content",
      value: [{ type: "image-data", data: png.repeat(10), mediaType: "image/png" }]
    }))
    assert.deepStrictEqual(outputOf(withShortOutputs(message)), outputOf(withoutImages(message)))
  })
})
