import type { CollectedRun } from "../../agent/Agent.ts"
import type { Answering } from "../../http/chatProtocol.ts"
import type { ResponsesWire } from "./decode.ts"
import { ResponseItems } from "./items.ts"
import { hostedViewOf } from "./mcpItems.ts"
import { endingOf, itemPrefix, responseShell, unixSeconds } from "./response.ts"

/** A run answered in one piece as the response object (docs/DESIGN.md §14): the stream's finished items. */
export const collectResponse = (run: CollectedRun, answering: Answering<ResponsesWire>) => {
  const { correlationId, wire } = answering
  const items = new ResponseItems(itemPrefix(correlationId, wire), wire.includeEncrypted, hostedViewOf(answering))
  for (const chunk of run.events) items.events(chunk)
  return {
    ...responseShell(correlationId, wire, unixSeconds()),
    ...endingOf(run.summary, items.calledClientTools),
    output: items.output
  }
}
