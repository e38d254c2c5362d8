import { useState } from "preact/hooks"
import type { SandboxView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { Confirm, Pending, Table, useLoad, when } from "../ui.tsx"

/** The account's sandboxes (all of them for the operator); a sandbox can be deleted. */
export const Sandboxes = ({ client }: { readonly client: Client }) => {
  const [loaded, reload] = useLoad(() => client.get<{ sandboxes: ReadonlyArray<SandboxView> }>("/sandboxes"), [client])
  const [deleting, setDeleting] = useState<string>()
  return (
    <>
      <PageTitle text="Sandboxes" />
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : loaded.value.sandboxes.length === 0
        ? <p class="empty">No sandboxes: a key with the sandbox tools makes one when a chat needs it.</p>
        : (
          <Table
            caption="Sandboxes"
            rowKey={(sandbox) => sandbox.id}
            rows={loaded.value.sandboxes}
            columns={[
              { label: "Id", cell: (sandbox) => <code>{sandbox.id}</code> },
              { label: "Owner", cell: (sandbox) => sandbox.owner === "key" ? `key ${sandbox.keyId}` : "account" },
              { label: "Desktop", cell: (sandbox) => sandbox.desktop ? "yes" : "no" },
              { label: "Network", cell: (sandbox) => sandbox.network ? "yes" : "no" },
              { label: "Created", cell: (sandbox) => when(sandbox.createdAt) },
              { label: "Last used", cell: (sandbox) => when(sandbox.usedAt) },
              // A local one: only this instance can delete it (docs/DESIGN.md §8); a docker one, any.
              {
                label: "Where",
                cell: (sandbox) =>
                  sandbox.instance === null
                    ? `${sandbox.backend}, every instance`
                    : `${sandbox.backend}, ${sandbox.instance}`
              },
              {
                label: "Actions",
                cell: (sandbox) => (
                  <button type="button" class="danger" onClick={() => setDeleting(sandbox.id)}>
                    Delete<span class="visually-hidden">sandbox {sandbox.id}</span>
                  </button>
                )
              }
            ]}
          />
        )}
      {deleting === undefined ? null : (
        <Confirm
          title="Delete this sandbox?"
          action="Delete"
          danger
          onConfirm={async () => {
            await client.send("DELETE", `/sandboxes/${encodeURIComponent(deleting)}`)
            reload()
          }}
          onClose={() => setDeleting(undefined)}
        >
          <p>Its files and processes are gone for good.</p>
        </Confirm>
      )}
    </>
  )
}
