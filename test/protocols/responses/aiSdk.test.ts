import { createOpenAI } from "@ai-sdk/openai"
import { afterAll, beforeAll, describe, it } from "vitest"
import { generateWithClientTool, streamWithClientTool } from "../../support/aiSdkClientTool.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"

let gateway: TestGateway
let provider: ReturnType<typeof createOpenAI>

beforeAll(async () => {
  gateway = await startGateway()
  const { secret } = await gateway.createKey()
  provider = createOpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret })
})
afterAll(() => gateway.close())

describe("the AI SDK's OpenAI Responses model pointed at parley (issue 21 part 1)", () => {
  it("generateText runs a client tool round trip over two requests", () =>
    generateWithClientTool(gateway, provider.responses("test/m1")))

  it("streamText streams the text, the tool call and the usage", () =>
    streamWithClientTool(gateway, provider.responses("test/m1")))
})
