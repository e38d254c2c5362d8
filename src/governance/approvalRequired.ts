import { Schema } from "effect"

/** What a call waiting for a person is, where no person can be asked: said the same on every such path. */
export const waitsForAPerson = (door: string): string =>
  `needs a person's approval (the key's approvalRequired list), which ${door} cannot ask for: ` +
  "call it through POST /api/v1/chat, where approvals are supported"

/**
 * A call of a tool that the key's (or its account's) approval list names,
 * on a path that cannot ask a person (docs/DESIGN.md §10): `/mcp`, and the
 * doors whose wire has no approval request. Never run; the caller, or the
 * run's model, is told this.
 */
export class ApprovalRequired extends Schema.TaggedError<ApprovalRequired>()("ApprovalRequired", {
  tool: Schema.String,
  /** The path the call came through: `/mcp`, `/v1/chat/completions`… */
  door: Schema.String
}) {
  override get message() {
    return `Tool ${this.tool} ${waitsForAPerson(this.door)}`
  }
}
