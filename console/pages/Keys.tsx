import { useState } from "preact/hooks"
import type { AccountView, AdminCatalog, KeyView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { type Column, list, Pending, Table, useLoad, when } from "../ui.tsx"
import { CreateKey } from "./CreateKey.tsx"
import { Reveal } from "./Reveal.tsx"

export const keyColumns = (accounts: ReadonlyArray<AccountView> | undefined): ReadonlyArray<Column<KeyView>> => [
  { label: "Name", cell: (key) => <a href={href("keys", key.id)}>{key.name}</a> },
  { label: "Prefix", cell: (key) => <code>{key.prefix}…</code> },
  { label: "Status", cell: (key) => <span class={`status ${key.status}`}>{key.status}</span> },
  ...(accounts === undefined ? [] : [{
    label: "Account",
    cell: (key: KeyView) => accounts.find((account) => account.id === key.accountId)?.name ?? key.accountId
  }]),
  { label: "Models", cell: (key) => list(key.allowedModels) },
  { label: "Tools", cell: (key) => list(key.allowedTools) },
  { label: "Created", cell: (key) => when(key.createdAt) },
  { label: "Last used", cell: (key) => when(key.lastUsedAt, "never") },
  { label: "Expires", cell: (key) => when(key.expiresAt, "never") }
]

/** The keys of the account (all of them for the operator), and the one place a new key's secret is shown. */
export const Keys = ({ client, operator }: { readonly client: Client; readonly operator: boolean }) => {
  const [loaded, reload] = useLoad(
    async () => {
      const [{ keys }, catalog, accounts] = await Promise.all([
        client.get<{ keys: ReadonlyArray<KeyView> }>("/keys"),
        client.get<AdminCatalog>("/catalog"),
        operator ? client.get<{ accounts: ReadonlyArray<AccountView> }>("/accounts") : undefined
      ])
      return { keys, catalog, accounts: accounts?.accounts }
    },
    [client]
  )
  const [creating, setCreating] = useState(false)
  const [secret, setSecret] = useState<string>()
  return (
    <>
      <PageTitle text="Keys">
        {creating || secret !== undefined ?
          null :
          <button type="button" class="primary" onClick={() => setCreating(true)}>Create key</button>}
      </PageTitle>
      {secret === undefined ? null : <Reveal secret={secret} onDone={() => setSecret(undefined)} />}
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : (
        <>
          {creating
            ? (
              <CreateKey
                client={client}
                catalog={loaded.value.catalog}
                accounts={loaded.value.accounts}
                onCancel={() => setCreating(false)}
                onCreated={(created) => {
                  setCreating(false)
                  setSecret(created.secret)
                  reload()
                }}
              />
            )
            : null}
          {loaded.value.keys.length === 0
            ? (
              <p class="empty">
                No keys yet — <button type="button" class="link" onClick={() => setCreating(true)}>create one</button>.
              </p>
            )
            : (
              <Table
                caption="Keys"
                columns={keyColumns(loaded.value.accounts)}
                rows={loaded.value.keys}
                rowKey={(key) => key.id}
              />
            )}
        </>
      )}
    </>
  )
}
