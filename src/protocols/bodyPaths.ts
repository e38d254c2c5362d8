import { UnfetchablePart } from "../agent/partDownloads.ts"
import { InvalidHistory } from "../domain/requestErrors.ts"
import type { ApiFailure } from "../http/errorTable.ts"

const modelPath = /^messages\[(\d+)\](?:\.content\[(\d+)\])?/

/**
 * A failure the core found in the conversation names its place in the
 * model messages (`messages[0].content[1]`); the client is told its own
 * (`messages[2].content[1]`, `input[3].content[0]`): the body's list is
 * `field`, a model message's content parts are its message's, one for one,
 * unless `places` names each part's own.
 */
export const withBodyPaths = (
  failure: ApiFailure,
  origins: ReadonlyArray<number>,
  places?: ReadonlyArray<ReadonlyArray<string>>,
  field = "messages"
): ApiFailure => {
  if (failure._tag !== "UnfetchablePart" && failure._tag !== "InvalidHistory") return failure
  const found = modelPath.exec(failure.path)
  const origin = found === null ? undefined : origins[Number(found[1])]
  if (found === null || origin === undefined) return failure
  const place = found[2] === undefined ? undefined : places?.[Number(found[1])]?.[Number(found[2])]
  const path = `${place ?? `${field}[${origin}]${found[2] === undefined ? "" : `.content[${found[2]}]`}`}${
    failure.path.slice(found[0].length)
  }`
  return failure._tag === "UnfetchablePart"
    ? new UnfetchablePart({ path, reason: failure.reason, url: failure.url })
    : new InvalidHistory({ path, problem: failure.problem })
}
