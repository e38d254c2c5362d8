import { useState } from "preact/hooks"
import type { KeyView, RequestView } from "../../src/domain/views.ts"
import { ApiError, type Client, orNothingYet } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { type Column, Failure, messageOf, Pending, Table, useLoad, when } from "../ui.tsx"

const tools = (calls: Readonly<Record<string, number>>) => {
  const named = Object.entries(calls)
  return named.length === 0 ? "none" : named.map(([name, count]) => `${name} ×${count}`).join(", ")
}

/** Key names by id: the ledger records a key's id, a person knows the key by its name. */
export type KeyNames = ReadonlyMap<string, string>

/** The names of the keys the caller may see (every request it may see is by one of them). */
const useKeyNames = (client: Client): KeyNames => {
  const [loaded] = useLoad(async () => {
    const { keys } = await client.get<{ keys: ReadonlyArray<KeyView> }>("/keys")
    return new Map(keys.map((key) => [key.id, key.name]))
  }, [client])
  return loaded.state === "done" ? loaded.value : new Map()
}

// The name links to the key; its id stays beside it, as the API and the logs name the key.
const KeyCell = ({ id, name }: { readonly id: string; readonly name: string | undefined }) => (
  <div>
    <a href={href("keys", id)}>{name ?? id}</a>
    {name === undefined ? null : <code class="secondary">{id}</code>}
  </div>
)

const columns = (names: KeyNames): ReadonlyArray<Column<RequestView>> => [
  { label: "Time", cell: (row) => when(row.time) },
  { label: "Correlation id", cell: (row) => <code>{row.correlationId}</code> },
  { label: "Key", cell: (row) => <KeyCell id={row.keyId} name={names.get(row.keyId)} /> },
  { label: "Model", cell: (row) => row.model ?? "—" },
  { label: "Protocol", cell: (row) => row.protocol },
  { label: "Outcome", cell: (row) => `${row.outcome} (${row.status})` },
  { label: "Tokens", cell: (row) => row.totalTokens ?? "—" },
  { label: "Tools", cell: (row) => tools(row.toolCalls) },
  { label: "Duration", cell: (row) => `${(row.durationMs / 1000).toFixed(2)} s` },
  { label: "Cost", cell: (row) => row.costUsd === null ? "—" : `$${row.costUsd.toFixed(4)}` }
]

const RequestTable = ({ rows, names }: { readonly rows: ReadonlyArray<RequestView>; readonly names: KeyNames }) => (
  <Table
    caption="Requests"
    columns={columns(names)}
    rows={rows}
    rowKey={(row) => `${row.correlationId} ${row.time}`}
  />
)

/** The newest requests of a key (or of everything the caller may see), from the usage ledger. */
export const RecentRequests = ({ client, keyId, names }: {
  readonly client: Client
  readonly keyId?: string
  readonly names: KeyNames
}) => {
  const [loaded] = useLoad(async () => {
    const query = new URLSearchParams({ limit: "50", ...(keyId === undefined ? {} : { keyId }) })
    const answer = await orNothingYet(client.get<{ requests: ReadonlyArray<RequestView> }>(`/requests?${query}`))
    return answer?.requests ?? []
  }, [client, keyId])
  if (loaded.state !== "done") return <Pending loaded={loaded} />
  return loaded.value.length === 0
    ? <p class="empty">No usage recorded yet: requests show here once a key is used.</p>
    : <RequestTable rows={loaded.value} names={names} />
}

/** Recent requests, and one request found by the correlation id a client saw in `X-Correlation-Id`. */
export const Requests = ({ client }: { readonly client: Client }) => {
  const names = useKeyNames(client)
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
        : <RequestTable rows={[found.row]} names={names} />}
      <h2>Recent</h2>
      <RecentRequests client={client} names={names} />
    </>
  )
}
