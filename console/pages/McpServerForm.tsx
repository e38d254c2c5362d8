import { useState } from "preact/hooks"
import type { McpServerView } from "../../src/domain/views.ts"
import { Failure, messageOf } from "../ui.tsx"

/**
 * What the form sends: `POST {id, url, headers?}` to add, `PATCH {url,
 * headers?}` to edit (docs/DESIGN.md §9); on an edit, no `headers` keeps the
 * stored ones and `{}` removes them all.
 */
export interface McpServerInput {
  readonly id: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
}

interface HeaderRow {
  readonly key: number
  readonly name: string
  readonly value: string
}

/**
 * Adds a server, or edits one (`editing`): its id is fixed then, and its
 * stored header values are never shown; headers typed here replace them all,
 * none typed keeps them, and "send none" removes them.
 */
export const McpServerForm = ({ editing, onSubmit, onCancel }: {
  readonly editing?: McpServerView
  readonly onSubmit: (input: McpServerInput) => Promise<void>
  readonly onCancel: () => void
}) => {
  const [id, setId] = useState(editing?.id ?? "")
  const [url, setUrl] = useState(editing?.url ?? "")
  const [rows, setRows] = useState<ReadonlyArray<HeaderRow>>([])
  const [none, setNone] = useState(false)
  const [next, setNext] = useState(0)
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const change = (key: number, field: "name" | "value", text: string) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, [field]: text } : row)))
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    const typed = rows.filter((row) => row.name.trim() !== "")
    try {
      await onSubmit({
        id,
        url,
        ...(none
          ? { headers: {} }
          : typed.length === 0
          ? {}
          : { headers: Object.fromEntries(typed.map((row) => [row.name.trim(), row.value])) })
      })
    } catch (error) {
      setFailure(messageOf(error))
      setBusy(false)
    }
  }
  const title = editing === undefined ? "Add an MCP server" : `Edit MCP server ${editing.id}`
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="server-title">
      <h2 id="server-title">{title}</h2>
      {editing === undefined
        ? (
          <>
            <label for="server-id">Id (its tools are named id__tool)</label>
            <input
              id="server-id"
              required
              pattern="[a-z0-9\-]{1,32}"
              title="1 to 32 lower-case letters, digits or dashes"
              value={id}
              onInput={(e) => setId(e.currentTarget.value)}
            />
          </>
        )
        : null}
      <label for="server-url">URL (streamable HTTP)</label>
      <input
        id="server-url"
        type="url"
        required
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <fieldset>
        <legend>Headers sent with every request (credentials: stored encrypted, never shown again)</legend>
        {editing !== undefined && editing.headerNames.length > 0
          ? (
            <>
              <p class="muted">
                Now: {editing.headerNames.join(", ")}. Headers typed here replace them all; none keeps them.
              </p>
              <div class="check">
                <input
                  id="server-no-headers"
                  type="checkbox"
                  checked={none}
                  onChange={(e) => setNone(e.currentTarget.checked)}
                />
                <label for="server-no-headers">Send no headers (remove {editing.headerNames.join(", ")})</label>
              </div>
            </>
          )
          : null}
        {none ? null : rows.map((row, index) => (
          <div class="header-row" key={row.key}>
            <div>
              <label for={`header-name-${row.key}`}>Header {index + 1} name</label>
              <input
                id={`header-name-${row.key}`}
                value={row.name}
                autocomplete="off"
                onInput={(e) => change(row.key, "name", e.currentTarget.value)}
              />
            </div>
            <div>
              <label for={`header-value-${row.key}`}>Header {index + 1} value</label>
              <input
                id={`header-value-${row.key}`}
                type="password"
                autocomplete="off"
                value={row.value}
                onInput={(e) => change(row.key, "value", e.currentTarget.value)}
              />
            </div>
            <button type="button" onClick={() => setRows(rows.filter((other) => other.key !== row.key))}>
              Remove<span class="visually-hidden">{` header ${index + 1}`}</span>
            </button>
          </div>
        ))}
        {none ? null : (
          <button
            type="button"
            onClick={() => {
              setRows([...rows, { key: next, name: "", value: "" }])
              setNext(next + 1)
            }}
          >
            Add a header
          </button>
        )}
      </fieldset>
      <Failure message={failure} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {editing === undefined ? "Add server" : "Save server"}
        </button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
