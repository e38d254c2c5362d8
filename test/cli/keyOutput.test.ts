import { describe, expect, it } from "vitest"
import { cliIn } from "./run.ts"

describe("parley keys list", { timeout: 120_000 }, () => {
  it("keeps the table within 160 columns when not on a terminal, cutting long cells with an ellipsis", async () => {
    const parley = cliIn()
    const name = `recruiting-bot-${"x".repeat(250)}`
    const models = "openai/*,anthropic/*,mistral/*,groq/*,together/*,fireworks/*,deepseek/*,local/*"
    expect((await parley("keys", "create", "--name", name, "--models", models, "--tools", "*")).code).toBe(0)
    expect((await parley("keys", "create", "--name", "short", "--models", "*")).code).toBe(0)
    const table = await parley("keys", "list")
    const lines = table.stdout.trimEnd().split("\n")
    expect(lines).toHaveLength(3)
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(160)
    expect(lines[0]).toMatch(/^ID +NAME +PREFIX +STATUS +MODELS +TOOLS +CREATED +LAST USED +EXPIRES$/)
    expect(table.stdout).toContain("recruiting-bot-xxx")
    expect(table.stdout).toContain("…")
    expect(lines[2]).toContain("short")

    const json = JSON.parse((await parley("keys", "list", "--json")).stdout) as Array<{ name: string }>
    expect(json.map((key) => key.name).sort()).toEqual([name, "short"].sort())
  })
})
