import { useState } from "preact/hooks"
import type { AdminCatalog, KeyView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { list, Pending, useLoad, when } from "../ui.tsx"
import { KeyActions } from "./KeyActions.tsx"
import { KeyRuns } from "./KeyRuns.tsx"
import { LimitsInUse } from "./LimitsView.tsx"
import { RecentRequests } from "./Requests.tsx"
import { Reveal } from "./Reveal.tsx"
import { RulesForm } from "./RulesForm.tsx"
import { UsageChart } from "./UsageChart.tsx"

/** One key: its facts, its state changes, its rules and limits with their use, its usage and its recent requests. */
export const KeyPage = ({ client, id }: { readonly client: Client; readonly id: string }) => {
  const [loaded, reload] = useLoad(
    async () => {
      const [{ key }, catalog] = await Promise.all([
        client.get<{ key: KeyView }>(`/keys/${encodeURIComponent(id)}`),
        client.get<AdminCatalog>("/catalog")
      ])
      return { key, catalog }
    },
    [client, id]
  )
  const [secret, setSecret] = useState<string>()
  const key = loaded.state === "done" ? loaded.value.key : undefined
  // One place for the limits: with the fields that change them, or alone once the key is revoked.
  const inUse = key === undefined ? null : (
    <LimitsInUse
      client={client}
      subjects={[
        { path: `/keys/${encodeURIComponent(key.id)}`, caption: "This key" },
        { path: `/accounts/${encodeURIComponent(key.accountId)}`, caption: "Its account (all its keys)" }
      ]}
      round={key}
    />
  )
  return (
    <>
      <PageTitle text={key === undefined ? "Key" : `Key “${key.name}”`} />
      <p>
        <a href={href("keys")}>← All keys</a>
      </p>
      {secret === undefined ? null : <Reveal secret={secret} onDone={() => setSecret(undefined)} />}
      <Pending loaded={loaded} />
      {loaded.state !== "done" || key === undefined ? null : (
        <>
          <dl class="facts">
            <dt>Prefix</dt>
            <dd>
              <code>{key.prefix}…</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <span class={`status ${key.status}`}>{key.status}</span>
            </dd>
            <dt>Created</dt>
            <dd>{when(key.createdAt)}</dd>
            <dt>Last used</dt>
            <dd>{when(key.lastUsedAt, "never")}</dd>
            <dt>Expires</dt>
            <dd>{when(key.expiresAt, "never")}</dd>
            <dt>Models</dt>
            <dd>{list(key.allowedModels)}</dd>
            <dt>Tools</dt>
            <dd>{list(key.allowedTools)}</dd>
            <dt>Needs approval</dt>
            <dd>{list(key.approvalRequired)}</dd>
          </dl>
          <KeyActions client={client} keyView={key} onChanged={reload} onRotated={setSecret} />
          {key.status === "revoked"
            ? (
              <section aria-labelledby="limits-title">
                <h2 id="limits-title">Limits</h2>
                {inUse}
              </section>
            )
            : (
              <RulesForm
                client={client}
                path={`/keys/${encodeURIComponent(key.id)}`}
                subject="key"
                rules={key}
                catalog={loaded.value.catalog}
                onSaved={reload}
                inUse={inUse}
              />
            )}
          <section aria-labelledby="runs-title">
            <h2 id="runs-title">Resumable runs</h2>
            <KeyRuns client={client} keyId={key.id} />
          </section>
          <section aria-labelledby="usage-title">
            <h2 id="usage-title">Usage</h2>
            <UsageChart client={client} keyId={key.id} />
          </section>
          <section aria-labelledby="requests-title">
            <h2 id="requests-title">Recent requests</h2>
            <RecentRequests client={client} keyId={key.id} names={new Map([[key.id, key.name]])} />
          </section>
        </>
      )}
    </>
  )
}
