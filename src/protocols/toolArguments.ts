import { MAX_JSON_DEPTH, nestsDeeperThan } from "../domain/jsonDepth.ts"
import { Refused } from "./refused.ts"

/** A tool call's input as the JSON text of its arguments (a provider that gives it as text has given the text). */
export const argumentsOf = (input: unknown): string => typeof input === "string" ? input : JSON.stringify(input ?? {})

/**
 * The arguments of a tool call a client sent as JSON text (`field` names the
 * string: `"input[1].arguments"`), parsed as a body is (docs/DESIGN.md §3.9):
 * empty text is `{}`; text that is not JSON, or nests arrays and objects
 * deeper than a body may, is the client's mistake, named. The text is inside
 * the body, so the body's size limit held it already; nested deeper, the
 * value would overflow the stack of every walk after (the provider's
 * serializer first).
 */
export const parsedArguments = (text: string, field: string): unknown => {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new Refused(`"${field}" holds JSON nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`)
  }
  try {
    return JSON.parse(text.trim() === "" ? "{}" : text)
  } catch {
    throw new Refused(`"${field}" must be JSON`)
  }
}
