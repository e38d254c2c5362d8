import { useState } from "preact/hooks"
import type { RequestView } from "../../src/domain/views.ts"
import { ApiError, type Client, orNothingYet } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { type Column, Failure, messageOf, Pending, Table, useLoad, when } from "../ui.tsx"

const tools = (calls: Readonly<Record<string, number>>) => {
  const named = Object.entries(calls)
  return named.length === 0 ? "none" : named.map(([name, count]) => `${name} ×${count}`).join(", ")
}

const columns: ReadonlyArray<Column<RequestView>> = [
  { label: "Time", cell: (row) => when(row.time) },
  { label: "Correlation id", cell: (row) => <code>{row.correlationId}</code> },
  { label: "Key", cell: (row) => <a href={href("keys", row.keyId)}>{row.keyId}</a> },
  { label: "Model", cell: (row) => row.model ?? "—" },
  { label: "Outcome", cell: (row) => `${row.outcome} (${row.status})` },
  { label: "Tokens", cell: (row) => row.totalTokens ?? "—" },
  { label: "Tools", cell: (row) => tools(row.toolCalls) },
  { label: "Duration", cell: (row) => `${(row.durationMs / 1000).toFixed(2)} s` },
  { label: "Cost", cell: (row) => row.costUsd === null ? "—" : `$${row.costUsd.toFixed(4)}` }
]

const RequestTable = ({ rows }: { readonly rows: ReadonlyArray<RequestView> }) => (
  <Table caption="Requests" columns={columns} rows={rows} rowKey={(row) => `${row.correlationId} ${row.time}`} />
)

/** The newest requests of a key (or of everything the caller may see), from the usage ledger. */
export const RecentRequests = ({ client, keyId }: { readonly client: Client; readonly keyId?: string }) => {
  const [loaded] = useLoad(async () => {
    const query = new URLSearchParams({ limit: "50", ...(keyId === undefined ? {} : { keyId }) })
    const answer = await orNothingYet(client.get<{ requests: ReadonlyArray<RequestView> }>(`/requests?${query}`))
    return answer?.requests ?? []
  }, [client, keyId])
  if (loaded.state !== "done") return <Pending loaded={loaded} />
  return loaded.value.length === 0
    ? <p class="empty">No usage recorded yet: requests show here once a key is used.</p>
    : <RequestTable rows={loaded.value} />
}

/** Recent requests, and one request found by the correlation id a client saw in `X-Correlation-Id`. */
export const Requests = ({ client }: { readonly client: Client }) => {
  const [query, setQuery] = useState("")
  const [found, setFound] = useState<{ readonly id: string; readonly row: RequestView | undefined }>()
  const [failure, setFailure] = useState<string>()
  const search = async (event: Event) => {
    event.preventDefault()
    const id = query.trim()
    setFailure(undefined)
    try {
      const answer = await client.get<{ request: RequestView }>(`/requests/${encodeURIComponent(id)}`)
      setFound({ id, row: answer.request })
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setFound({ id, row: undefined })
      else setFailure(messageOf(error))
    }
  }
  return (
    <>
      <PageTitle text="Requests" />
      <form class="search" role="search" onSubmit={search}>
        <label for="correlation">Find a request by correlation id</label>
        <div class="inline">
          <input
            id="correlation"
            required
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
            placeholder="X-Correlation-Id of the answer"
          />
          <button type="submit">Find</button>
        </div>
      </form>
      <Failure message={failure} />
      {found === undefined ? null : found.row === undefined
        ? (
          <p class="empty" role="status">
            No request recorded with correlation id <code>{found.id}</code>.
          </p>
        )
        : <RequestTable rows={[found.row]} />}
      <h2>Recent</h2>
      <RecentRequests client={client} />
    </>
  )
}
