import { describe, expect, it } from "vitest"
import type { ApiKey } from "../../src/domain/ApiKey.ts"
import { admitTool } from "../../src/governance/Admission.ts"
import { selectTools as select, type ToolSelection } from "../../src/tools/selectTools.ts"
import { ToolNotAllowed, UnknownTool } from "../../src/tools/toolErrors.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"
import { makeKey } from "../support/keys.ts"
import { makeTestTool } from "../support/tools.ts"

// chat_message and jobsite_reply_generator are not in this deployment.
const lookup = ToolRegistry.make([
  ...["bash", "computer", "browser"].map((name) =>
    makeTestTool({ name, promptTypes: ["generalComputerSystemPrompt"] })
  ),
  makeTestTool({ name: "workplace_message", promptTypes: ["bossJobsiteSystemPrompt", "bossJobsiteLocalSystemPrompt"] }),
  makeTestTool({ name: "extra" })
])
// The allow-list is the admission's (governance/Admission.ts), as the planner passes it.
const selectTools = (
  promptType: Parameters<typeof select>[0],
  allowedTools: ReadonlyArray<string> | undefined,
  key: ApiKey,
  registry: typeof lookup,
  collect: boolean
) => select(promptType, allowedTools, registry, (name) => admitTool(key, name, registry.get), collect)
const names = (result: unknown) => (result as ToolSelection).tools.map((tool) => tool.name)

describe("selectTools (spec rule 4)", () => {
  it("has no tools with neither promptType nor allowedTools", () => {
    expect(names(selectTools(undefined, undefined, makeKey(), lookup, false))).toEqual([])
  })

  it("uses exactly allowedTools without a promptType", () => {
    expect(names(selectTools(undefined, ["extra", "bash"], makeKey(), lookup, false))).toEqual(["extra", "bash"])
  })

  it("unites the promptType's set (the tools this deployment has) with allowedTools", () => {
    const result = selectTools("generalComputerSystemPrompt", ["extra", "bash"], makeKey(), lookup, false)
    expect(names(result)).toEqual(["bash", "computer", "browser", "extra"])
    expect(names(selectTools("bossJobsiteLocalSystemPrompt", undefined, makeKey(), lookup, false))).toEqual([
      "workplace_message"
    ])
  })

  it("refuses an unknown tool named in allowedTools", () => {
    const result = selectTools(undefined, ["nope"], makeKey(), lookup, false)
    expect(result).toBeInstanceOf(UnknownTool)
    expect((result as UnknownTool).tool).toBe("nope")
  })

  it("refuses a tool outside the key's allow-list, also when it comes from a promptType", () => {
    const key = makeKey({ allowedTools: ["browser"] })
    const direct = selectTools(undefined, ["bash"], key, lookup, false)
    expect(direct).toBeInstanceOf(ToolNotAllowed)
    expect((direct as ToolNotAllowed).message).toBe("Tool not available with your API key: bash")
    const viaPromptType = selectTools("generalComputerSystemPrompt", undefined, key, lookup, false)
    expect(viaPromptType).toBeInstanceOf(ToolNotAllowed)
    expect((viaPromptType as ToolNotAllowed).tool).toBe("bash")
  })

  it("refuses a name off the allow-list as not allowed, whether or not it exists (no probing)", () => {
    const key = makeKey({ allowedTools: ["browser"] })
    expect(selectTools(undefined, ["nope"], key, lookup, false)).toBeInstanceOf(ToolNotAllowed)
    expect(selectTools(undefined, ["docs__search"], key, lookup, false)).toBeInstanceOf(ToolNotAllowed)
  })

  it("collects refusals instead of failing when reporting", () => {
    const key = makeKey({ allowedTools: ["extra"] })
    const result = selectTools(undefined, ["extra", "bash", "nope"], key, lookup, true) as ToolSelection
    expect(names(result)).toEqual(["extra"])
    expect(result.rejected.map((r) => r.name)).toEqual(["bash", "nope"])
  })
})
