import { Cause, Context, type Duration, Effect, Layer, RcMap, Scope } from "effect"
import type { Browser } from "playwright-core"
import { AppConfig } from "../../config/AppConfig.ts"
import { makeUrlPolicy, type UrlPolicySettings } from "../outbound/urlPolicy.ts"
import { BrowserError, toBrowserError } from "./BrowserError.ts"
import { type BrowserSession, openSession, type SessionTimeouts } from "./BrowserSession.ts"

export interface BrowserPoolSettings {
  readonly policy: UrlPolicySettings
  /** Debian's Chromium; Playwright never downloads a browser of its own. */
  readonly executablePath?: string | undefined
  readonly timeouts?: Partial<SessionTimeouts> | undefined
  /** How long a request's session outlives its last action (the request may still be running). */
  readonly requestIdle?: Duration.Input | undefined
  /** How long a sandbox's session outlives its last action. */
  readonly sandboxIdle?: Duration.Input | undefined
  /** Sessions open at once; when all are taken, the least recently used idle one is closed to make room. */
  readonly maxSessions?: number | undefined
}

/**
 * Whose pages a session holds: a sandbox's, kept across requests (and apart per
 * API key, so two keys naming one sandbox never share cookies), or one request's,
 * closed with `endsWith` when the caller knows when the request ends (else it idles out).
 */
export type SessionOwner =
  | { readonly sandboxId: string; readonly keyId: string }
  | { readonly request: object; readonly endsWith?: Scope.Scope | undefined }

// Without these Chromium phones home (updates, sync, QUIC probes), which a closed network refuses noisily.
const chromiumArgs = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // WebRTC's UDP would bypass the policy proxy.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp"
]

const cancelled = () => new BrowserError({ message: "The browser action was cancelled" })

const launch = (executablePath: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      // A fresh temporary profile per launch; parley's own finalizer closes the browser on shutdown.
      // playwright-core costs ~50 MiB once imported: only a gateway that browses loads it.
      try: () =>
        import("playwright-core").then(({ chromium }) =>
          chromium.launch({
            executablePath,
            headless: true,
            chromiumSandbox: false,
            args: chromiumArgs,
            handleSIGINT: false,
            handleSIGTERM: false,
            handleSIGHUP: false
          })
        ),
      catch: (error) =>
        new BrowserError({
          message: `Could not start the browser (${executablePath}): ${toBrowserError(error).message}`
        })
    }),
    (browser) => Effect.promise(() => browser.close().catch(() => undefined))
  )

/**
 * The gateway's one Chromium, started on first use and closed at shutdown
 * (or after a while unused), with one browser context per sandbox or per
 * request. An aborted action closes its context at once.
 */
export class BrowserPool extends Context.Service<BrowserPool, {
  /** Runs `action` in the owner's session, one action per session at a time. */
  readonly use: <A>(
    owner: SessionOwner,
    signal: AbortSignal,
    action: (session: BrowserSession) => Promise<A>
  ) => Effect.Effect<A, BrowserError>
  /** Browser contexts open right now. */
  readonly openSessions: Effect.Effect<number>
}>()("parley/tools/browser/BrowserPool") {
  static readonly make = Effect.fn("BrowserPool.make")(function*(settings: BrowserPoolSettings) {
    const policy = makeUrlPolicy(settings.policy)
    const timeouts: SessionTimeouts = { actionMs: 10_000, navigationMs: 30_000, ...settings.timeouts }
    const maxSessions = settings.maxSessions ?? 32
    const open = new Set<BrowserSession>()

    const browsers: RcMap.RcMap<"chromium", Browser, BrowserError> = yield* RcMap.make({
      lookup: (_: "chromium") =>
        Effect.tap(
          launch(settings.executablePath ?? "/usr/bin/chromium"),
          (browser: Browser) =>
            Effect.sync(() =>
              browser.once("disconnected", () => Effect.runFork(RcMap.invalidate(browsers, "chromium")))
            )
        ),
      idleTimeToLive: "5 minutes"
    })

    const sessions: RcMap.RcMap<string, BrowserSession, BrowserError | Cause.ExceededCapacityError> = yield* RcMap.make(
      {
        lookup: (key: string) =>
          Effect.gen(function*() {
            // RcMap keeps a failed lookup; dropping it lets the next action try to launch again.
            const browser = yield* RcMap.get(browsers, "chromium").pipe(
              Effect.tapError(() => RcMap.invalidate(browsers, "chromium"))
            )
            const session = yield* openSession(browser, policy, timeouts)
            open.add(session)
            // Closed by a cancel or a crash: the next action of this owner gets a fresh context.
            session.onClosed(() => {
              open.delete(session)
              idleSince.delete(key)
              Effect.runFork(RcMap.invalidate(sessions, key))
            })
            return session
          }),
        idleTimeToLive: (key: string) =>
          key.startsWith("sandbox:") ? settings.sandboxIdle ?? "30 minutes" : settings.requestIdle ?? "2 minutes",
        capacity: maxSessions
      }
    )

    // A request has no id in the tool contract; its merged context object lives exactly as long as the run.
    const requestIds = new WeakMap<object, string>()
    let nextRequest = 0
    const keyOf = (owner: SessionOwner): Effect.Effect<string> =>
      Effect.suspend(() => {
        if ("sandboxId" in owner) return Effect.succeed(`sandbox:${owner.keyId}:${owner.sandboxId}`)
        const known = requestIds.get(owner.request)
        if (known !== undefined) return Effect.succeed(known)
        const id = `request:${++nextRequest}`
        requestIds.set(owner.request, id)
        return owner.endsWith === undefined
          ? Effect.succeed(id)
          : Effect.as(Scope.addFinalizer(owner.endsWith, RcMap.invalidate(sessions, id)), id)
      })

    // Keys of sessions no action is using, least recently used first (a Map keeps insertion order).
    // A request's session stays open between actions until its run ends: a full pool makes room by closing these.
    const running = new Map<string, number>()
    const idleSince = new Map<string, number>()
    const begin = (key: string) => {
      running.set(key, (running.get(key) ?? 0) + 1)
      idleSince.delete(key)
    }
    const end = (key: string) => {
      const left = (running.get(key) ?? 1) - 1
      if (left > 0) return running.set(key, left)
      running.delete(key)
      idleSince.set(key, Date.now())
    }

    const acquire = (key: string): Effect.Effect<BrowserSession, BrowserError, Scope.Scope> =>
      RcMap.get(sessions, key).pipe(
        Effect.catchCause((cause) => {
          const full = cause.reasons.some((reason) =>
            Cause.isFailReason(reason) && Cause.isExceededCapacityError(reason.error)
          )
          if (!full) {
            return Effect.andThen(RcMap.invalidate(sessions, key), Effect.fail(toBrowserError(Cause.squash(cause))))
          }
          const leastRecent = idleSince.keys().next().value
          if (leastRecent === undefined) {
            return Effect.fail(
              new BrowserError({ message: `The browser is busy (${maxSessions} sessions in use); try again shortly` })
            )
          }
          idleSince.delete(leastRecent)
          return Effect.andThen(RcMap.invalidate(sessions, leastRecent), acquire(key))
        })
      )

    const use = <A>(owner: SessionOwner, signal: AbortSignal, action: (session: BrowserSession) => Promise<A>) =>
      Effect.scoped(Effect.gen(function*() {
        if (signal.aborted) return yield* cancelled()
        const key = yield* keyOf(owner)
        yield* Effect.acquireRelease(Effect.sync(() => begin(key)), () => Effect.sync(() => end(key)))
        const session = yield* acquire(key)
        return yield* session.lock.withPermit(Effect.tryPromise({
          try: async (interrupted) => {
            const cancel = AbortSignal.any([signal, interrupted])
            const closeSession = () => void session.close()
            if (cancel.aborted) throw cancelled()
            cancel.addEventListener("abort", closeSession, { once: true })
            try {
              return await action(session)
            } finally {
              cancel.removeEventListener("abort", closeSession)
            }
          },
          catch: (error) => signal.aborted ? cancelled() : toBrowserError(error)
        }))
      })).pipe(Effect.withSpan("BrowserPool.use"))

    return BrowserPool.of({ use, openSessions: Effect.sync(() => open.size) })
  })

  static readonly layerWith = (settings: BrowserPoolSettings) => Layer.effect(BrowserPool, BrowserPool.make(settings))

  /** The pool with the outbound policy from the server config. */
  static readonly layer = Layer.unwrap(Effect.map(Effect.service(AppConfig), (config) =>
    BrowserPool.layerWith({
      policy: { allowPrivate: config.outboundAllowPrivate ?? false, allowedHosts: config.outboundAllowedHosts ?? [] }
    })))
}
