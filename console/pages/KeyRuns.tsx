import { useEffect, useState } from "preact/hooks"
import type { KeptRunView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { Confirm, Pending, Table, useLoad, when } from "../ui.tsx"

/** While a run goes on, its row is read again this often, so a stop (or its end) shows without a reload. */
const WHILE_RUNNING_MS = 1500

/**
 * A key's resumable runs (docs/DESIGN.md §16): running ones, and those that
 * ended within the stream retention, each with the id it is kept under (a
 * chat's `id`, or a background response's `resp_…`), the door it came in by, and times; a running one
 * can be stopped wherever it runs.
 */
export const KeyRuns = ({ client, keyId }: { readonly client: Client; readonly keyId: string }) => {
  const path = `/keys/${encodeURIComponent(keyId)}/runs`
  const [loaded, reload] = useLoad(() => client.get<{ runs: ReadonlyArray<KeptRunView> }>(path), [client, path])
  const [stopping, setStopping] = useState<string>()
  const running = loaded.state === "done" && loaded.value.runs.some((run) => run.status === "running")
  useEffect(() => {
    if (!running) return
    const timer = setInterval(reload, WHILE_RUNNING_MS)
    return () => clearInterval(timer)
  }, [running, reload])
  return (
    <>
      <Pending loaded={loaded} />
      {loaded.state !== "done" ? null : loaded.value.runs.length === 0
        ? (
          <p class="empty">
            No resumable runs: a chat sent with its <code>id</code> and{" "}
            <code>"onDisconnect": "continue"</code>, or a background response (<code>"background": true</code>), shows
            here while it runs and for a while after.
          </p>
        )
        : (
          <Table
            caption="Resumable runs"
            rowKey={(run) => run.id}
            rows={loaded.value.runs}
            columns={[
              // A chat's id or a background response's: the id the run is resumed and stopped by.
              { label: "Run id", cell: (run) => <code>{run.id}</code> },
              // The door it came in by, as the requests table says it: its replays are in that door's events.
              { label: "Protocol", cell: (run) => run.protocol },
              {
                label: "Status",
                cell: (run) => (
                  <>
                    <span class={`status run-${run.status}`}>{run.status}</span>
                    {run.cut ? " (only its start kept)" : null}
                  </>
                )
              },
              { label: "Started", cell: (run) => when(run.startedAt) },
              { label: "Ended", cell: (run) => when(run.endedAt) },
              {
                label: "Actions",
                cell: (run) =>
                  run.status !== "running" ?
                    null :
                    (
                      <button type="button" class="danger" onClick={() => setStopping(run.id)}>
                        Stop<span class="visually-hidden">run {run.id}</span>
                      </button>
                    )
              }
            ]}
          />
        )}
      {stopping === undefined ? null : (
        <Confirm
          title="Stop this run?"
          action="Stop"
          danger
          onConfirm={async () => {
            await client.send("POST", `${path}/${encodeURIComponent(stopping)}/stop`)
            reload()
          }}
          onClose={() => setStopping(undefined)}
        >
          <p>
            Its model call and tools are aborted wherever it runs; its stream ends saying it was stopped.
          </p>
        </Confirm>
      )}
    </>
  )
}
