import { assert, describe, layer } from "@effect/vitest"
import { MockLanguageModelV4 } from "ai/test"
import { Effect, Layer } from "effect"
import { ChatPlanner } from "../../src/chat/ChatPlanner.ts"
import { AppConfig } from "../../src/config/AppConfig.ts"
import { Admission } from "../../src/governance/Admission.ts"
import { Approvals } from "../../src/governance/Approvals.ts"
import { Budgets } from "../../src/governance/Budgets.ts"
import { Limiter, MINUTE_MS } from "../../src/governance/Limiter.ts"
import { McpRegistry } from "../../src/mcp/McpRegistry.ts"
import { ModelRegistry } from "../../src/models/ModelRegistry.ts"
import { decodeUiRequest } from "../../src/protocols/ui/decode.ts"
import { Pruner } from "../../src/prune/Pruner.ts"
import { BudgetCounters } from "../../src/store/BudgetCounters.ts"
import * as Database from "../../src/store/Database.ts"
import { LimitCounters } from "../../src/store/LimitCounters.ts"
import { ToolRegistry } from "../../src/tools/ToolRegistry.ts"
import { makeKey } from "../support/keys.ts"
import { makeTestTool } from "../support/tools.ts"

const entry = { id: "test/small", name: "Small", categories: ["chat"], provider: "test", contextWindow: 2_000 }

const planner = ChatPlanner.layer.pipe(
  Layer.provide(ModelRegistry.layerTest([{ entry, model: new MockLanguageModelV4() }])),
  Layer.provide(ToolRegistry.layerTest([
    makeTestTool({ name: "echo" }),
    makeTestTool({ name: "needs_token", requiredContext: [{ field: "partnerToken" }] })
  ])),
  Layer.provide(Pruner.layer),
  Layer.provide(McpRegistry.layerEmpty),
  Layer.provide(Approvals.layerTest),
  // The admission over one store's counters, as the gateway composes it.
  Layer.provide(
    Admission.layer.pipe(
      Layer.provide(Layer.merge(Layer.effect(Budgets, Budgets.make), Layer.effect(Limiter, Limiter.make(MINUTE_MS)))),
      Layer.provide(Layer.merge(BudgetCounters.layerSql, LimitCounters.layerSql)),
      Layer.provide(Database.layerFromUrl("sqlite::memory:")),
      Layer.provide(AppConfig.layerTest())
    )
  )
)

const say = (text: string, role = "user") => ({ role, content: text })
const body = (overrides: Record<string, unknown> = {}) => ({
  model: "test/small",
  messages: [say("Hello")],
  ...overrides
})

// The ui protocol's decoder first, as the route runs it: the bodies here are the spec's.
const plan = (request: unknown, key = makeKey()) =>
  Effect.flatMap(
    Effect.zip(Effect.service(ChatPlanner), decodeUiRequest(request)),
    ([p, decoded]) => p.plan(decoded.request, key)
  )
const failure = (request: unknown, key = makeKey()) =>
  Effect.map(Effect.flip(plan(request, key)), (error) => error._tag)

layer(planner)("ChatPlanner", (it) => {
  describe("a run states its facts; http/ makes the headers", () => {
    it.effect("the tools used and those skipped for missing context", () =>
      Effect.gen(function*() {
        const result = yield* plan(body({ allowedTools: ["echo", "needs_token"], contextStrategy: "skip" }))
        assert.strictEqual(result._tag, "Run")
        if (result._tag !== "Run") return
        assert.deepStrictEqual(result.tools, { used: ["echo"], skipped: ["needs_token"] })
        assert.isFalse(result.pruned)
        assert.deepStrictEqual(result.run.tools.map(({ tool }) => tool.name), ["echo"])
      }))

    it.effect("whether pruning removed anything, and the run gets the pruned conversation", () =>
      Effect.gen(function*() {
        const long = Array.from(
          { length: 12 },
          (_, i) => say("lorem ipsum dolor sit amet ".repeat(40), i % 2 === 0 ? "user" : "assistant")
        )
        const options = { targetTokens: 1_000, maxOutputTokens: 500, preserveRecentMessages: 1 }
        const result = yield* plan(body({ messages: long, prune: true, pruneOptions: options }))
        if (result._tag !== "Run") return assert.fail("expected a run")
        assert.isTrue(result.pruned)
        assert.isBelow(result.run.messages.length, 12)
      }))
  })

  it.effect("validateOnly is a report, with findings instead of failures", () =>
    Effect.gen(function*() {
      const result = yield* plan(
        body({ validateOnly: true, allowedTools: ["needs_token"], messages: [] }),
        makeKey({ allowedModels: [] })
      )
      if (result._tag !== "Report") return assert.fail("expected a report")
      assert.isFalse(result.report.valid)
      assert.deepStrictEqual(result.report.model, { valid: false, error: "Model not available with your API key" })
    }))

  it.effect("fails by meaning, in the order of the checks", () =>
    Effect.gen(function*() {
      assert.strictEqual(yield* failure({ messages: [] }), "InvalidRequest")
      assert.strictEqual(yield* failure(body({ promptType: "nope" })), "InvalidPromptType")
      assert.strictEqual(
        yield* failure(body({ model: "test/nope" }), makeKey({ allowedModels: ["test/small"] })),
        "ModelNotAllowed"
      )
      assert.strictEqual(yield* failure(body({ model: "test/nope" })), "UnknownModel")
      assert.strictEqual(yield* failure(body({ allowedTools: ["nope"] })), "UnknownTool")
      assert.strictEqual(
        yield* failure(body({ allowedTools: ["echo"] }), makeKey({ allowedTools: [] })),
        "ToolNotAllowed"
      )
      assert.strictEqual(yield* failure(body({ allowedTools: ["needs_token"] })), "MissingToolContext")
      assert.strictEqual(yield* failure(body({ messages: [] })), "EmptyConversation")
      const unanswered = [
        say("Echo hi"),
        {
          role: "assistant",
          parts: [{ type: "dynamic-tool", toolName: "echo", toolCallId: "c", state: "input-available", input: {} }]
        },
        say("and?")
      ]
      assert.strictEqual(yield* failure(body({ messages: unanswered })), "InvalidHistory")
      const impossible = { targetTokens: 5_000, maxOutputTokens: 500, preserveRecentMessages: 1 }
      assert.strictEqual(yield* failure(body({ prune: true, pruneOptions: impossible })), "TargetExceedsWindow")
    }))
})
