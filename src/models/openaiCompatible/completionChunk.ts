import { isRecord } from "../../domain/isRecord.ts"

// A message's tool calls as the deltas of one chunk: each gets the index a stream would number it with.
const toolCallDeltas = (calls: unknown): unknown =>
  Array.isArray(calls) ? calls.map((call, index) => isRecord(call) ? { index, ...call } : call) : calls

const choiceAsDelta = (choice: unknown): unknown => {
  if (!isRecord(choice) || !isRecord(choice.message)) return choice
  const { message, ...rest } = choice
  const delta = message.tool_calls === undefined
    ? message
    : { ...message, tool_calls: toolCallDeltas(message.tool_calls) }
  return { ...rest, delta }
}

/**
 * A non-streamed Chat Completions answer as the one stream chunk that
 * carries all of it: each choice's `message` becomes its `delta`, tool
 * calls numbered in order. Read by the stream's own parser, a whole answer
 * gives the parts its stream would, with each text in one delta. Anything
 * else (an error body, a shape no one knows) is left as it is, for the
 * chunk check to judge.
 */
export const completionAsChunk = (value: unknown): unknown =>
  isRecord(value) && Array.isArray(value.choices) ? { ...value, choices: value.choices.map(choiceAsDelta) } : value
