import { describe, expect, it } from "vitest"
import { cliIn } from "./run.ts"

const config = {
  providers: [{
    id: "local",
    type: "openai-compatible",
    baseURL: "http://127.0.0.1:9/v1",
    models: [{ id: "qwen-coder", name: "Qwen Coder", categories: ["chat"] }]
  }, {
    id: "smart",
    type: "route",
    models: [{ id: "code", strategy: "fallback", targets: [{ model: "local/qwen-coder" }] }]
  }]
}

describe.concurrent("parley keys create --models", { timeout: 120_000 }, () => {
  it("refuses a model no catalog has, naming the closest one, and creates nothing", async () => {
    const parley = cliIn(config)
    const typo = await parley("keys", "create", "--name", "x", "--models", "local/qwen-codr")
    expect(typo.code).toBe(1)
    expect(typo.stderr).toContain(`--models: unknown model "local/qwen-codr". Did you mean "local/qwen-coder"?`)
    const builtin = await parley("keys", "create", "--name", "x", "--models", "openai/gpt-4.1-mni")
    expect(builtin.stderr).toContain(`Did you mean "openai/gpt-4.1-mini"?`)
    expect((await parley("keys", "list", "--json")).stdout.trim()).toBe("[]")
  })

  it("accepts configured and built-in models and the patterns * and <provider>/*", async () => {
    const parley = cliIn(config)
    const allowed = ["local/qwen-coder", "smart/code", "anthropic/claude-sonnet-4-5", "*", "openai/*", "elsewhere/*"]
    for (const models of allowed) {
      const run = await parley("keys", "create", "--name", "ok", "--models", models, "--json")
      expect(run.code, `${models}: ${run.stderr}`).toBe(0)
    }
  })
})
