/** `<server>__<tool>`: an MCP server's tool as parley names it (docs/DESIGN.md §9). */
export const MCP_SEPARATOR = "__"

export const mcpToolName = (server: string, tool: string): string => `${server}${MCP_SEPARATOR}${tool}`

/** The server id a tool name names, when it reads `<server>__<tool>`; built-in names hold no `__`. */
export const serverOf = (toolName: string): string | undefined => {
  const at = toolName.indexOf(MCP_SEPARATOR)
  return at <= 0 ? undefined : toolName.slice(0, at)
}
