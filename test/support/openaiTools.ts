import type OpenAI from "openai"

/** A client function tool as the openai SDK sends it to the Responses door: the tests' scripted model calls it. */
export const weatherFunction: OpenAI.Responses.FunctionTool = {
  type: "function",
  name: "weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: false
}
