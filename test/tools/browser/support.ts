import { Context, Effect, Layer, Schema, type Scope } from "effect"
import { AppConfig } from "../../../src/config/AppConfig.ts"
import type { ApiKey } from "../../../src/domain/ApiKey.ts"
import type { ActionResult } from "../../../src/tools/browser/actions.ts"
import { BrowserPool } from "../../../src/tools/browser/BrowserPool.ts"
import { makeBrowserTool } from "../../../src/tools/browser/browserTool.ts"
import type { UrlPolicySettings } from "../../../src/tools/outbound/urlPolicy.ts"
import { makeKey } from "../../support/keys.ts"
import { type Sites, startSites } from "./sites.ts"

export class TestSites extends Context.Service<TestSites, Sites>()("test/tools/browser/TestSites") {
  static readonly layer = Layer.effect(
    TestSites,
    Effect.acquireRelease(Effect.promise(startSites), (sites) => Effect.promise(sites.close))
  )
}

/**
 * The real pool with short timeouts (`actionMs` longer where a test is about something else than a timeout);
 * the tests' own site (127.0.0.1) is allowed unless `policy` says otherwise.
 */
export const poolLayer = (
  policy: UrlPolicySettings = { allowPrivate: false, allowedHosts: ["127.0.0.1"] },
  actionMs = 2_000
) => BrowserPool.layerWith({ policy, timeouts: { actionMs, navigationMs: 5_000 } })

/** The pool as the gateway builds it, from a server config. */
export const configuredPoolLayer = (config: Partial<AppConfig["Service"]>) =>
  BrowserPool.layer.pipe(Layer.provide(AppConfig.layerTest(config)))

const key: ApiKey = makeKey()

export interface CallOptions {
  /** The request's merged context: the same object for every call of one request. */
  readonly request?: object
  readonly sandboxId?: string | null
  readonly signal?: AbortSignal
  /** Closes when the request's run ends, when its caller says so. */
  readonly runScope?: Scope.Scope
}

/**
 * Calls the browser tool as the agent does: the model's arguments decoded
 * through the tool's JSON codec, then `execute`.
 */
export const callBrowser = (args: unknown, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const tool = makeBrowserTool(yield* BrowserPool)
    const input = yield* Schema.decodeUnknownEffect(Schema.toCodecJson(tool.inputSchema))(args).pipe(Effect.orDie)
    const output: unknown = yield* tool.execute(input, {
      toolCallId: "call_test",
      context: (options.request ?? {}) as Record<string, unknown>,
      sandboxId: options.sandboxId ?? null,
      key,
      signal: options.signal ?? new AbortController().signal,
      reportUsage: () => undefined,
      runScope: options.runScope
    })
    return output as ActionResult
  })
