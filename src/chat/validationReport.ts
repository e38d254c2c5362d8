import type { PruneReport, ToolReport, ValidationReport } from "../domain/ValidationReport.ts"
import { isUsable, type ToolCheck } from "../tools/contextCheck.ts"
import type { ToolSelection } from "../tools/selectTools.ts"
import { missingToolContext } from "../tools/toolErrors.ts"

/**
 * validateOnly and contextStrategy=report: every finding of the plan as an
 * entry of the report instead of an error, and which tools would wait for a
 * person's approval (docs/DESIGN.md §10).
 */
export const validationReport = (
  modelProblem: { readonly message: string } | undefined,
  checks: ReadonlyArray<ToolCheck>,
  rejected: ToolSelection["rejected"],
  prune: PruneReport | undefined,
  needsApproval: (toolName: string) => boolean
): ValidationReport => {
  const tools: Array<ToolReport> = [
    ...checks.map((check) => {
      const valid = isUsable(check)
      return {
        name: check.name,
        valid,
        ...(check.missingContext.length > 0 ? { missingContext: check.missingContext } : {}),
        ...(check.structureErrors.length > 0 ? { structureErrors: check.structureErrors } : {}),
        ...(needsApproval(check.name) ? { approvalRequired: true as const } : {}),
        ...(valid ? {} : { error: missingToolContext([check]).message })
      }
    }),
    ...rejected.map(({ error, name }) => ({ name, valid: false, error }))
  ]
  const model = modelProblem === undefined ? { valid: true } : { valid: false, error: modelProblem.message }
  return {
    valid: model.valid && tools.every((tool) => tool.valid),
    model,
    tools,
    ...(prune === undefined ? {} : { prune })
  }
}
