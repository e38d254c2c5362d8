import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { decodeResponsesRequest } from "../../../src/protocols/responses/decode.ts"
import { endingOf, OPENING, responseJson, responseShell } from "../../../src/protocols/responses/response.ts"
import { responseProblems } from "../../support/openResponses.ts"
import { validBodies } from "./generators.ts"

const Ending = Schema.Struct({
  status: Schema.String,
  completed_at: Schema.NullOr(Schema.Int),
  error: Schema.Json,
  incomplete_details: Schema.Json,
  usage: Schema.Json,
  output: Schema.Array(Schema.Json)
})

describe("the response as its stream writes it (BENCHMARKS.md, issue 21)", () => {
  it.effect.prop(
    "is the response object stringified, byte for byte, whatever the request's settings",
    [validBodies, Ending, Schema.String],
    ([body, { output, ...ending }, correlationId]) =>
      Effect.gen(function*() {
        const { wire } = yield* decodeResponsesRequest(body)
        const shell = responseShell(correlationId, wire, 1_795_816_980)
        const json = responseJson(correlationId, wire, 1_795_816_980)
        assert.strictEqual(json(OPENING, []), JSON.stringify(shell))
        assert.strictEqual(
          json(ending, output.map((item) => JSON.stringify(item))),
          JSON.stringify({ ...shell, ...ending, output })
        )
      })
  )

  it.effect.prop(
    "validates against the Open Responses document, opening and ended, whatever the request's settings (issue 34 part 4)",
    [validBodies],
    ([body]) =>
      Effect.gen(function*() {
        const { wire } = yield* decodeResponsesRequest(body)
        const shell = responseShell("c1", wire, 1_795_816_980)
        const ended = { ...shell, ...endingOf({ finished: true, finishReason: "stop", usage: {} }, false) }
        // OpenAI's effort `minimal`, which the document's enum leaves out, is repeated as asked (docs/DESIGN.md §14).
        const departs = body.reasoning?.effort === "minimal"
        for (const response of [shell, ended]) {
          const problems = responseProblems(response)
          if (departs) {
            assert.isNotEmpty(problems)
            assert.isTrue(problems.every((problem) => problem.startsWith("response/reasoning")), problems.join("; "))
          } else assert.deepStrictEqual(problems, [])
        }
      })
  )
})
