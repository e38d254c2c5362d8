import { useState } from "preact/hooks"
import type { KeyView } from "../../src/domain/views.ts"
import type { Client } from "../api.ts"
import { Confirm } from "../ui.tsx"

type Action = "activate" | "deactivate" | "revoke" | "rotate"

const DAY_SECONDS = 86_400

const questions: Record<Action, { title: string; action: string; text: string; danger?: boolean }> = {
  activate: { title: "Activate this key?", action: "Activate", text: "Requests with it are accepted again." },
  deactivate: {
    title: "Deactivate this key?",
    action: "Deactivate",
    text: "Requests with it are refused (401) within 5 seconds, until it is activated again."
  },
  revoke: {
    title: "Revoke this key for good?",
    action: "Revoke",
    text: "Requests with it are refused (401) within 5 seconds. This cannot be undone.",
    danger: true
  },
  rotate: {
    title: "Rotate this key?",
    action: "Rotate",
    text: "A new secret replaces this one. The old secret keeps working for the grace period, then is refused."
  }
}

/** Activate, deactivate, revoke and rotate, each after a confirmation. A rotation hands its new secret up. */
export const KeyActions = ({ client, keyView, onChanged, onRotated }: {
  readonly client: Client
  readonly keyView: KeyView
  readonly onChanged: () => void
  readonly onRotated: (secret: string) => void
}) => {
  const [asking, setAsking] = useState<Action>()
  const [grace, setGrace] = useState(String(DAY_SECONDS))
  const available: ReadonlyArray<Action> = keyView.status === "revoked"
    ? []
    : [keyView.status === "active" ? "deactivate" : "activate", "rotate", "revoke"]
  const run = async (action: Action) => {
    if (action === "rotate") {
      const { secret } = await client.send<{ secret: string }>("POST", `/keys/${keyView.id}/rotate`, {
        graceSeconds: Number(grace)
      })
      onRotated(secret)
    } else {
      await client.send("POST", `/keys/${keyView.id}/${action}`)
    }
    onChanged()
  }
  if (available.length === 0) return <p class="muted">This key is revoked: it can no longer be changed.</p>
  const question = asking === undefined ? undefined : questions[asking]
  return (
    <div class="actions">
      {available.map((action) => (
        <button
          type="button"
          key={action}
          class={action === "revoke" ? "danger" : undefined}
          onClick={() => setAsking(action)}
        >
          {questions[action].action}
        </button>
      ))}
      {asking === undefined || question === undefined ? null : (
        <Confirm
          title={question.title}
          action={question.action}
          {...(question.danger === true ? { danger: true } : {})}
          onConfirm={() => run(asking)}
          onClose={() => setAsking(undefined)}
        >
          <p>{question.text}</p>
          {asking !== "rotate" ? null : (
            <>
              <label for="grace">Grace period for the old secret (seconds, at most 30 days)</label>
              <input
                id="grace"
                type="number"
                min={0}
                max={30 * DAY_SECONDS}
                required
                value={grace}
                onInput={(event) => setGrace(event.currentTarget.value)}
              />
            </>
          )}
        </Confirm>
      )}
    </div>
  )
}
