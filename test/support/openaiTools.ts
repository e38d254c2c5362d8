import OpenAI from "openai"

/** A client function tool as the openai SDK sends it to the Responses door: the tests' scripted model calls it. */
export const weatherFunction: OpenAI.Responses.FunctionTool = {
  type: "function",
  name: "weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: false
}

/** The openai SDK at a gateway's `/v1` with a parley key, without retries (a test sees each answer). */
export const openAiClient = (gateway: { readonly url: string }, apiKey: string) =>
  new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })
