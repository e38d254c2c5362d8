import type { JSONValue } from "@ai-sdk/provider"
import { Result, Schema } from "effect"
import type { ToolModelOutput } from "../Tool.ts"

const WithScreenshot = Schema.Struct({
  screenshot: Schema.Struct({
    type: Schema.Literal("media"),
    mediaType: Schema.String,
    data: Schema.String,
    width: Schema.Number,
    height: Schema.Number
  })
})

const decodeScreenshot = Schema.decodeUnknownResult(WithScreenshot)

/**
 * A screenshot reaches the model as an image, with the rest of the answer
 * (url, title, size) as text beside it; base64 as JSON text would only cost
 * tokens. Any other output, or one whose image pruning removed, goes as JSON.
 */
export const browserModelOutput = (output: unknown): ToolModelOutput => {
  const decoded = decodeScreenshot(output)
  if (Result.isFailure(decoded)) return { type: "json", value: output as JSONValue }
  const { screenshot } = decoded.success
  const described = {
    ...(output as object),
    screenshot: { mediaType: screenshot.mediaType, width: screenshot.width, height: screenshot.height }
  }
  return {
    type: "content",
    value: [
      { type: "text", text: JSON.stringify(described) },
      { type: "file", mediaType: screenshot.mediaType, data: { type: "data", data: screenshot.data } }
    ]
  }
}
