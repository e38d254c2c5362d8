import type { AccountView, AdminCatalog } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { list, Pending, useLoad, when } from "../ui.tsx"
import { LimitsInUse } from "./LimitsView.tsx"
import { RulesForm } from "./RulesForm.tsx"

/** One account, for the operator: its facts, and its rules to edit with its limits' use over all its keys. */
export const AccountPage = ({ client, id }: { readonly client: Client; readonly id: string }) => {
  const path = `/accounts/${encodeURIComponent(id)}`
  const [loaded, reload] = useLoad(async () => {
    const [{ account }, catalog] = await Promise.all([
      client.get<{ account: AccountView }>(path),
      client.get<AdminCatalog>("/catalog")
    ])
    return { account, catalog }
  }, [client, path])
  const account = loaded.state === "done" ? loaded.value.account : undefined
  return (
    <>
      <PageTitle text={account === undefined ? "Account" : `Account “${account.name}”`} />
      <p>
        <a href={href("accounts")}>← All accounts</a>
      </p>
      <Pending loaded={loaded} />
      {loaded.state !== "done" || account === undefined ? null : (
        <>
          <dl class="facts">
            <dt>Email</dt>
            <dd>{account.email ?? "—"}</dd>
            <dt>Status</dt>
            <dd>
              <span class={`status ${account.status}`}>{account.status}</span>
            </dd>
            <dt>Created</dt>
            <dd>{when(account.createdAt)}</dd>
            <dt>Models</dt>
            <dd>{list(account.allowedModels)}</dd>
            <dt>Tools</dt>
            <dd>{list(account.allowedTools)}</dd>
            <dt>Needs approval</dt>
            <dd>{list(account.approvalRequired)}</dd>
          </dl>
          <RulesForm
            client={client}
            path={path}
            subject="account"
            rules={account}
            catalog={loaded.value.catalog}
            onSaved={reload}
            inUse={
              <LimitsInUse client={client} subjects={[{ path, caption: "All its keys together" }]} round={account} />
            }
          />
        </>
      )}
    </>
  )
}
