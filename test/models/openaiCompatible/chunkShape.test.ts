import { OpenAICompatibleChatLanguageModel } from "@ai-sdk/openai-compatible"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkChunk, type Chunk, type ChunkSchema } from "../../../src/models/openaiCompatible/chunkShape.ts"

// The provider's own zod schema for stream chunks.
const sdkSchema = (new OpenAICompatibleChatLanguageModel("m", { provider: "p.chat", url: () => "" }) as unknown as {
  readonly chunkSchema: ChunkSchema
}).chunkSchema

const anything = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant({}),
  fc.constant([]),
  fc.jsonValue({ maxDepth: 2 })
)
/** Mostly what the schema wants, sometimes anything at all. */
const mostly = <A>(arbitrary: fc.Arbitrary<A>) =>
  fc.oneof({ weight: 5, arbitrary }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: anything })
const fields = <A extends Record<string, fc.Arbitrary<unknown>>>(shape: A) => fc.record(shape, { requiredKeys: [] })

const count = mostly(fc.nat())
const toolCall = fields({
  index: mostly(fc.nat(3)),
  id: mostly(fc.string({ maxLength: 3 })),
  type: fc.constant("function"),
  function: mostly(
    fields({ name: mostly(fc.constantFrom("f", "g", " ")), arguments: mostly(fc.string({ maxLength: 4 })) })
  ),
  extra_content: mostly(fields({ google: mostly(fields({ thought_signature: mostly(fc.string({ maxLength: 3 })) })) }))
})
const delta = fields({
  role: mostly(fc.constantFrom("assistant", "", "user")),
  content: mostly(fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.array(fields({ type: fc.constantFrom("text", "thinking", 1), text: anything, thinking: anything }), {
      maxLength: 2
    })
  )),
  refusal: anything,
  reasoning_content: mostly(fc.string({ maxLength: 4 })),
  reasoning: mostly(fc.string({ maxLength: 4 })),
  tool_calls: mostly(fc.array(toolCall, { maxLength: 2 }))
})
const usage = fields({
  prompt_tokens: count,
  completion_tokens: count,
  total_tokens: count,
  prompt_tokens_details: mostly(fields({ cached_tokens: count })),
  completion_tokens_details: mostly(fields({
    reasoning_tokens: count,
    accepted_prediction_tokens: count,
    rejected_prediction_tokens: count
  })),
  extra: anything
})
const chunkLike = fc.oneof(
  {
    weight: 8,
    arbitrary: fields({
      id: mostly(fc.string({ maxLength: 3 })),
      created: mostly(fc.integer()),
      model: mostly(fc.string({ maxLength: 3 })),
      object: anything,
      choices: mostly(
        fc.array(fields({ index: count, delta: mostly(delta), finish_reason: mostly(fc.string({ maxLength: 3 })) }), {
          maxLength: 2
        })
      ),
      usage: mostly(usage),
      error: mostly(fields({ message: mostly(fc.string({ maxLength: 3 })), code: anything, type: anything }))
    })
  },
  { weight: 1, arbitrary: anything }
)

/** Every field the parts are made of, read the way StreamParts reads it (an error chunk only for its error). */
const read = (chunk: Chunk) =>
  "error" in chunk ? { error: chunk.error } : ({
    id: chunk.id,
    created: chunk.created,
    model: chunk.model,
    usage: chunk.usage,
    finishReason: chunk.choices[0]?.finish_reason,
    delta: chunk.choices[0]?.delta == null ? chunk.choices[0]?.delta : {
      content: chunk.choices[0].delta.content,
      refusal: typeof chunk.choices[0].delta.refusal === "string" ? chunk.choices[0].delta.refusal : undefined,
      reasoning_content: chunk.choices[0].delta.reasoning_content,
      reasoning: chunk.choices[0].delta.reasoning,
      tool_calls: chunk.choices[0].delta.tool_calls?.map((call) => ({
        index: call.index,
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
        extra_content: call.extra_content
      }))
    }
  })

describe("checkChunk", () => {
  it("accepts by hand only what the provider's zod schema accepts, with the same values in every field read", () => {
    let handChecked = 0
    fc.assert(
      fc.property(chunkLike, (value) => {
        let askedZod = false
        const spy: ChunkSchema = {
          safeParse: (input) => {
            askedZod = true
            return sdkSchema.safeParse(input)
          }
        }
        const checked = checkChunk(value, spy)
        const reference = sdkSchema.safeParse(value)
        expect(checked.success).toBe(reference.success)
        if (checked.success && reference.success) {
          expect(read(checked.chunk)).toEqual(read(reference.data as Chunk))
          if (!askedZod) handChecked++
        }
        if (!checked.success && !reference.success) expect(checked.error.cause).toEqual(reference.error)
      }),
      { numRuns: 3000 }
    )
    // The hand check carried a good part of the valid chunks itself.
    expect(handChecked).toBeGreaterThan(100)
  })

  it("checks an ordinary chunk by hand", () => {
    const chunk = {
      id: "c",
      created: 1,
      model: "m",
      choices: [{
        index: 0,
        delta: { role: "assistant", content: "hi", tool_calls: [{ index: 0, function: { arguments: "{" } }] },
        finish_reason: null
      }],
      usage: null
    }
    const never: ChunkSchema = {
      safeParse: () => {
        throw new Error("zod was asked")
      }
    }
    expect(checkChunk(chunk, never)).toEqual({ success: true, chunk })
  })
})
