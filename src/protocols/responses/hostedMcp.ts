/**
 * Hosted MCP tools on `/v1/responses` (`{type: "mcp", server_label}` and the
 * `mcp_approval_response` items that answer their approvals: issue 21 part
 * 3, round3 part A) are built apart; until they land, this is the one place
 * that answers them, so that the work replaces it here. Both are a 400
 * naming the field: a client must not believe its MCP tools ran.
 */
export const hostedMcpToolIssue = (at: string) =>
  `"${at}" is a hosted MCP tool: hosted MCP tools on this door are not done yet; name parley's tools in allowedTools`

export const approvalResponseIssue = (at: string) =>
  `"${at}" is an mcp_approval_response, which comes with hosted MCP tools: not done yet on this door`
