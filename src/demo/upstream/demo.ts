import type { Reply } from "./types.ts"

/**
 * The answer when nothing is scripted: deterministic, and enough for a tool
 * loop to run end to end with zero configuration.
 * - tools offered and the user spoke last: call the first tool, its required
 *   arguments filled from the schema (strings get the user's text);
 * - a tool result came last: summarise it in text;
 * - otherwise: echo the last message's text.
 */
export const demoReply = (body: any): Reply => {
  const messages: Array<any> = Array.isArray(body?.messages) ? body.messages : []
  const last = messages[messages.length - 1]
  const tools: Array<any> = Array.isArray(body?.tools) ? body.tools : []
  const firstTool = tools.find((tool) => typeof tool?.function?.name === "string")

  if (last?.role === "user" && firstTool !== undefined && body?.tool_choice !== "none") {
    return {
      type: "tool-calls",
      calls: [{
        name: firstTool.function.name,
        arguments: argumentsFor(firstTool.function.parameters, textOf(last.content))
      }]
    }
  }
  if (last?.role === "tool") {
    const name = toolNameOf(messages, last.tool_call_id) ?? "the tool"
    return { type: "text", text: `Result of ${name}: ${summarise(textOf(last.content))}` }
  }
  const text = textOf(last?.content)
  return { type: "text", text: text.length > 0 ? text : "OK" }
}

/** Message content is a string or an array of parts; only text parts count. */
const textOf = (content: unknown): string => {
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return ""
  return content
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join(" ")
}

const toolNameOf = (messages: ReadonlyArray<any>, toolCallId: unknown): string | undefined => {
  for (const message of messages) {
    for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
      if (call?.id === toolCallId && typeof call?.function?.name === "string") return call.function.name
    }
  }
  return undefined
}

const summarise = (text: string): string => text.length > 200 ? `${text.slice(0, 200)}…` : text

const argumentsFor = (schema: any, userText: string): Record<string, unknown> => {
  const properties = schema?.properties ?? {}
  const required: Array<unknown> = Array.isArray(schema?.required) ? schema.required : []
  const args: Record<string, unknown> = {}
  for (const name of required) {
    if (typeof name === "string") args[name] = valueFor(properties[name], userText)
  }
  return args
}

const valueFor = (schema: any, userText: string): unknown => {
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0]
  if (schema?.const !== undefined) return schema.const
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type
  switch (type) {
    case "integer":
    case "number":
      return schema?.minimum ?? 1
    case "boolean":
      return true
    case "array":
      return []
    case "object":
      return argumentsFor(schema, userText)
    case "null":
      return null
    default:
      return userText
  }
}
