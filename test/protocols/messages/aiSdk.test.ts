import { createAnthropic } from "@ai-sdk/anthropic"
import { afterAll, beforeAll, describe, it } from "vitest"
import { generateWithClientTool, streamWithClientTool } from "../../support/aiSdkClientTool.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway
let provider: ReturnType<typeof createAnthropic>

beforeAll(async () => {
  gateway = await startGateway()
  const { secret } = await gateway.createKey()
  // @ai-sdk/anthropic adds /messages to its base URL; Anthropic's own SDKs add /v1/messages.
  provider = createAnthropic({ baseURL: `${gateway.url}/v1`, apiKey: secret })
})
afterAll(() => gateway.close())

describe("the AI SDK's Anthropic provider pointed at parley (issue 21)", () => {
  it("generateText runs a client tool round trip over two requests", () =>
    generateWithClientTool(gateway, provider("test/m1")))

  it("streamText streams the text, the tool call and the usage", () =>
    streamWithClientTool(gateway, provider("test/m1")))
})
