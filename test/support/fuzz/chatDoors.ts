import { Arbitrary, Effect } from "effect"
import fc from "fast-check"
import { CompletionRequest } from "../../../src/protocols/chat-completions/request.ts"
import { MessagesRequest } from "../../../src/protocols/messages/request.ts"
import { ResponsesRequest } from "../../../src/protocols/responses/request.ts"
import { validBodies as completionBodies } from "../../protocols/chat-completions/generators.ts"
import { validBodies as messagesBodies } from "../../protocols/messages/generators.ts"
import { validBodies as responsesBodies } from "../../protocols/responses/generators.ts"
import { postDoorCase } from "../doorFuzz.ts"
import { checkAnswer, type DoorCase, type ErrorOf } from "./answerCheck.ts"
import { chatCases } from "./chatBodies.ts"
import { chatCompletionsPlacements, doorCases, messagesPlacements, responsesPlacements } from "./doorCases.ts"
import { postCase } from "./fuzzGateway.ts"

/** OpenAI's error envelope: `{error: {message, type, param, code}}`. */
export const openAiError: ErrorOf = (body) => body.error

/** Anthropic's: `{type: "error", error: {type, message}}`. */
export const anthropicError: ErrorOf = (body) => {
  if (body.type !== "error") throw new Error(`not Anthropic's envelope: ${JSON.stringify(body)}`)
  return body.error
}

/** A standard door's fuzzer: its cases, how its key is sent, its error envelope. */
export interface StandardDoor {
  readonly name: string
  readonly cases: Arbitrary.Arbitrary<DoorCase>
  readonly keyHeaders: (secret: string) => Record<string, string>
  readonly errorOf: ErrorOf
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` })

export const chatCompletionsDoor: StandardDoor = {
  name: "/v1/chat/completions",
  cases: doorCases(
    ["/v1/chat/completions"],
    completionBodies,
    Object.keys(CompletionRequest.fields),
    chatCompletionsPlacements
  ),
  keyHeaders: bearer,
  errorOf: openAiError
}

export const responsesDoor: StandardDoor = {
  name: "/v1/responses",
  cases: doorCases(["/v1/responses"], responsesBodies, Object.keys(ResponsesRequest.fields), responsesPlacements),
  keyHeaders: bearer,
  errorOf: openAiError
}

export const messagesDoor: StandardDoor = {
  name: "/v1/messages",
  cases: doorCases(
    ["/v1/messages", "/v1/messages/count_tokens"],
    messagesBodies,
    Object.keys(MessagesRequest.fields),
    messagesPlacements
  ),
  keyHeaders: (secret) => ({ "x-api-key": secret }),
  errorOf: anthropicError
}

/**
 * The four chat doors as one fuzzer each for the reliability suite: `count`
 * cases from `seed`, posted one at a time to the gateway at `url` and each
 * answer held to the invariants (`checkAnswer`; `postCase` for `/api/v1/chat`);
 * resolves to the statuses.
 */
export interface DoorFuzzer {
  readonly name: string
  readonly post: (url: string, secret: string, count: number, seed: number) => Promise<ReadonlyArray<number>>
}

const standard = (door: StandardDoor): DoorFuzzer => ({
  name: door.name,
  post: async (url, secret, count, seed) => {
    const cases = await Effect.runPromise(Arbitrary.sampleEffect(door.cases, { count, seed }))
    const statuses: Array<number> = []
    for (const fuzzCase of cases) {
      const answer = await postDoorCase(url, door.keyHeaders(secret), fuzzCase)
      checkAnswer(fuzzCase, answer, door.errorOf)
      statuses.push(answer.status)
    }
    return statuses
  }
})

export const chatDoors: ReadonlyArray<DoorFuzzer> = [
  {
    name: "/api/v1/chat",
    post: async (url, secret, count, seed) => {
      const statuses: Array<number> = []
      for (const fuzzCase of fc.sample(chatCases, { numRuns: count, seed })) {
        statuses.push(await postCase(url, secret, fuzzCase))
      }
      return statuses
    }
  },
  standard(chatCompletionsDoor),
  standard(responsesDoor),
  standard(messagesDoor)
]
