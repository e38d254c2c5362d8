import { assert, describe, it } from "@effect/vitest"
import { browserModelOutput } from "../../../src/tools/browser/modelOutput.ts"

describe("browserModelOutput", () => {
  it("sends a screenshot as an image, with the rest of the answer as text", () => {
    const output = {
      action: "screenshot",
      url: "https://example.com/",
      title: "Example",
      screenshot: { type: "media", mediaType: "image/png", data: "iVBORw0KGgo=", width: 1280, height: 800 }
    }
    assert.deepStrictEqual(browserModelOutput(output), {
      type: "content",
      value: [
        {
          type: "text",
          text: JSON.stringify({
            action: "screenshot",
            url: "https://example.com/",
            title: "Example",
            screenshot: { mediaType: "image/png", width: 1280, height: 800 }
          })
        },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBORw0KGgo=" } }
      ]
    })
  })

  it("sends every other answer, and a screenshot pruning replaced, as JSON", () => {
    const extract = { action: "extract", url: "https://example.com/", title: "Example", text: "Hello" }
    assert.deepStrictEqual(browserModelOutput(extract), { type: "json", value: extract })
    const pruned = {
      action: "screenshot",
      url: "u",
      title: "t",
      screenshot: { type: "text", text: "[image omitted by pruning]" }
    }
    assert.deepStrictEqual(browserModelOutput(pruned), { type: "json", value: pruned })
  })
})
