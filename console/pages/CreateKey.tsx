import { useState } from "preact/hooks"
import type { AccountView, AdminCatalog, KeyView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { Failure, messageOf } from "../ui.tsx"
import { draftOf, RulesFields, rulesOf } from "./RulesFields.tsx"

const NOTHING = draftOf({ allowedModels: [], allowedTools: [], approvalRequired: [], limits: {} })

/** The form that creates a key; the operator also picks its account. */
export const CreateKey = ({ client, catalog, accounts, onCreated, onCancel }: {
  readonly client: Client
  readonly catalog: AdminCatalog
  readonly accounts: ReadonlyArray<AccountView> | undefined
  readonly onCreated: (created: { readonly key: KeyView; readonly secret: string }) => void
  readonly onCancel: () => void
}) => {
  const [name, setName] = useState("")
  const [rules, setRules] = useState(NOTHING)
  const [expires, setExpires] = useState("")
  const [accountId, setAccountId] = useState("")
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    try {
      onCreated(
        await client.send<{ key: KeyView; secret: string }>("POST", "/keys", {
          name,
          ...rulesOf(rules),
          ...(expires === "" ? {} : { expiresAt: new Date(`${expires}Z`).toISOString() }),
          ...(accountId === "" ? {} : { accountId })
        })
      )
    } catch (error) {
      setFailure(messageOf(error))
      setBusy(false)
    }
  }
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      {accounts === undefined ? null : (
        <>
          <label for="key-account">Account</label>
          <select id="key-account" value={accountId} onChange={(e) => setAccountId(e.currentTarget.value)}>
            <option value="">default</option>
            {accounts.filter((account) => account.id !== "default").map((account) => (
              <option key={account.id} value={account.id}>{account.name} ({account.email ?? account.id})</option>
            ))}
          </select>
        </>
      )}
      <RulesFields name="create" subject="key" catalog={catalog} value={rules} onChange={setRules} />
      <label for="key-expires">Expires (optional, UTC)</label>
      <input
        id="key-expires"
        type="datetime-local"
        value={expires}
        onInput={(e) => setExpires(e.currentTarget.value)}
      />
      <Failure message={failure} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Create key</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  )
}
