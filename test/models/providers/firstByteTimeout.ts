import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ModelConfig, ProviderConfig } from "../../../src/config/ProviderConfig.ts"
import { startGateway, type TestGateway } from "../../support/gateway.ts"
import { bearer, postJson } from "../../support/http.ts"
import type { ScriptedUpstream } from "../../support/upstreams/scripted.ts"

/**
 * For a wire that says "stream" in its path, not its body (Gemini's
 * `:streamGenerateContent`, Bedrock's `/converse-stream`): a stream still
 * gets the first-byte timeout, not the whole answer's (docs/DESIGN.md §3.21).
 */
export const firstByteTimeoutSuite = (spec: {
  readonly type: ProviderConfig["type"]
  readonly startUpstream: () => Promise<ScriptedUpstream>
  /** The provider over `baseURL` with `timeouts`, key and the type's own settings given. */
  readonly provider: (baseURL: string, model: ModelConfig) => ProviderConfig
  readonly modelId: string
}) =>
  describe(`provider type ${spec.type}: timeouts`, () => {
    let upstream: ScriptedUpstream
    let gateway: TestGateway
    let secret: string
    let provider: ProviderConfig
    beforeAll(async () => {
      upstream = await spec.startUpstream()
      provider = spec.provider(upstream.url, { id: spec.modelId, name: spec.modelId, categories: ["chat"] })
      gateway = await startGateway({
        providers: [{ ...provider, timeouts: { firstByteMs: 150, idleMs: 5_000, answerMs: 30_000 } }]
      })
      ;({ secret } = await gateway.createKey())
    })
    afterAll(async () => {
      await gateway.close()
      await upstream.close()
    })

    it("a stream that does not start within the first-byte timeout is 503 after the retries", async () => {
      upstream.enqueue(...Array.from({ length: 3 }, () => ({ type: "text" as const, text: "late", delayMs: 1_000 })))
      const started = Date.now()
      const response = await postJson(`${gateway.url}/api/v1/chat`, {
        model: `${provider.id}/${spec.modelId}`,
        messages: [{ role: "user", content: "hi" }],
        stream: true
      }, bearer(secret))
      expect(response.status).toBe(503)
      expect(await response.json()).toMatchObject({ details: { provider: provider.id } })
      expect(upstream.requests.map((request) => request.streaming)).toEqual([true, true, true])
      // Three attempts of 150 ms and the backoff between them, far less than the whole answer's 30 s.
      expect(Date.now() - started).toBeLessThan(10_000)
    })
  })
