import { Schema } from "effect"
import { StructureError } from "../domain/ValidationReport.ts"
import type { ToolCheck } from "./contextCheck.ts"

/** A tool name this deployment does not have. */
export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  tool: Schema.String
}) {
  override get message() {
    return `Unknown tool "${this.tool}". GET /api/v1/tools lists the tools this key can use.`
  }
}

/** A tool outside the key's allow-list, however it was named (allowedTools or a promptType's set). */
export class ToolNotAllowed extends Schema.TaggedError<ToolNotAllowed>()("ToolNotAllowed", {
  tool: Schema.String
}) {
  override get message() {
    return `Tool not available with your API key: ${this.tool}`
  }
}

/** Selected tools whose context lacks fields (`missingContext`) or has them in the wrong shape (`structureErrors`). */
export class MissingToolContext extends Schema.TaggedError<MissingToolContext>()("MissingToolContext", {
  tools: Schema.Array(Schema.String),
  missingContext: Schema.Array(Schema.String),
  structureErrors: Schema.Array(StructureError)
}) {
  override get message() {
    const parts: Array<string> = []
    if (this.missingContext.length > 0) parts.push(`Missing required context: ${this.missingContext.join(", ")}`)
    if (this.structureErrors.length > 0) {
      parts.push(`Invalid context structure: ${[...new Set(this.structureErrors.map((e) => e.field))].join(", ")}`)
    }
    return parts.join("; ")
  }
}

/** The refusal for tools whose context checks failed. */
export const missingToolContext = (failed: ReadonlyArray<ToolCheck>): MissingToolContext =>
  new MissingToolContext({
    tools: failed.map((check) => check.name),
    missingContext: [...new Set(failed.flatMap((check) => check.missingContext))],
    structureErrors: failed.flatMap((check) => check.structureErrors)
  })
