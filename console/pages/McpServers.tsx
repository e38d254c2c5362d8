import { useState } from "preact/hooks"
import { type Client, type McpServer, orNothingYet } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { Confirm, Pending, Table, useLoad } from "../ui.tsx"
import { McpServerForm, type McpServerInput } from "./McpServerForm.tsx"

const PATH = "/mcp-servers"
const at = (id: string) => `${PATH}/${encodeURIComponent(id)}`

const toolName = (server: McpServer, tool: McpServer["tools"][number]) => {
  const name = typeof tool === "string" ? tool : tool.name
  return name.startsWith(`${server.id}__`) ? name.slice(server.id.length + 2) : name
}

const Tools = ({ server }: { readonly server: McpServer }) =>
  server.tools.length === 0 ? <span class="muted">none listed</span> : (
    <details class="tools">
      <summary>
        {server.tools.length} tools<span class="visually-hidden">{` of ${server.id}`}</span>
      </summary>
      <ul>{server.tools.map((tool) => <li key={toolName(server, tool)}>{toolName(server, tool)}</li>)}</ul>
    </details>
  )

type Asking = { readonly kind: "delete" | "toggle"; readonly server: McpServer }

/**
 * The operator's MCP servers (docs/DESIGN.md §9) over `/admin/v1/mcp-servers`:
 * each with its tools; add, edit, enable or disable, refresh (accepting
 * changed tool schemas) and delete. Until the gateway offers that API, the
 * page says so.
 */
export const McpServers = ({ client }: { readonly client: Client }) => {
  const [loaded, reload] = useLoad(
    () => orNothingYet(client.get<{ servers: ReadonlyArray<McpServer> }>(PATH)),
    [client]
  )
  const [form, setForm] = useState<"add" | McpServer>()
  const [asking, setAsking] = useState<Asking>()
  const [note, setNote] = useState<string>()
  const submit = async (input: McpServerInput) => {
    if (form === "add") await client.send("POST", PATH, input)
    else if (form !== undefined) {
      await client.send("PATCH", at(form.id), {
        url: input.url,
        ...(input.headers === undefined ? {} : { headers: input.headers })
      })
    }
    setNote(form === "add" ? `Added ${input.id}.` : `Saved ${input.id}.`)
    setForm(undefined)
    reload()
  }
  const refresh = async (server: McpServer) => {
    setNote(undefined)
    try {
      await client.send("POST", `${at(server.id)}/refresh`)
      setNote(`Refreshed ${server.id}: its tools were listed again.`)
    } catch (error) {
      setNote(`Refreshing ${server.id} failed: ${error instanceof Error ? error.message : String(error)}`)
    }
    reload()
  }
  const available = loaded.state === "done" && loaded.value !== undefined
  return (
    <>
      <PageTitle text="MCP servers">
        {form !== undefined || !available
          ? null
          : <button type="button" class="primary" onClick={() => setForm("add")}>Add server</button>}
      </PageTitle>
      <Pending loaded={loaded} />
      <p class="muted" aria-live="polite">{note}</p>
      {form === undefined ? null : (
        <McpServerForm
          {...(form === "add" ? {} : { editing: form })}
          onSubmit={submit}
          onCancel={() => setForm(undefined)}
        />
      )}
      {loaded.state !== "done" ? null : loaded.value === undefined
        ? <p class="empty">This gateway does not manage MCP servers here yet: they come from its config file.</p>
        : loaded.value.servers.length === 0
        ? <p class="empty">No MCP servers yet: add one and keys may be allowed its tools.</p>
        : (
          <Table
            caption="MCP servers"
            rowKey={(server) => server.id}
            rows={loaded.value.servers}
            columns={[
              { label: "Id", cell: (server) => <code>{server.id}</code> },
              { label: "URL", cell: (server) => <code>{server.url}</code> },
              {
                label: "Headers",
                cell: (server) => server.headerNames.length === 0 ? "none" : server.headerNames.join(", ")
              },
              {
                label: "Status",
                cell: (server) => (
                  <span class={`status ${server.enabled ? "active" : "disabled"}`}>
                    {server.enabled ? "enabled" : "disabled"}
                  </span>
                )
              },
              { label: "Tools", cell: (server) => <Tools server={server} /> },
              {
                label: "Actions",
                cell: (server) => (
                  <div class="row-actions">
                    <button type="button" onClick={() => void refresh(server)}>
                      Refresh<span class="visually-hidden">{` ${server.id}`}</span>
                    </button>
                    <button type="button" onClick={() => setForm(server)}>
                      Edit<span class="visually-hidden">{` ${server.id}`}</span>
                    </button>
                    <button type="button" onClick={() => setAsking({ kind: "toggle", server })}>
                      {server.enabled ? "Disable" : "Enable"}
                      <span class="visually-hidden">{` ${server.id}`}</span>
                    </button>
                    <button type="button" class="danger" onClick={() => setAsking({ kind: "delete", server })}>
                      Delete<span class="visually-hidden">{` ${server.id}`}</span>
                    </button>
                  </div>
                )
              }
            ]}
          />
        )}
      {asking === undefined ? null : (
        <Confirm
          title={asking.kind === "delete"
            ? `Delete MCP server ${asking.server.id}?`
            : `${asking.server.enabled ? "Disable" : "Enable"} MCP server ${asking.server.id}?`}
          action={asking.kind === "delete" ? "Delete" : asking.server.enabled ? "Disable" : "Enable"}
          danger={asking.kind === "delete" || asking.server.enabled}
          onConfirm={async () => {
            if (asking.kind === "delete") await client.send("DELETE", at(asking.server.id))
            else await client.send("PATCH", at(asking.server.id), { enabled: !asking.server.enabled })
            reload()
          }}
          onClose={() => setAsking(undefined)}
        >
          <p>
            {asking.kind === "delete"
              ? "Its tools are gone for every key within seconds; keys that name them keep the names."
              : asking.server.enabled
              ? "Its tools are no longer offered or run, until it is enabled again."
              : "Its tools are offered again to the keys that allow them."}
          </p>
        </Confirm>
      )}
    </>
  )
}
