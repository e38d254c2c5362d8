import { calcPrice } from "@pydantic/genai-prices"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AppConfig } from "../../src/config/AppConfig.ts"
import { loadAppConfig, writeConfigFile } from "../config/fixtures.ts"
import { startGateway, type TestGateway } from "../support/gateway.ts"
import { bearer, chatBody, postJson } from "../support/http.ts"
import { startAnthropicUpstream } from "../support/upstreams/anthropic.ts"
import type { ScriptedUpstream } from "../support/upstreams/scripted.ts"

const API_KEY = "sk-ant-api03-catalogCostTest"

/** USD per million tokens of a model's price key, as the package itself states it now. */
const listPrice = (modelId: string, key: string): number => {
  const value = calcPrice({}, modelId, { providerId: "anthropic" })?.model_price[key]
  const price = typeof value === "number" ? value : value?.base
  if (price === undefined) throw new Error(`no ${key} for ${modelId} in @pydantic/genai-prices`)
  return price
}

/**
 * A provider configured in the file with a bare model id: the request's row
 * in the ledger is priced at the catalog's list prices (docs/DESIGN.md §7, §15).
 */
describe("ledger: the cost of a request at the model catalog's prices", () => {
  let upstream: ScriptedUpstream
  let gateway: TestGateway
  let secret: string

  beforeAll(async () => {
    upstream = await startAnthropicUpstream(API_KEY)
    const path = writeConfigFile({
      providers: [{
        id: "claude",
        type: "anthropic",
        apiKey: API_KEY,
        baseURL: upstream.url,
        models: [{ id: "claude-sonnet-4-5" }]
      }]
    })
    const config: AppConfig["Service"] = await Effect.runPromise(loadAppConfig({ PARLEY_CONFIG: path }))
    gateway = await startGateway({ providers: config.providers })
    ;({ secret } = await gateway.createKey({ models: ["claude/claude-sonnet-4-5"] }))
  })
  afterAll(async () => {
    await gateway.close()
    await upstream.close()
  })

  it("input, cached input and output each at their catalog price", async () => {
    upstream.enqueue({ type: "text", text: "Priced.", usage: { input: 1_200, cached: 400, output: 60 } })
    const response = await postJson(
      `${gateway.url}/api/v1/chat`,
      chatBody({ model: "claude/claude-sonnet-4-5" }),
      bearer(secret)
    )
    expect(response.status).toBe(200)
    await response.text()
    const [row] = await gateway.ledgerRows({ limit: 1 })
    expect(row).toMatchObject({
      model: "claude/claude-sonnet-4-5",
      inputTokens: 1_200,
      cachedInputTokens: 400,
      outputTokens: 60
    })
    const expected = (800 * listPrice("claude-sonnet-4-5", "input_mtok") +
      400 * listPrice("claude-sonnet-4-5", "cache_read_mtok") +
      60 * listPrice("claude-sonnet-4-5", "output_mtok")) / 1_000_000
    expect(row!.costUsd).toBeCloseTo(expected, 12)
    expect(row!.costUsd).toBeGreaterThan(0)
  })
})
