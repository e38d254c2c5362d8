import { useEffect, useState } from "preact/hooks"
import type { Catalog, Client, Key } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { href } from "../route.ts"
import { Failure, list, messageOf, Pending, useLoad, when } from "../ui.tsx"
import { AllowListEditor, modelItems, toolItems } from "./AllowListEditor.tsx"
import { KeyActions } from "./KeyActions.tsx"
import { RecentRequests } from "./Requests.tsx"
import { Reveal } from "./Reveal.tsx"
import { UsageChart } from "./UsageChart.tsx"

/** One key: its facts, its state changes, its allow-lists, its usage and its recent requests. */
export const KeyPage = ({ client, id }: { readonly client: Client; readonly id: string }) => {
  const [loaded, reload] = useLoad(
    async () => {
      const [{ key }, catalog] = await Promise.all([
        client.get<{ key: Key }>(`/keys/${encodeURIComponent(id)}`),
        client.get<Catalog>("/catalog")
      ])
      return { key, catalog }
    },
    [client, id]
  )
  const [secret, setSecret] = useState<string>()
  const key = loaded.state === "done" ? loaded.value.key : undefined
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
          </dl>
          <KeyActions client={client} keyView={key} onChanged={reload} onRotated={setSecret} />
          {key.status === "revoked"
            ? null
            : <AllowLists client={client} keyView={key} catalog={loaded.value.catalog} onSaved={reload} />}
          <section aria-labelledby="usage-title">
            <h2 id="usage-title">Usage</h2>
            <UsageChart client={client} keyId={key.id} />
          </section>
          <section aria-labelledby="requests-title">
            <h2 id="requests-title">Recent requests</h2>
            <RecentRequests client={client} keyId={key.id} />
          </section>
        </>
      )}
    </>
  )
}

const AllowLists = ({ client, keyView, catalog, onSaved }: {
  readonly client: Client
  readonly keyView: Key
  readonly catalog: Catalog
  readonly onSaved: () => void
}) => {
  const [models, setModels] = useState(keyView.allowedModels)
  const [tools, setTools] = useState(keyView.allowedTools)
  const [note, setNote] = useState<string>()
  const [failure, setFailure] = useState<string>()
  useEffect(() => {
    setModels(keyView.allowedModels)
    setTools(keyView.allowedTools)
  }, [keyView])
  const save = async (event: Event) => {
    event.preventDefault()
    setNote(undefined)
    setFailure(undefined)
    try {
      await client.send("PATCH", `/keys/${keyView.id}`, { allowedModels: models, allowedTools: tools })
      setNote("Saved: the key's requests follow the new lists within 5 seconds.")
      onSaved()
    } catch (error) {
      setFailure(messageOf(error))
    }
  }
  return (
    <form class="panel" onSubmit={save} aria-labelledby="allow-title">
      <h2 id="allow-title">Allow-lists</h2>
      <AllowListEditor
        legend="Models"
        name="models"
        noun="models"
        items={modelItems(catalog.models)}
        value={models}
        onChange={setModels}
      />
      <AllowListEditor
        legend="Tools"
        name="tools"
        noun="tools"
        items={toolItems(catalog.tools)}
        value={tools}
        onChange={setTools}
      />
      <Failure message={failure} />
      <p class="muted" aria-live="polite">{note}</p>
      <button type="submit" class="primary">Save allow-lists</button>
    </form>
  )
}
