import { describe, expect, it } from "vitest"
import { DEFAULT_SYSTEM_PROMPT } from "../../src/domain/PromptType.ts"
import { InvalidPromptType } from "../../src/prompts/promptErrors.ts"
import { checkPromptType, resolveSystemPrompt } from "../../src/prompts/resolveSystemPrompt.ts"

describe("resolveSystemPrompt (rule 3)", () => {
  const context = { systemPrompts: { bossJobsiteSystemPrompt: "from context" } }

  it("prefers systemPrompt over the promptType's text", () => {
    expect(resolveSystemPrompt({ systemPrompt: "direct", promptType: "bossJobsiteSystemPrompt", context })).toBe(
      "direct"
    )
  })

  it("uses context.systemPrompts[promptType] next", () => {
    expect(resolveSystemPrompt({ promptType: "bossJobsiteSystemPrompt", context })).toBe("from context")
  })

  it("falls back to the default text", () => {
    expect(resolveSystemPrompt({ promptType: "generalComputerSystemPrompt", context })).toBe(DEFAULT_SYSTEM_PROMPT)
    expect(resolveSystemPrompt({})).toBe("You are a helpful AI assistant.")
  })
})

describe("checkPromptType", () => {
  it("accepts the three values and no value", () => {
    expect(checkPromptType(undefined)).toBeUndefined()
    expect(checkPromptType("bossJobsiteLocalSystemPrompt")).toBe("bossJobsiteLocalSystemPrompt")
  })

  it("rejects anything else with the allowed values listed", () => {
    const result = checkPromptType("nope")
    expect(result).toBeInstanceOf(InvalidPromptType)
    const error = result as InvalidPromptType
    expect(error.message).toContain(
      "bossJobsiteSystemPrompt, bossJobsiteLocalSystemPrompt, generalComputerSystemPrompt"
    )
    expect(error.allowed).toHaveLength(3)
  })
})
