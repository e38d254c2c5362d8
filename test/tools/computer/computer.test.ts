import { describe, expect, it } from "vitest"
import { computerModelOutput } from "../../../src/tools/computer/computerTool.ts"
import { startSandboxGateway } from "../../sandbox/chat.ts"
import { computerThroughChat } from "./computerThroughChat.ts"

computerThroughChat(async () => (await startSandboxGateway()).gateway)

describe("computerModelOutput", () => {
  it("sends the summary as text and the screenshot as an image file", () => {
    const output = {
      action: "screenshot",
      text: "Screenshot of the 2x2 display.",
      screenshot: { type: "media", mediaType: "image/png", data: "iVBORw0KGgo=", width: 2, height: 2 }
    }
    expect(computerModelOutput(output)).toEqual({
      type: "content",
      value: [
        { type: "text", text: "Screenshot of the 2x2 display." },
        { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBORw0KGgo=" } }
      ]
    })
    expect(computerModelOutput({ action: "mouse_move", text: "Moved." })).toEqual({
      type: "content",
      value: [{ type: "text", text: "Moved." }]
    })
  })

  it("sends any other shape (an edited or pruned history) as JSON", () => {
    const pruned = { action: "screenshot", text: "x", screenshot: { type: "text", text: "[image omitted by pruning]" } }
    expect(computerModelOutput(pruned)).toEqual({ type: "json", value: pruned })
    expect(computerModelOutput("text")).toEqual({ type: "json", value: "text" })
  })
})
