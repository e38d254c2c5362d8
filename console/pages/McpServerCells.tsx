import type { McpServerView } from "../../src/domain/views.ts"
import { count } from "../ui.tsx"

/** The cells of a row of the MCP servers table, as `/admin/v1/mcp-servers` shows a server (docs/DESIGN.md §9). */

/** A tool's own name: the API gives the parley name, `<server>__<tool>`, and the row already names the server. */
const ownName = (server: McpServerView, name: string) =>
  name.startsWith(`${server.id}__`) ? name.slice(server.id.length + 2) : name

export const ServerTools = ({ server }: { readonly server: McpServerView }) => {
  if (server.tools.length === 0) return <span class="muted">none listed</span>
  const held = server.tools.filter((tool) => tool.heldBack).length
  return (
    // Open while some wait for a refresh: the operator should see which.
    <details class="tools" open={held > 0}>
      <summary>
        {count(server.tools.length, "tool")}
        {held === 0 ? null : `, ${held} held back`}
        <span class="visually-hidden">{` of ${server.id}`}</span>
      </summary>
      <ul>
        {server.tools.map((tool) => (
          <li key={tool.name}>
            {ownName(server, tool.name)}
            {tool.heldBack ? <span class="held">held back: refresh to accept</span> : null}
          </li>
        ))}
      </ul>
    </details>
  )
}

// Each cell one element: on a narrow screen a cell is a grid whose first column is its label.
export const ServerStatus = ({ server }: { readonly server: McpServerView }) => (
  <div>
    <span class={`status ${server.status}`}>{server.status}</span>
    {server.reason === undefined ? null : <span class="reason whole">{server.reason}</span>}
  </div>
)

/** Its transport, and where: a URL, or for stdio a command the config file names (not shown here). */
export const ServerEndpoint = ({ server }: { readonly server: McpServerView }) => (
  <div>
    <span class="secondary">{server.transport === "http" ? "HTTP" : "stdio"}</span>
    {server.url === null ? <span class="muted">a local command</span> : <code>{server.url}</code>}
  </div>
)

export const ServerSource = ({ server }: { readonly server: McpServerView }) =>
  server.source === "config" ? <span>config file (read-only here)</span> : <span>added here</span>
