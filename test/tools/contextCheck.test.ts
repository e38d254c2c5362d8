import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { checkTool, isUsable, mergeContext } from "../../src/tools/contextCheck.ts"
import { makeTestTool } from "../support/tools.ts"

const ConfigData = Schema.Struct({ brands: Schema.Array(Schema.String) })

describe("mergeContext", () => {
  it("lets toolContext[tool] override same-named context fields for that tool only", () => {
    const context = { preferredBrand: "A", partnerToken: "t1" }
    const toolContext = { jobs: { preferredBrand: "B" }, other: { partnerToken: "t2" } }
    expect(mergeContext("jobs", context, toolContext)).toEqual({ preferredBrand: "B", partnerToken: "t1" })
    expect(mergeContext("other", context, toolContext)).toEqual({ preferredBrand: "A", partnerToken: "t2" })
    expect(mergeContext("none", context, toolContext)).toEqual(context)
  })

  it("ignores a toolContext entry that is not an object", () => {
    expect(mergeContext("jobs", { a: 1 }, { jobs: "nope" })).toEqual({ a: 1 })
  })
})

describe("checkTool", () => {
  const tool = makeTestTool({
    name: "jobs",
    requiredContext: [{ field: "configData", schema: ConfigData }, { field: "replyPrompts" }]
  })

  it("reports missing fields, null counting as missing", () => {
    const check = checkTool(tool, { configData: { brands: [] }, replyPrompts: null }, null)
    expect(check.missingContext).toEqual(["replyPrompts"])
    expect(isUsable(check)).toBe(false)
  })

  it("reports structure errors per field with readable issues", () => {
    const check = checkTool(tool, { configData: { brands: "x" }, replyPrompts: {} }, null)
    expect(check.missingContext).toEqual([])
    expect(check.structureErrors).toHaveLength(1)
    expect(check.structureErrors[0]!.field).toBe("configData")
    expect(check.structureErrors[0]!.issues.join(" ")).toContain("brands")
  })

  it("requires a sandboxId for sandbox tools", () => {
    const sandboxTool = makeTestTool({ name: "bash", requiresSandbox: true })
    expect(checkTool(sandboxTool, {}, null).missingContext).toEqual(["sandboxId"])
    expect(checkTool(sandboxTool, {}, undefined).missingContext).toEqual(["sandboxId"])
    expect(isUsable(checkTool(sandboxTool, {}, "sb_1"))).toBe(true)
  })
})
