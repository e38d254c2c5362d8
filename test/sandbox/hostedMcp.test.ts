import Anthropic from "@anthropic-ai/sdk"
import { randomBytes } from "node:crypto"
import OpenAI from "openai"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestGateway } from "../support/gateway.ts"
import { createSandbox, startSandboxGateway } from "./chat.ts"

// Issue 21 part 3 with a real sandbox: parley's `bash` asked as a hosted MCP tool through each door's own
// field (Responses' `{type:"mcp", server_label:"parley"}`, Messages' `mcp_servers`), with `sandboxId` as
// an extra body field, runs in that sandbox, and its output reaches the model and the client.

let gateway: TestGateway
let secret: string
let sandboxId: string

beforeAll(async () => {
  ;({ gateway } = await startSandboxGateway())
  ;({ secret } = await gateway.createKey({ tools: ["bash"] }))
  sandboxId = (await createSandbox(gateway, secret)).id
}, 60_000)
afterAll(() => gateway?.close())

/** The model writes a marker to a file in the sandbox and reads it back, then answers. */
const scriptBash = () => {
  const marker = `hosted-${randomBytes(6).toString("hex")}`
  gateway.upstream.enqueue({
    type: "tool-calls",
    calls: [{
      id: "call_sh",
      name: "bash",
      arguments: { command: `echo ${marker} > /workspace/${marker} && cat /workspace/${marker}` }
    }]
  })
  gateway.upstream.enqueue({ type: "text", text: "Written and read." })
  return marker
}

/** What the model was told the tool gave: the second call's tool message. */
const toldModel = () => gateway.upstream.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool")

describe("parley's bash as a hosted MCP tool, in a sandbox (issue 21 part 3)", { timeout: 60_000 }, () => {
  it("the openai SDK's responses.create with an mcp tool labelled parley", async () => {
    const marker = scriptBash()
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: secret, maxRetries: 0 })
    const response = await client.responses.create({
      model: "test/m1",
      input: "Write the marker and read it back",
      tools: [{ type: "mcp", server_label: "parley", allowed_tools: ["bash"], require_approval: "never" }],
      // parley's extra field: the sandbox its tools run in.
      ...({ sandboxId } as object)
    })
    expect(response.output.map((item) => item.type)).toEqual(["mcp_list_tools", "mcp_call", "message"])
    const call = response.output[1] as OpenAI.Responses.ResponseOutputItem.McpCall
    expect(call).toMatchObject({ server_label: "parley", name: "bash", status: "completed", error: null })
    expect(JSON.parse(call.output!)).toMatchObject({ stdout: `${marker}\n`, exit_code: 0 })
    expect(response.output_text).toBe("Written and read.")
    expect(JSON.parse(toldModel().content)).toMatchObject({ stdout: `${marker}\n` })
  })

  it("the Anthropic SDK's beta.messages.create with mcp_servers naming parley", async () => {
    const marker = scriptBash()
    const client = new Anthropic({ baseURL: gateway.url, apiKey: secret, maxRetries: 0 })
    const message = await client.beta.messages.create({
      model: "test/m1",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Write the marker and read it back" }],
      // parley's own tools take no URL (parley connects only where its operator configured); the SDK's type wants one.
      mcp_servers: [{ type: "url", name: "parley" } as Anthropic.Beta.BetaRequestMCPServerURLDefinition],
      betas: ["mcp-client-2025-04-04"],
      ...({ sandboxId } as object)
    })
    expect(message.content.map((block) => block.type)).toEqual(["mcp_tool_use", "mcp_tool_result", "text"])
    expect(message.content[0]).toMatchObject({ name: "bash", server_name: "parley" })
    const result = message.content[1] as Anthropic.Beta.BetaMCPToolResultBlock
    expect(result.is_error).toBe(false)
    const text = (result.content as Array<{ text: string }>)[0]!.text
    expect(JSON.parse(text)).toMatchObject({ stdout: `${marker}\n`, exit_code: 0 })
    expect(JSON.parse(toldModel().content)).toMatchObject({ stdout: `${marker}\n` })
  })
})
