import { Schema } from "effect"
import { Count } from "./Count.ts"

export const StructureError = Schema.Struct({
  field: Schema.String.annotate({ description: "The context field whose structure is wrong." }),
  issues: Schema.Array(Schema.String).annotate({ description: "What is wrong with it." })
})

export const ToolReport = Schema.Struct({
  name: Schema.String,
  valid: Schema.Boolean.annotate({ description: "Whether the tool's context is valid." }),
  missingContext: Schema.optionalKey(
    Schema.Array(Schema.String).annotate({ description: "Missing context field names." })
  ),
  structureErrors: Schema.optionalKey(Schema.Array(StructureError)),
  approvalRequired: Schema.optionalKey(
    Schema.Literal(true).annotate({
      description: "Present when the key's calls of this tool wait for a person's approval (docs/DESIGN.md §10)."
    })
  ),
  error: Schema.optionalKey(Schema.String.annotate({ description: "Error text, only when valid=false." }))
})
export type ToolReport = typeof ToolReport.Type

export const PruneReport = Schema.Struct({
  tokensBefore: Count,
  tokensAfter: Count,
  messagesRemoved: Count,
  stage: Schema.String.annotate({ description: "The pruning stage that brought the input under budget." })
}).annotate({ description: "What pruning would do to this request (prune=true only)." })
export type PruneReport = typeof PruneReport.Type

/** The answer of validateOnly=true or contextStrategy=report (not wrapped in success/data). */
export const ValidationReport = Schema.Struct({
  valid: Schema.Boolean.annotate({ description: "Overall result." }),
  model: Schema.Struct({
    valid: Schema.Boolean,
    error: Schema.optionalKey(Schema.String.annotate({ description: "Only when valid=false." }))
  }),
  tools: Schema.Array(ToolReport).annotate({ description: "One entry per requested tool." }),
  prune: Schema.optionalKey(PruneReport)
}).annotate({ identifier: "ValidationReport" })
export type ValidationReport = typeof ValidationReport.Type
