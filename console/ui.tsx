import type { ComponentChildren } from "preact"
import { useCallback, useEffect, useRef, useState } from "preact/hooks"

/** Small parts every page uses: loading, errors, tables that reflow, confirmations. */

// UTC, as the CLI, the logs and the ledger's hours and days say it, in the reader's own words for dates.
const utcDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })
const utcTime = new Intl.DateTimeFormat(undefined, { timeStyle: "medium", timeZone: "UTC" })

/** A moment in UTC, saying so ("Dec 7, 2026, 3:19 AM UTC"); `never` when there is none. */
export const when = (iso: string | null, never = "—") =>
  iso === null ? never : `${utcDateTime.format(new Date(iso))} UTC`

/** The time of day of a moment in UTC, with seconds, saying so ("3:19:07 AM UTC"). */
export const timeOfDay = (iso: string) => `${utcTime.format(new Date(iso))} UTC`

export const list = (entries: ReadonlyArray<string>) => entries.length === 0 ? "none" : entries.join(", ")

/** A count and its noun, singular for one: "1 request", "2 requests". */
export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`

export type Loaded<T> =
  | { readonly state: "loading" }
  | { readonly state: "failed"; readonly message: string }
  | { readonly state: "done"; readonly value: T }

/**
 * Runs `load` now, whenever `reload` is called or `deps` change, and when the
 * tab is looked at again: what a page shows (a key's last use, usage, limits,
 * a server's status) changes while nobody watches it, and a page stays
 * mounted. A reload keeps showing the last answer until the next one is in.
 */
export function useLoad<T>(load: () => Promise<T>, deps: ReadonlyArray<unknown>) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" })
  const [round, setRound] = useState(0)
  useEffect(() => {
    // Coming back to a tab fires both events; one load answers both.
    let last = 0
    const shown = () => {
      if (document.visibilityState !== "visible" || Date.now() - last < 1000) return
      last = Date.now()
      setRound((n) => n + 1)
    }
    document.addEventListener("visibilitychange", shown)
    addEventListener("focus", shown)
    return () => {
      document.removeEventListener("visibilitychange", shown)
      removeEventListener("focus", shown)
    }
  }, [])
  useEffect(() => {
    let current = true
    load().then(
      (value) => current && setLoaded({ state: "done", value }),
      (error: unknown) => current && setLoaded({ state: "failed", message: messageOf(error) })
    )
    return () => {
      current = false
    }
  }, [...deps, round])
  return [loaded, useCallback(() => setRound((n) => n + 1), [])] as const
}

export const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error)

export const Failure = ({ message }: { readonly message: string | undefined }) =>
  message === undefined ? null : <p class="failure" role="alert">{message}</p>

/** What a `useLoad` shows until it is done. */
export const Pending = ({ loaded }: { readonly loaded: Loaded<unknown> }) =>
  loaded.state === "loading"
    ? <p class="muted" aria-live="polite">Loading…</p>
    : loaded.state === "failed"
    ? <Failure message={loaded.message} />
    : null

export interface Column<T> {
  readonly label: string
  readonly cell: (row: T) => ComponentChildren
}

/** A table that becomes one card per row on a narrow screen (each cell labelled by its column). */
export function Table<T>({ caption, columns, rows, rowKey }: {
  readonly caption: string
  readonly columns: ReadonlyArray<Column<T>>
  readonly rows: ReadonlyArray<T>
  readonly rowKey: (row: T) => string
}) {
  return (
    <table class="reflow">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>{columns.map((column) => <th scope="col" key={column.label}>{column.label}</th>)}</tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => <td key={column.label} data-label={column.label}>{column.cell(row)}</td>)}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * Asks before a change (a native modal dialog: focus stays inside, Escape
 * cancels). `children` may hold fields the action reads.
 */
export const Confirm = ({ title, action, danger, children, onConfirm, onClose }: {
  readonly title: string
  readonly action: string
  readonly danger?: boolean
  readonly children?: ComponentChildren
  readonly onConfirm: () => Promise<void>
  readonly onClose: () => void
}) => {
  const dialog = useRef<HTMLDialogElement>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string>()
  useEffect(() => {
    dialog.current?.showModal()
  }, [])
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    try {
      await onConfirm()
      onClose()
    } catch (error) {
      setFailure(messageOf(error))
      setBusy(false)
    }
  }
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="confirm-title">{title}</h2>
        {children}
        <Failure message={failure} />
        <div class="actions">
          <button type="submit" class={danger === true ? "danger" : "primary"} disabled={busy}>{action}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </dialog>
  )
}
