import { useState } from "preact/hooks"
import type { McpServerView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { Confirm, count, messageOf, Pending, Table, useLoad } from "../ui.tsx"
import { ServerEndpoint, ServerSource, ServerStatus, ServerTools } from "./McpServerCells.tsx"
import { McpServerForm, type McpServerInput } from "./McpServerForm.tsx"

const PATH = "/mcp-servers"
const at = (id: string) => `${PATH}/${encodeURIComponent(id)}`

type Asking = { readonly kind: "delete" | "toggle"; readonly server: McpServerView }

/** What became of a server the API just answered with. */
const outcome = (server: McpServerView) =>
  server.status === "unreachable"
    ? `it is unreachable: ${server.reason ?? "no reason given"}`
    : server.status === "disabled"
    ? "it is disabled"
    : `it lists ${count(server.tools.length, "tool")}`

/** A note ends with one full stop, whether the server's reason brought its own or not. */
const sentence = (text: string) => /[.!?]$/.test(text) ? text : `${text}.`

/**
 * The operator's MCP servers (docs/DESIGN.md §9) over `/admin/v1/mcp-servers`:
 * each with its tools (held-back ones marked) and whether it answers; add,
 * edit, enable or disable, refresh (accepting changed tool schemas) and
 * delete. The config file's servers are read-only here; they may be refreshed.
 */
export const McpServers = ({ client }: { readonly client: Client }) => {
  const [loaded, reload] = useLoad(() => client.get<{ servers: ReadonlyArray<McpServerView> }>(PATH), [client])
  const [form, setForm] = useState<"add" | McpServerView>()
  const [asking, setAsking] = useState<Asking>()
  const [note, setNote] = useState<string>()
  const submit = async (input: McpServerInput) => {
    const { server } = form === "add"
      ? await client.send<{ server: McpServerView }>("POST", PATH, input)
      : await client.send<{ server: McpServerView }>("PATCH", at(input.id), {
        url: input.url,
        ...(input.headers === undefined ? {} : { headers: input.headers })
      })
    setNote(sentence(`${form === "add" ? "Added" : "Saved"} ${server.id}: ${outcome(server)}`))
    setForm(undefined)
    reload()
  }
  const refresh = async (id: string) => {
    setNote(undefined)
    try {
      const { server } = await client.send<{ server: McpServerView }>("POST", `${at(id)}/refresh`)
      const accepted = server.status === "reachable" ? "; changed tools are accepted" : ""
      setNote(sentence(`Refreshed ${id}: ${outcome(server)}${accepted}`))
    } catch (error) {
      setNote(`Refreshing ${id} failed: ${messageOf(error)}`)
    }
    reload()
  }
  return (
    <>
      <PageTitle text="MCP servers">
        {form !== undefined || loaded.state !== "done"
          ? null
          : <button type="button" class="primary" onClick={() => setForm("add")}>Add server</button>}
      </PageTitle>
      <Pending loaded={loaded} />
      <p class="muted whole" aria-live="polite">{note}</p>
      {form === undefined ? null : (
        <McpServerForm
          {...(form === "add" ? {} : { editing: form })}
          onSubmit={submit}
          onCancel={() => setForm(undefined)}
        />
      )}
      {loaded.state !== "done" ? null : loaded.value.servers.length === 0
        ? <p class="empty">No MCP servers yet: add one and keys may be allowed its tools.</p>
        : (
          <Table
            caption="MCP servers"
            rowKey={(server) => server.id}
            rows={loaded.value.servers}
            columns={[
              { label: "Id", cell: (server) => <code class="server-id">{server.id}</code> },
              { label: "Endpoint", cell: (server) => <ServerEndpoint server={server} /> },
              { label: "Source", cell: (server) => <ServerSource server={server} /> },
              {
                label: "Headers",
                cell: (server) => server.headerNames.length === 0 ? "none" : server.headerNames.join(", ")
              },
              { label: "Status", cell: (server) => <ServerStatus server={server} /> },
              { label: "Tools", cell: (server) => <ServerTools server={server} /> },
              {
                label: "Actions",
                cell: (server) => (
                  <div class="row-actions">
                    <button type="button" onClick={() => void refresh(server.id)}>
                      Refresh<span class="visually-hidden">{` ${server.id}`}</span>
                    </button>
                    {server.source === "config" ? null : (
                      <>
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
                      </>
                    )}
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
