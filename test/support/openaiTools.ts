import OpenAI from "openai"
import { afterAll, beforeAll } from "vitest"
import { type GatewayOptions, startGateway, type TestGateway } from "./gateway.ts"

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

/** A gateway and one key's secret for a file's tests (started before them, closed after). */
export const gatewayWithKey = (options?: GatewayOptions) => {
  const at = {} as { gateway: TestGateway; secret: string }
  beforeAll(async () => {
    at.gateway = await startGateway(options)
    at.secret = (await at.gateway.createKey()).secret
  })
  afterAll(() => at.gateway?.close())
  return at
}

/** A gateway and two keys, each with the openai SDK (`other` for the second), for a file's tests. */
export const twoKeyGateway = () => {
  const at = {} as { gateway: TestGateway; secret: string; client: OpenAI; other: OpenAI }
  beforeAll(async () => {
    at.gateway = await startGateway()
    at.secret = (await at.gateway.createKey()).secret
    at.client = openAiClient(at.gateway, at.secret)
    at.other = openAiClient(at.gateway, (await at.gateway.createKey()).secret)
  })
  afterAll(() => at.gateway.close())
  return at
}
