import type { JSONValue } from "@ai-sdk/provider"
import type { ToolModelOutput } from "../tools/Tool.ts"
import { ToolFailure } from "../tools/Tool.ts"
import type { CallToolResult } from "./McpConnection.ts"

type Part =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "media"; readonly mediaType: string; readonly data: string }

const partsOf = (content: CallToolResult["content"]): Array<Part> =>
  content.map((item): Part => {
    switch (item.type) {
      case "text":
        return { type: "text", text: item.text }
      case "image":
      case "audio":
        return { type: "media", mediaType: item.mimeType, data: item.data }
      case "resource_link":
        return { type: "text", text: `${item.name}: ${item.uri}` }
      case "resource": {
        const resource = item.resource
        return "text" in resource
          ? { type: "text", text: resource.text }
          : { type: "media", mediaType: resource.mimeType ?? "application/octet-stream", data: resource.blob }
      }
    }
  })

const textOf = (parts: ReadonlyArray<Part>) =>
  parts.flatMap((part) => part.type === "text" ? [part.text] : []).join("\n")

/**
 * An MCP tool result as a parley tool output (docs/DESIGN.md §9): `isError`
 * is a tool failure with the server's text; `structuredContent` is the
 * output object; text alone is the text; with images (or other media) the
 * output is `{content: [{type: "text", text} | {type: "media", mediaType, data}]}`,
 * the media shape of the computer tool's screenshots.
 */
export const toolOutput = (result: CallToolResult): unknown | ToolFailure => {
  const parts = partsOf(result.content)
  if (result.isError === true) return new ToolFailure(textOf(parts) || "The MCP tool reported an error")
  if (result.structuredContent !== undefined) return result.structuredContent
  return parts.every((part) => part.type === "text") ? textOf(parts) : { content: parts }
}

const isPart = (value: unknown): value is Part =>
  typeof value === "object" && value !== null &&
  ((value as Part).type === "text" && typeof (value as { text?: unknown }).text === "string" ||
    (value as Part).type === "media" && typeof (value as { data?: unknown }).data === "string" &&
      typeof (value as { mediaType?: unknown }).mediaType === "string")

/**
 * The model sees a result's media as files (images) beside its text. Any
 * other output (text, structured content, or one whose media pruning
 * removed) goes as text or JSON.
 */
export const mcpModelOutput = (output: unknown): ToolModelOutput => {
  if (typeof output === "string") return { type: "text", value: output }
  const content = (output as { content?: unknown } | null)?.content
  if (!Array.isArray(content) || !content.every(isPart)) return { type: "json", value: output as JSONValue }
  return {
    type: "content",
    value: content.map((part: Part) =>
      part.type === "text"
        ? { type: "text" as const, text: part.text }
        : { type: "file" as const, mediaType: part.mediaType, data: { type: "data" as const, data: part.data } }
    )
  }
}
