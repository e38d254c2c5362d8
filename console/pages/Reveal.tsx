import { useEffect, useRef, useState } from "preact/hooks"

/**
 * A new key's secret, shown this once: it lives in this component's state
 * only (never in storage or the URL), so "Done", leaving the page or a reload
 * drops it for good. parley itself keeps only its hash.
 */
export const Reveal = ({ secret, onDone }: { readonly secret: string; readonly onDone: () => void }) => {
  const heading = useRef<HTMLHeadingElement>(null)
  const [copied, setCopied] = useState<string>("")
  useEffect(() => heading.current?.focus(), [])
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied("Copied to the clipboard."),
      () => setCopied("Copying failed: select the key and copy it by hand.")
    )
  return (
    <section class="reveal" aria-labelledby="reveal-title">
      <h2 id="reveal-title" tabIndex={-1} ref={heading}>Copy the new key now</h2>
      <p>This is the only time it is shown. Store it somewhere safe; if it is lost, rotate the key.</p>
      <div class="secret">
        <code data-testid="secret">{secret}</code>
        <button type="button" class="primary" onClick={() => void copy()}>Copy</button>
      </div>
      <p class="muted" aria-live="polite">{copied}</p>
      <button type="button" onClick={onDone}>Done, I have stored it</button>
    </section>
  )
}
