import type { ComponentChildren } from "preact"
import { useEffect, useState } from "preact/hooks"
import type { AdminCatalog } from "../../src/domain/views.ts"
import type { Client, Rules } from "../api.ts"
import { Failure, messageOf } from "../ui.tsx"
import { draftOf, type RulesDraft, RulesFields, rulesOf } from "./RulesFields.tsx"

/**
 * Edits a key's or an account's allow-lists, approvals and limits (`PATCH path`), the limits beside what is
 * used of them now; the key page and the account page share it.
 */
export const RulesForm = ({ client, path, subject, rules, catalog, onSaved, inUse }: {
  readonly client: Client
  /** The admin API's path of the key or account. */
  readonly path: string
  readonly subject: "key" | "account"
  readonly rules: Rules
  readonly catalog: AdminCatalog
  readonly onSaved: () => void
  /** What is used of the limits now, shown with them. */
  readonly inUse: ComponentChildren
}) => {
  const [draft, setDraft] = useState(() => draftOf(rules))
  const [note, setNote] = useState<string>()
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  // Reset when the saved rules change, not when the page loads the same ones again (it does when looked at again).
  const saved = JSON.stringify(draftOf(rules))
  useEffect(() => setDraft(JSON.parse(saved) as RulesDraft), [saved])
  const save = async (event: Event) => {
    event.preventDefault()
    setNote(undefined)
    setFailure(undefined)
    setBusy(true)
    try {
      await client.send("PATCH", path, rulesOf(draft))
      setNote(`Saved: the ${subject === "key" ? "key's" : "account's"} requests follow the change within 5 seconds.`)
      onSaved()
    } catch (error) {
      setFailure(messageOf(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form class="panel" onSubmit={save} aria-labelledby="rules-title">
      <h2 id="rules-title">Access and limits</h2>
      <RulesFields
        name="edit"
        subject={subject}
        catalog={catalog}
        value={draft}
        onChange={setDraft}
        inUse={inUse}
      />
      <Failure message={failure} />
      <p class="muted" aria-live="polite">{note}</p>
      <button type="submit" class="primary" disabled={busy}>Save changes</button>
    </form>
  )
}
