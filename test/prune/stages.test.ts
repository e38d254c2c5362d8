import { assert, describe, it } from "@effect/vitest"
import type { UIMessage } from "ai"
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

const toolStep = (output: unknown, extra: Partial<Record<string, unknown>> = {}): UIMessage => ({
  id: "a",
  role: "assistant",
  parts: [
    { type: "reasoning", text: "I should look at the screen." },
    {
      type: "dynamic-tool",
      toolName: "computer",
      toolCallId: "c1",
      state: "output-available",
      input: { action: "screenshot" },
      output,
      ...extra
    },
    { type: "text", text: "I see the desktop." }
  ]
} as UIMessage)

const outputOf = (message: UIMessage): unknown => (message.parts[1] as { readonly output: unknown }).output

describe("media in tool outputs", () => {
  it.each([
    { type: "image-data", data: png, mediaType: "image/png" },
    { type: "media", data: png, mediaType: "image/png" },
    { type: "file-data", data: png, mediaType: "application/pdf" },
    { type: "image-url", url: "https://example.com/screen.png" },
    { type: "image", image: png },
    { mediaType: "image/jpeg", data: png },
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
  it("replaces images anywhere in a tool output with a placeholder and keeps the rest", () => {
    const message = toolStep({
      type: "content",
      value: [{ type: "text", text: "Took a screenshot" }, { type: "image-data", data: png, mediaType: "image/png" }]
    })
    const pruned = withoutImages(message)
    assert.deepStrictEqual(outputOf(pruned), {
      type: "content",
      value: [{ type: "text", text: "Took a screenshot" }, { type: "text", text: "[image omitted by pruning]" }]
    })
    // Reasoning and text stay with their step; the original is not mutated.
    assert.strictEqual(pruned.parts[0], message.parts[0])
    assert.strictEqual(pruned.parts[2], message.parts[2])
    assert.include(JSON.stringify(message), png)
  })

  it("replaces a data URL output and nested screenshots, files included", () => {
    assert.strictEqual(outputOf(withoutImages(toolStep(`data:image/png;base64,${png}`))), "[image omitted by pruning]")
    const nested = withoutImages(
      toolStep({
        pages: [{ title: "Jobs", shot: `data:image/webp;base64,${png}` }],
        pdf: { type: "file-data", data: png, mediaType: "application/pdf" }
      })
    )
    assert.deepStrictEqual(outputOf(nested), {
      pages: [{ title: "Jobs", shot: "[image omitted by pruning]" }],
      pdf: { type: "text", text: "[file omitted by pruning]" }
    })
  })

  it("returns the message itself when there is nothing to replace, and is idempotent", () => {
    const plain = toolStep({ stdout: "ok" })
    assert.strictEqual(withoutImages(plain), plain)
    const once = withoutImages(toolStep({ type: "image-data", data: png, mediaType: "image/png" }))
    assert.strictEqual(withoutImages(once), once)
    assert.strictEqual(withoutImages(structuredClone(once)).parts[1]!.type, "dynamic-tool")
    assert.deepStrictEqual(withoutImages(structuredClone(once)), once)
  })

  it("does not touch images the user sent, nor tool calls still running", () => {
    const user: UIMessage = {
      id: "u",
      role: "user",
      parts: [{ type: "file", mediaType: "image/png", url: `data:image/png;base64,${png}` }]
    }
    assert.strictEqual(withoutImages(user), user)
    const running = toolStep(undefined, { state: "input-available" })
    assert.strictEqual(withoutImages(running), running)
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

  it("shortens long outputs as sent (objects as JSON) and long error texts; short ones stay", () => {
    const object = { stdout: long, exit_code: 0 }
    const shortened = withShortOutputs(toolStep(object))
    assert.strictEqual(outputOf(shortened), shorten(JSON.stringify(object)))
    const failed = withShortOutputs(toolStep(undefined, { state: "output-error", errorText: long, output: undefined }))
    assert.strictEqual((failed.parts[1] as { readonly errorText: string }).errorText, shorten(long))
    const small = toolStep({ stdout: "ok" })
    assert.strictEqual(withShortOutputs(small), small)
    assert.strictEqual(withShortOutputs(shortened), shortened)
  })

  it("replaces images first, so a screenshot alone is not cut as base64 text", () => {
    const message = toolStep({
      type: "content",
      value: [{ type: "image-data", data: png.repeat(10), mediaType: "image/png" }]
    })
    assert.deepStrictEqual(outputOf(withShortOutputs(message)), outputOf(withoutImages(message)))
  })
})
