import { Effect, Semaphore } from "effect"
import type { Browser, BrowserContext, Page } from "playwright-core"
import type { UrlPolicy } from "../outbound/urlPolicy.ts"
import { BrowserError, toBrowserError } from "./BrowserError.ts"
import { type Refusal, startPolicyProxy } from "./policyProxy.ts"

export interface SessionTimeouts {
  /** Longest wait of one action (click, fill, …) in milliseconds. */
  readonly actionMs: number
  /** Longest wait of one navigation in milliseconds. */
  readonly navigationMs: number
}

/** One browser context with its own outbound proxy: the pages of one sandbox or one request. */
export interface BrowserSession {
  /** The page actions apply to: the newest open one (a popup takes over), opened on demand. */
  readonly page: () => Promise<Page>
  /** Requests the policy refused since the last `takeRefusals`, oldest first. */
  readonly refusals: ReadonlyArray<Refusal>
  /** The refusals not reported yet (also those of a page's background activity between actions). */
  readonly takeRefusals: () => ReadonlyArray<Refusal>
  /** One action at a time: the model may call the tool in parallel within a step. */
  readonly lock: Semaphore.Semaphore
  /** Closes the context at once, which ends every Playwright call still running in it. */
  readonly close: () => Promise<void>
  /** Called once when the context is gone, whoever closed it (cancel, crash, release). */
  readonly onClosed: (listener: () => void) => void
}

const openContext = async (browser: Browser, timeouts: SessionTimeouts, policy: UrlPolicy) => {
  const refusals: Array<Refusal> = []
  const proxy = await startPolicyProxy(policy, (refusal) => refusals.push(refusal))
  let context: BrowserContext
  try {
    context = await browser.newContext({
      proxy: { server: proxy.server },
      // A service worker outlives its page and keeps fetching on its own; pages work without one.
      serviceWorkers: "block",
      acceptDownloads: false,
      viewport: { width: 1280, height: 800 }
    })
  } catch (error) {
    await proxy.close()
    throw error
  }
  context.setDefaultTimeout(timeouts.actionMs)
  context.setDefaultNavigationTimeout(timeouts.navigationMs)
  return { context, proxy, refusals }
}

/** Opens a session in `browser`; the scope closes it. */
export const openSession = Effect.fn("BrowserSession.open")(function*(
  browser: Browser,
  policy: UrlPolicy,
  timeouts: SessionTimeouts
) {
  const { context, proxy, refusals } = yield* Effect.tryPromise({
    try: () => openContext(browser, timeouts, policy),
    catch: (error) =>
      new BrowserError({ message: `Could not open a browser context: ${toBrowserError(error).message}` })
  })
  const lock = yield* Semaphore.make(1)
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= context.close().catch(() => undefined).then(() => proxy.close())
    return closing
  }
  const listeners: Array<() => void> = []
  context.once("close", () => {
    void close()
    for (const listener of listeners) listener()
  })
  const session: BrowserSession = {
    page: async () => context.pages().at(-1) ?? await context.newPage(),
    refusals,
    takeRefusals: () => refusals.splice(0),
    lock,
    close,
    onClosed: (listener) => listeners.push(listener)
  }
  yield* Effect.addFinalizer(() => Effect.promise(close))
  return session
})
