import { useState } from "preact/hooks"
import type { AccountView, AdminCatalog } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { Confirm, Failure, list, messageOf, Pending, Table, useLoad, when } from "../ui.tsx"
import { draftOf, RulesFields, rulesOf } from "./RulesFields.tsx"

/** The operator's page: every account, a new one, and disabling one (its keys and sessions stop within 5 s). */
export const Accounts = ({ client }: { readonly client: Client }) => {
  const [loaded, reload] = useLoad(async () => {
    const [{ accounts }, catalog] = await Promise.all([
      client.get<{ accounts: ReadonlyArray<AccountView> }>("/accounts"),
      client.get<AdminCatalog>("/catalog")
    ])
    return { accounts, catalog }
  }, [client])
  const [creating, setCreating] = useState(false)
  const [switching, setSwitching] = useState<AccountView>()
  return (
    <>
      <PageTitle text="Accounts">
        {creating
          ? null
          : <button type="button" class="primary" onClick={() => setCreating(true)}>Create account</button>}
      </PageTitle>
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : (
        <>
          {creating
            ? (
              <CreateAccount
                client={client}
                catalog={loaded.value.catalog}
                onDone={(created) => {
                  setCreating(false)
                  if (created) reload()
                }}
              />
            )
            : null}
          <Table
            caption="Accounts"
            rowKey={(account) => account.id}
            rows={loaded.value.accounts}
            columns={[
              { label: "Name", cell: (account) => <a href={href("accounts", account.id)}>{account.name}</a> },
              { label: "Email", cell: (account) => account.email ?? "—" },
              { label: "Status", cell: (account) => <span class={`status ${account.status}`}>{account.status}</span> },
              { label: "Models", cell: (account) => list(account.allowedModels) },
              { label: "Tools", cell: (account) => list(account.allowedTools) },
              { label: "Created", cell: (account) => when(account.createdAt) },
              {
                label: "Actions",
                cell: (account) => (
                  <button type="button" onClick={() => setSwitching(account)}>
                    {account.status === "active" ? "Disable" : "Enable"}
                    <span class="visually-hidden">account {account.name}</span>
                  </button>
                )
              }
            ]}
          />
        </>
      )}
      {switching === undefined ? null : (
        <Confirm
          title={`${switching.status === "active" ? "Disable" : "Enable"} the account “${switching.name}”?`}
          action={switching.status === "active" ? "Disable" : "Enable"}
          danger={switching.status === "active"}
          onConfirm={async () => {
            const status = switching.status === "active" ? "disabled" : "active"
            await client.send("PATCH", `/accounts/${encodeURIComponent(switching.id)}`, { status })
            reload()
          }}
          onClose={() => setSwitching(undefined)}
        >
          <p>
            {switching.status === "active"
              ? "Its keys and console sessions are refused within 5 seconds, until it is enabled again."
              : "Its keys and its console sign-in work again."}
          </p>
        </Confirm>
      )}
    </>
  )
}

/** A new account may use everything until narrowed (as `parley accounts create`). */
const EVERYTHING = draftOf({ allowedModels: ["*"], allowedTools: ["*"], approvalRequired: [], limits: {} })

const CreateAccount = ({ client, catalog, onDone }: {
  readonly client: Client
  readonly catalog: AdminCatalog
  readonly onDone: (created: boolean) => void
}) => {
  const [fields, setFields] = useState({ name: "", email: "", password: "" })
  const [rules, setRules] = useState(EVERYTHING)
  const [failure, setFailure] = useState<string>()
  const field = (name: keyof typeof fields) => (event: { currentTarget: HTMLInputElement }) =>
    setFields({ ...fields, [name]: event.currentTarget.value })
  const submit = async (event: Event) => {
    event.preventDefault()
    setFailure(undefined)
    try {
      await client.send("POST", "/accounts", { ...fields, ...rulesOf(rules) })
      onDone(true)
    } catch (error) {
      setFailure(messageOf(error))
    }
  }
  return (
    <form class="panel" onSubmit={submit} aria-labelledby="account-title">
      <h2 id="account-title">Create an account</h2>
      <label for="account-name">Name</label>
      <input id="account-name" required value={fields.name} onInput={field("name")} />
      <label for="account-email">Email (its sign-in)</label>
      <input id="account-email" type="email" required value={fields.email} onInput={field("email")} />
      <label for="account-password">Password (at least 8 characters)</label>
      <input
        id="account-password"
        type="password"
        minLength={8}
        required
        autocomplete="new-password"
        value={fields.password}
        onInput={field("password")}
      />
      <RulesFields name="account" subject="account" catalog={catalog} value={rules} onChange={setRules} />
      <Failure message={failure} />
      <div class="actions">
        <button type="submit" class="primary">Create account</button>
        <button type="button" onClick={() => onDone(false)}>Cancel</button>
      </div>
    </form>
  )
}
