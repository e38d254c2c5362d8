import type { ComponentChildren } from "preact"
import { useEffect, useRef } from "preact/hooks"

/**
 * A page's heading. It takes the focus when the page opens, so a keyboard or
 * screen-reader user starts at the new page's top, and it names the tab.
 */
export const PageTitle = ({ text, children }: { readonly text: string; readonly children?: ComponentChildren }) => {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${text} · parley console`
    heading.current?.focus()
  }, [text])
  return (
    <div class="page-title">
      <h1 tabIndex={-1} ref={heading}>{text}</h1>
      {children}
    </div>
  )
}
